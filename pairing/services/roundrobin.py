"""Round robins: Berger numbers before round 1 (by rating, by lot, by hand), and the
rounds from the Berger tables (:mod:`pairing.engine.berger`)."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from ..engine import berger
from ..models import (
    AuditAction,
    AuditEntry,
    BergerNumbers,
    Bye,
    ByeKind,
    Game,
    PairedBy,
    PairingSystem,
    Player,
    Round,
    RoundStatus,
    Tournament,
)
from ..wording import in_english
from .numbering import renumber
from .provenance import program_text


class NumbersRefused(ValueError):
    """Berger numbers cannot change now, or the ones given are not a numbering."""


def _unlocked(t: Tournament) -> Tournament:
    t = t.lock()
    if not t.round_robin:
        raise NumbersRefused(_("This tournament is not a round robin."))
    if t.round_set.exists():
        raise NumbersRefused(_("Round 1 has been paired: the Berger numbers are fixed (discard the draft to change them)."))
    return t


def _apply(t: Tournament, order: list[Player], how: str, user) -> None:
    before = {p.pk: p.tpn for p in order}
    Player.objects.filter(tournament=t).update(tpn=None)
    for i, p in enumerate(order, start=1):
        p.tpn = i
    Player.objects.bulk_update(order, ["tpn"])
    Tournament.objects.filter(pk=t.pk).update(rr_numbers=how)
    t.rr_numbers = how
    AuditEntry.log(
        t, user, AuditAction.PLAYER, f"Berger numbers {in_english(BergerNumbers(how).label).lower()}.",
        obj=t, label=t.name, before={"numbers": [before[p.pk] for p in order]},
        after={"numbers": [f"{p.tpn}. {p.name}" for p in order]},
    )


def by_rating(t: Tournament, user=None) -> None:
    with transaction.atomic():
        t = _unlocked(t)
        Tournament.objects.filter(pk=t.pk).update(rr_numbers=BergerNumbers.RATING)
        t.rr_numbers = BergerNumbers.RATING
        renumber(t)
        AuditEntry.log(t, user, AuditAction.PLAYER, "Berger numbers by rating.", obj=t, label=t.name)


def by_lot(t: Tournament, user=None) -> list[Player]:
    """A uniformly random numbering (the drawing of lots), from the system's random source."""
    with transaction.atomic():
        t = _unlocked(t)
        players = list(t.player_set.order_by("tpn"))
        order = []
        while players:
            order.append(players.pop(secrets.randbelow(len(players))))
        _apply(t, order, BergerNumbers.LOT, user)
    return order


def by_hand(t: Tournament, numbers: dict[int, int], user=None) -> None:
    """``numbers``: player pk -> Berger number; must be 1..n, each once (VCL4THP Q95)."""
    with transaction.atomic():
        t = _unlocked(t)
        players = {p.pk: p for p in t.player_set.all()}
        n = len(players)
        problems = []
        if set(numbers) != set(players):
            problems.append(_("Give every player a number."))
        values = sorted(numbers.values())
        if values != list(range(1, n + 1)):
            twice = sorted({v for v in values if values.count(v) > 1})
            outside = sorted(v for v in values if not 1 <= v <= n)
            if twice:
                problems.append(_("Number %(numbers)s is given twice.") % {"numbers": ", ".join(map(str, twice))})
            if outside:
                problems.append(_("Numbers go from 1 to %(n)s: %(numbers)s is outside.") % {"n": n, "numbers": ", ".join(map(str, outside))})
            if not twice and not outside:
                problems.append(_("Use each number from 1 to %(n)s once.") % {"n": n})
        if problems:
            raise NumbersRefused(" ".join(problems))
        order = sorted(players.values(), key=lambda p: numbers[p.pk])
        _apply(t, order, BergerNumbers.HAND, user)


def pair(t: Tournament, number: int, user=None) -> Round:
    """Round ``number`` from the Berger table, as a draft (the caller holds the lock).
    Round 1 fixes the number of rounds from the field; the player the table gives the
    bye sits out with a zero-point bye."""
    players = {p.tpn: p for p in t.player_set.all()}
    n = len(players)
    if n < 2:
        raise NumbersRefused(_("A round robin needs at least two players."))
    total = berger.total_rounds(n, t.rr_cycles)
    if number == 1 and t.rounds != total:
        Tournament.objects.filter(pk=t.pk).update(rounds=total)
        t.rounds = total
    if number > total:
        raise NumbersRefused(_("The round robin of %(n)s players has %(total)s rounds.") % {"n": n, "total": total})
    boards, bye = berger.pairings(n, number, t.rr_cycles, t.rr_reverse_last_two)
    rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.DRAFT,
                               explanation={"berger": {"players": n, "cycles": t.rr_cycles}},
                               paired_by=PairedBy.BERGER, program=program_text(PairingSystem.ROUND_ROBIN))
    Game.objects.create_boards(rnd, ((i, players[w].pk, players[b].pk, "") for i, (w, b) in enumerate(boards, 1)))
    if bye is not None:
        Bye.objects.update_or_create(tournament=t, player=players[bye], round_number=number,
                                     defaults={"kind": ByeKind.ZERO})
    AuditEntry.log(
        t, user, AuditAction.PAIR, f"Round {number} paired from the Berger table (draft): {len(boards)} boards.",
        obj=rnd, label=f"Round {number} (draft)", after=rnd.board_list(),
    )
    return rnd


def rounds_for(players: int, cycles: int) -> int:
    return berger.total_rounds(players, cycles) if players >= 2 else 0


def table_pairs(t: Tournament, number: int) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The table's pairing of round ``number`` in player pks."""
    players = {p.tpn: p.pk for p in t.player_set.all()}
    boards, bye = berger.pairings(len(players), number, t.rr_cycles, t.rr_reverse_last_two)
    return tuple((players[w], players[b]) for w, b in boards), (players[bye] if bye is not None else None)
