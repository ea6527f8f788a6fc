"""Registering, changing and deleting players, withdrawals, and the byes players ask for."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..models import (
    BYE_WORDS,
    REQUESTED_BYES,
    SEEN_CHANGED,
    AuditAction,
    AuditEntry,
    Bye,
    ByeKind,
    Conflict,
    ForbiddenPair,
    Game,
    IntegrityKind,
    Player,
    Seat,
    Tournament,
    namesakes,
)
from ..warning_levels import Level, require
from ..wording import counted, points_text
from . import events, numbering, restore
from .drafts import discard_draft
from .numbering import renumber


def set_byes(
    tournament, round_number: int, wanted: dict[int, str], user=None, seen: dict[int, str] | None = None,
    confirmations: int = 0, asked: list[str] | None = None,
) -> list[str]:
    """Requested byes for one round not yet published: ``wanted`` maps player pk to
    ``""`` (plays), ``H``, ``Z`` or ``F``.  All or nothing; returns the changes made.

    ``seen``: the byes the arbiter's page showed (pk to kind, players without one
    left out).  Then only the players the arbiter changed on the page are touched, so
    a bye another arbiter set meanwhile stays; and if one of those players' bye was
    changed meanwhile, :class:`Conflict` is raised and nothing is saved.

    Changing the byes of the round in draft discards the draft.  A full-point bye is a
    pairing-integrity event (a point without a game, outside the pairing): it needs a
    Level-3 confirmation (``confirmations``) and is recorded.

    ``asked`` (a list): the warnings of this round are added to it instead of being asked
    here; the caller asks them all at once (:func:`set_byes_grid`) inside the transaction
    that made these changes, so a refusal undoes them.
    """
    first_open = tournament.rounds_published() + 1
    if not first_open <= round_number <= tournament.rounds:
        raise ValueError(_("Byes can be set for rounds %(first)s to %(last)s.") % {"first": first_open, "last": tournament.rounds})
    players = {p.pk: p for p in tournament.player_set.filter(pk__in=list(wanted))}
    allowed = {"", *REQUESTED_BYES}
    for pk, value in wanted.items():
        if pk not in players:
            raise ValueError(_("Player %(pk)s is not in this tournament.") % {"pk": pk})
        if value not in allowed:
            raise ValueError(_("%(name)s: unknown choice %(value)r.") % {"name": players[pk].shown_name, "value": value})
    changes = []
    before, after = {}, {}
    with transaction.atomic():
        tournament.lock()
        point = restore.take(tournament) if ByeKind.FULL in wanted.values() else None
        current = {b.player_id: b for b in Bye.objects.filter(tournament=tournament, round_number=round_number)}
        if seen is not None:
            wanted = {pk: v for pk, v in wanted.items() if v != seen.get(pk, "")}
            clashes = [
                players[pk].shown_name
                for pk in wanted
                if (current[pk].kind if pk in current else "") != seen.get(pk, "")
            ]
            if clashes:
                raise Conflict(
                    _("Round %(n)s: another arbiter changed the bye of %(names)s since you opened the page. Nothing "
                      "was saved; check the list and save again.") % {"n": round_number, "names": ", ".join(clashes)}
                )
        for pk, value in wanted.items():
            p, bye = players[pk], current.get(pk)
            if bye is not None and bye.kind == ByeKind.PAIRING:
                continue  # the draft's PAB: it goes away with the draft
            key = f"{p.tpn} {p.name}"
            if bye is not None and not value:
                bye.delete()
                changes.append(f"{p.name} plays")
                before[key], after[key] = bye.kind, ""
            elif value and (bye is None or bye.kind != value):
                Bye.objects.update_or_create(
                    player=p, round_number=round_number, defaults={"tournament": tournament, "kind": value}
                )
                changes.append(f"{p.name}: {BYE_WORDS[value]}")
                before[key], after[key] = bye.kind if bye is not None else "", value
        new = {pk: v for pk, v in wanted.items() if after.get(f"{players[pk].tpn} {players[pk].name}") == v}
        full = [players[pk] for pk, v in new.items() if v == ByeKind.FULL]
        warnings = half_bye_warnings(tournament, round_number, [players[pk] for pk, v in new.items() if v == ByeKind.HALF])
        if full:
            shown = namesakes(tournament.pk)
            names = ", ".join(p.name_among(shown) for p in full)
            warnings += [
                _("%(names)s: a full-point bye scores %(points)s without a game. FIDE's rules discourage full-point "
                  "byes.") % {"names": names, "points": points_text(tournament.point_win)},
                _("It is a pairing-integrity event: recorded and written in the rating report's copy."),
            ]
        if warnings and asked is not None:
            asked.extend(_("Round %(n)s:") % {"n": round_number} + " " + w for w in warnings)
        elif warnings:
            require(Level.CONFIRM, confirmations, _("Byes of round %(n)s") % {"n": round_number}, warnings)
        if changes:
            if round_number == first_open:
                discard_draft(tournament, user, "Byes changed.")
            AuditEntry.log(
                tournament, user, AuditAction.BYE, f"Round {round_number}: " + "; ".join(changes),
                label=f"Round {round_number} byes", before=before, after=after,
            )
        if full:
            events.record(
                tournament, IntegrityKind.FULL_BYE, round_number,
                f"Full-point bye @ Round {round_number}: " + " ".join(str(p.tpn) for p in full), user, point=point,
            )
    return changes


def half_bye_warnings(tournament, round_number: int, players: list) -> list[str]:
    """A second or later half-point bye of a player (VCL4THP Q174: Level 3); a player not
    eligible for half-point byes is refused (Q175–176)."""
    out = []
    for p in players:
        if p.no_half_point_byes:
            raise ValueError(_("%(name)s is not eligible for half-point byes (see the player's page).") % {"name": p.shown_name})
        others = sorted(
            Bye.objects.filter(player=p, kind=ByeKind.HALF).exclude(round_number=round_number)
            .values_list("round_number", flat=True)
        )
        if others:
            rounds = ", ".join(map(str, others))
            out.append(ngettext(
                "%(name)s already has a half-point bye (round %(rounds)s); this is number %(n)s.",
                "%(name)s already has a half-point bye (rounds %(rounds)s); this is number %(n)s.", len(others),
            ) % {"name": p.shown_name, "rounds": rounds, "n": len(others) + 1})
    return out


def set_byes_grid(
    tournament, wanted: dict[int, dict[int, str]], user=None, seen: dict[int, dict[int, str]] | None = None,
    confirmations: int = 0,
) -> dict[int, list[str]]:
    """:func:`set_byes` for several rounds at once (the byes grid), all or nothing: a
    refusal in any round saves nothing in any.  ``wanted`` and ``seen`` by round number.

    One Level-3 question for the whole grid, listing the warnings of every round (VCL4THP
    Q174: a second half-point bye in a later round, a full-point bye ...), each under its
    round: the rounds are applied in order in one transaction (so a half-point bye set in
    an earlier round of the same grid counts), and without enough confirmations the
    question is raised inside it, which undoes every round."""
    done = {}
    asked: list[str] = []
    with transaction.atomic():
        for number in sorted(wanted):
            changes = set_byes(tournament, number, wanted[number], user, (seen or {}).get(number), confirmations,
                               asked=asked)
            if changes:
                done[number] = changes
        if asked:
            rounds = ", ".join(str(n) for n in sorted(done))
            require(Level.CONFIRM, confirmations, _("Byes of rounds %(rounds)s") % {"rounds": rounds}, asked)
    return done


FIDE_ID_TAKEN = gettext_lazy("A player with this FIDE id was registered a moment ago (by another arbiter?); nothing was saved.")


def _saved_unless_fide_id_taken(save: Callable[[], object]):
    """``save()`` in a savepoint; the unique FIDE id constraint (two adds at once, audit
    finding 7) becomes a :class:`Conflict` with a sentence instead of a server error."""
    try:
        with transaction.atomic():
            return save()
    except IntegrityError as exc:
        if "fide_id" not in str(exc):
            raise
        raise Conflict(str(FIDE_ID_TAKEN)) from exc


def _entered_round(tournament: Tournament) -> int | None:
    """The round a player registered now enters in: the first not yet published (None
    before round 1 is: not a late entry)."""
    published = tournament.rounds_published()
    return published + 1 if published else None


def add_players(tournament: Tournament, rows: list[dict], user=None, how: str = "from a list") -> list[Player]:
    """Register players (field dicts) in one transaction and renumber."""
    with transaction.atomic():
        tournament.lock()
        # one INSERT per 1,000 rows (a 30,000-line list took 19 s one by one)
        entered = _entered_round(tournament)
        created = _saved_unless_fide_id_taken(
            lambda: Player.objects.bulk_create([Player(tournament=tournament, entered_round=entered, **row)
                                                for row in rows], batch_size=1000)
        )
        renumber(tournament)
        discard_draft(tournament, user, "Players were added.")
        tpns = dict(tournament.player_set.values_list("pk", "tpn"))  # SQLite and PostgreSQL return the new pks
        for p in created:
            p.tpn = tpns[p.pk]
        AuditEntry.log(
            tournament, user, AuditAction.IMPORT, f"{counted(len(created), 'player')} added {how}.",
            label=f"{len(created)} players", after={"players": [p.audit_label() for p in created]},
        )
    return created


def add_player(tournament: Tournament, save: Callable[[], Player], user) -> Player:
    """Register a player (``save``: the form's save) under the tournament lock, give
    everyone their pairing numbers again, discard the draft and log it."""
    with transaction.atomic():
        tournament.lock()
        player = _saved_unless_fide_id_taken(save)
        if entered := _entered_round(tournament):
            Player.objects.filter(pk=player.pk).update(entered_round=entered)
        renumber(tournament)
        player.refresh_from_db()
        discard_draft(tournament, user, "A player was added.")
        AuditEntry.log(
            tournament, user, AuditAction.PLAYER, f"{player.name} registered with TPN {player.tpn}.",
            obj=player, label=player.audit_label(), after=player.audit_values(),
        )
    return player


def change_player(
    tournament, player: Player, save: Callable[[], Player], user, before: dict, seen: str = "",
    confirmations: int = 0,
) -> Player:
    """Save ``player``'s changes (``save``: the form's save) under the tournament lock;
    log the fields that changed (``before``: their old values) and discard the draft
    if any changed (a rating change can renumber everyone).  ``seen``: the version
    the arbiter's form was made from; raises :class:`Conflict` if the player changed
    since.

    Once a round is paired and until round 4 is (the numbers still follow the ratings),
    a change that gives two or more players another number -- a rating corrected, say
    -- regenerates the list: a Level-3 confirmation naming the moves (VCL4THP Q154)."""
    with transaction.atomic():
        current = tournament.lock()
        if seen and Player.objects.get(pk=player.pk).version() != seen:
            raise Conflict(SEEN_CHANGED % {"what": _("%(name)s's details") % {"name": before["name"]}})
        player = _saved_unless_fide_id_taken(save)
        if (current.rounds_published() and not current.ranking_frozen and not current.numbers_by_hand
                and not current.round_robin):
            moved = numbering.moves(current, numbering.by_rules(current))
            if len(moved) >= 2:
                require(Level.CONFIRM, confirmations, _("Regenerate the pairing numbers"), [
                    _("This change gives %(n)s players another pairing number: %(moves)s.") % {
                        "n": len(moved),
                        "moves": ", ".join(f"{p.name} {old} => {new}" for p, old, new in moved[:30])
                        + (" …" if len(moved) > 30 else "")},
                    _("Round 1 has been paired with the old numbers; the next rounds use the new ones."),
                ])
        renumber(tournament)
        player.refresh_from_db()
        after = player.audit_values(list(before))
        changed = [f for f in before if before[f] != after[f]]
        if changed:
            discard_draft(tournament, user, "A player was changed.")
            AuditEntry.log(
                tournament, user, AuditAction.PLAYER, f"{player.name}: changed {', '.join(changed)}.",
                obj=player, label=player.audit_label(),
                before={f: before[f] for f in changed}, after={f: after[f] for f in changed},
            )
    return player


def delete_player(tournament: Tournament, player: Player, user) -> None:
    """Delete a player who was never paired (ValueError otherwise) and renumber."""
    with transaction.atomic():
        tournament.lock()
        paired = Seat.objects.filter(player=player).exists() or Game.objects.filter(
            Q(white=player) | Q(black=player)
        ).exists()
        if paired or player.bye_set.filter(kind=ByeKind.PAIRING).exists():
            raise ValueError(_("%(name)s has been paired; withdraw them instead of deleting.") % {"name": player.shown_name})
        before, label, pk = player.audit_values(), player.audit_label(), player.pk
        pairs = ForbiddenPair.objects.filter(Q(player_a=player) | Q(player_b=player))
        if pairs.exists():  # deleted with the player: say so in the entry
            before["forbidden_pairs"] = sorted(p.audit_label() for p in pairs.select_related("player_a", "player_b"))
        player.delete()
        renumber(tournament)
        discard_draft(tournament, user, "A player was deleted.")
        AuditEntry.log(
            tournament, user, AuditAction.PLAYER, f"{before['name']} deleted.",
            object_type="player", object_id=pk, label=label, before=before,
        )


def withdraw(player: Player, from_round: int | None, user=None, expelled: bool = False) -> str:
    """Not paired from ``from_round`` on (None: back in the tournament).  ``expelled``:
    withdrawn by the arbiters' decision, left out of the standings (VCL4THP Q197–198).

    Only rounds not yet paired; raises ValueError otherwise.  Returns a sentence.
    """
    if expelled and from_round is None:
        raise ValueError(_("An expelled player is withdrawn from a round: give the round."))
    t = player.tournament
    with transaction.atomic():
        t.lock()
        published = t.rounds_published()
        if from_round is not None and from_round <= published:
            raise ValueError(
                _("Round %(n)s is already paired; a withdrawal starts with round %(next)s or later.")
                % {"n": from_round, "next": published + 1}
            )
        if from_round is not None and from_round > t.rounds:
            raise ValueError(_("The tournament has %(rounds)s rounds; there is no round %(n)s.") % {"rounds": t.rounds, "n": from_round})
        stored = Player.objects.get(pk=player.pk)
        before = {"withdrawn_from_round": stored.withdrawn_from_round}
        after = {"withdrawn_from_round": from_round}
        if expelled or stored.expelled:  # said only when it is part of the change
            before["expelled"], after["expelled"] = stored.expelled, expelled
        player.withdrawn_from_round, player.expelled = from_round, expelled
        player.save(update_fields=["withdrawn_from_round", "expelled"])
        discard_draft(t, user, "A withdrawal changed.")
        verb = "expelled" if expelled else "withdrawn"
        text = f"{player.name} {verb} from round {from_round}" if from_round else f"{player.name} back in the tournament"
        AuditEntry.log(
            t, user, AuditAction.WITHDRAW, text + ".", obj=player, label=player.audit_label(),
            before=before, after=after,
        )
    if not from_round:
        return _("%(name)s back in the tournament.") % {"name": player.shown_name}
    if expelled:
        return _("%(name)s expelled from round %(n)s.") % {"name": player.shown_name, "n": from_round}
    return _("%(name)s withdrawn from round %(n)s.") % {"name": player.shown_name, "n": from_round}
