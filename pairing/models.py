"""Tournament data and the state changes arbiters make (the service layer).

Views call these methods; nothing here knows about HTTP.  The pairing engine is
reached only through :mod:`pairing.services`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from decimal import Decimal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

# ---------------------------------------------------------------- choices


class Title(models.TextChoices):
    GM = "GM", "GM"
    IM = "IM", "IM"
    WGM = "WGM", "WGM"
    FM = "FM", "FM"
    WIM = "WIM", "WIM"
    CM = "CM", "CM"
    WFM = "WFM", "WFM"
    WCM = "WCM", "WCM"
    NONE = "", "—"


# C.04.2 general handling rules: the order of titles in the initial ranking list.
TITLE_ORDER = {t: i for i, t in enumerate(["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", ""])}


class ColourChoice(models.TextChoices):
    WHITE = "w", "White"
    BLACK = "b", "Black"


class ColourMethod(models.TextChoices):
    LOT = "lot", "Drawn by lot"
    CHOSEN = "chosen", "Chosen by the arbiter"


class Sex(models.TextChoices):
    MALE = "m", "Male"
    FEMALE = "f", "Female"
    NONE = "", "—"


class GameResult(models.TextChoices):
    PENDING = "", "—"
    WHITE_WINS = "1-0", "1-0"
    DRAW = "1/2-1/2", "½-½"
    BLACK_WINS = "0-1", "0-1"
    WHITE_FORFEIT_WIN = "+-", "+ −"
    BLACK_FORFEIT_WIN = "-+", "− +"
    DOUBLE_FORFEIT = "--", "− −"


# Keys an arbiter presses on a board row (and the button values without JS).
RESULT_KEYS = {
    "1": GameResult.WHITE_WINS,
    "=": GameResult.DRAW,
    "5": GameResult.DRAW,
    "0": GameResult.BLACK_WINS,
    "+": GameResult.WHITE_FORFEIT_WIN,
    "-": GameResult.BLACK_FORFEIT_WIN,
    "*": GameResult.DOUBLE_FORFEIT,
}


class ByeKind(models.TextChoices):
    PAIRING = "U", "Pairing-allocated bye"
    HALF = "H", "Half-point bye (requested)"
    ZERO = "Z", "Zero-point bye (requested)"
    FULL = "F", "Full-point bye"


REQUESTED_BYES = (ByeKind.HALF, ByeKind.ZERO, ByeKind.FULL)


class RoundStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"
    COMPLETE = "complete", "Complete"


class Conflict(Exception):
    """Someone else changed the row since the arbiter loaded the page."""


def version_token(values: dict) -> str:
    """A short digest of a row's editable values.  An edit form carries the one the
    arbiter saw (``seen``), so a save over another arbiter's change is noticed."""
    raw = json.dumps(values, sort_keys=True, cls=DjangoJSONEncoder)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


SEEN_CHANGED = (
    "{what} changed since you opened this page (another arbiter saved first; see the audit trail). "
    "Nothing was saved. Check the values and save again to replace theirs."
)


# ---------------------------------------------------------------- tournament


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def for_arbiter(self, user) -> TournamentQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(owner=user) | Q(deputies=user)).distinct()

    def public(self) -> TournamentQuerySet:
        return self.filter(public=True)


class Tournament(models.Model):
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    place = models.CharField(max_length=120, blank=True)
    federation = models.CharField(max_length=3, blank=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    time_control = models.CharField(max_length=60, blank=True)
    rounds = models.PositiveSmallIntegerField(default=9)

    point_win = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("1"))
    point_draw = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("0.5"))
    point_loss = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("0"))
    point_pab = models.DecimalField(
        "points for the pairing-allocated bye", max_digits=4, decimal_places=1, default=Decimal("1")
    )
    point_half_bye = models.DecimalField(
        "points for a requested half-point bye", max_digits=4, decimal_places=1, default=Decimal("0.5")
    )

    initial_colour = models.CharField(max_length=1, choices=ColourChoice.choices, default=ColourChoice.WHITE)
    initial_colour_method = models.CharField(
        max_length=6, choices=ColourMethod.choices, default=ColourMethod.LOT
    )
    tiebreaks = models.CharField("tie-break order", max_length=200, blank=True, default="BH-C1, BH, SB")
    public = models.BooleanField(default=False)
    ranking_frozen = models.BooleanField(
        default=False, help_text="Set when round 4 is published: pairing numbers no longer follow ratings."
    )

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_tournaments"
    )
    deputies = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="deputy_tournaments")
    created = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1) & Q(rounds__lte=99), name="tournament_rounds_1_99"),
            models.CheckConstraint(
                condition=Q(point_win__gt=F("point_draw"))
                & Q(point_draw__gte=F("point_loss"))
                & Q(point_loss__gte=0),
                name="tournament_points_win_gt_draw_gte_loss",
            ),
            models.CheckConstraint(
                condition=Q(point_pab__gte=0) & Q(point_pab__lte=F("point_win")),
                name="tournament_pab_between_0_and_win",
            ),
            models.CheckConstraint(
                condition=Q(point_half_bye__gte=0) & Q(point_half_bye__lte=F("point_win")),
                name="tournament_half_bye_between_0_and_win",
            ),
            models.CheckConstraint(condition=Q(initial_colour__in=["w", "b"]), name="tournament_initial_colour_valid"),
            models.CheckConstraint(
                condition=Q(initial_colour_method__in=["lot", "chosen"]), name="tournament_colour_method_valid"
            ),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(start_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="tournament_end_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pairing:tournament", args=[self.slug])

    # -- access ---------------------------------------------------------

    def is_arbiter(self, user) -> bool:
        if not user.is_authenticated:
            return False
        return self.owner_id == user.pk or self.deputies.filter(pk=user.pk).exists()

    def lock(self) -> Tournament:
        """Lock the tournament row until the end of the transaction (PostgreSQL).

        Every change that the next pairing depends on (results, publishing, pairing,
        draft changes, players, byes, settings) takes this lock first, so that a round
        is never paired on data another arbiter is changing at the same moment.
        SQLite ignores it; there every transaction takes the database's write lock at
        BEGIN (``transaction_mode`` IMMEDIATE in the settings), which serialises writers.
        """
        return Tournament.objects.select_for_update().get(pk=self.pk)

    AUDITED_SETTINGS = [
        "name", "slug", "place", "federation", "start_date", "end_date", "time_control", "rounds",
        "point_win", "point_draw", "point_loss", "point_pab", "point_half_bye",
        "initial_colour_method", "initial_colour", "tiebreaks", "public",
    ]

    def audit_values(self, fields: list[str] | None = None) -> dict:
        return {f: audit_value(getattr(self, f)) for f in fields or self.AUDITED_SETTINGS}

    def version(self) -> str:
        return version_token(self.audit_values())

    def deputy_names(self) -> list[str]:
        return sorted(self.deputies.values_list("username", flat=True))

    def log_created(self, user) -> None:
        AuditEntry.log(
            self, user, AuditAction.CREATE, f"Tournament created; initial colour {self.initial_colour}.",
            obj=self, label=self.name, after=self.audit_values(),
        )

    def save_settings(self, save: Callable[[], Tournament], user, before: dict, seen: str = "") -> Tournament:
        """Save the settings (``save``: the form's save, which updates this row) under the
        tournament lock; log the fields that changed (``before``: their old values) and
        discard the draft if any changed.  ``seen``: the version the arbiter's form was
        made from; raises :class:`Conflict` if the settings changed since."""
        with transaction.atomic():
            current = self.lock()
            if seen and current.version() != seen:
                raise Conflict(SEEN_CHANGED.format(what="The settings"))
            t = save()
            t.refresh_from_db()  # values as stored (3 is 3.0), as ``before`` was read
            after = t.audit_values(list(before))
            changed = [f for f in before if before[f] != after[f]]
            if changed:
                t.discard_draft(user, "Settings changed.")
                AuditEntry.log(
                    t, user, AuditAction.SETTINGS, "Settings changed: " + ", ".join(changed),
                    obj=t, label=t.name,
                    before={f: before[f] for f in changed}, after={f: after[f] for f in changed},
                )
        return t

    def change_deputy(self, user, deputy, add: bool) -> None:
        with transaction.atomic():
            before = self.deputy_names()
            if add:
                self.deputies.add(deputy)
            else:
                self.deputies.remove(deputy)
            text = f"{deputy.username} added as deputy." if add else f"{deputy.username} is no longer a deputy."
            AuditEntry.log(
                self, user, AuditAction.DEPUTY, text, obj=self, label=self.name,
                before={"deputies": before}, after={"deputies": self.deputy_names()},
            )

    # -- colours -------------------------------------------------------

    def draw_initial_colour(self) -> None:
        """Draw the initial colour by lot and record that it was drawn."""
        self.initial_colour = random.choice([ColourChoice.WHITE, ColourChoice.BLACK])
        self.initial_colour_method = ColourMethod.LOT

    # -- rounds ---------------------------------------------------------

    def last_round(self) -> Round | None:
        return self.round_set.order_by("-number").first()

    def draft_round(self) -> Round | None:
        return self.round_set.filter(status=RoundStatus.DRAFT).first()

    def published_rounds(self):
        return self.round_set.exclude(status=RoundStatus.DRAFT).order_by("number")

    def rounds_published(self) -> int:
        last = self.published_rounds().last()
        return last.number if last else 0

    def next_round_number(self) -> int:
        """The round the next pairing would make (a draft counts as that round)."""
        return self.rounds_published() + 1

    def pairing_blocker(self) -> str:
        """Why the next round cannot be paired now, or '' when it can."""
        last = self.published_rounds().last()
        if last is not None and last.status != RoundStatus.COMPLETE:
            missing = last.game_set.filter(result=GameResult.PENDING).count()
            return f"Round {last.number} still has {missing} result(s) to enter."
        if self.rounds_published() >= self.rounds:
            return f"All {self.rounds} rounds have been paired."
        if self.player_set.count() < 2:
            return "Register at least two players first."
        return ""

    def discard_draft(self, user=None, reason: str = "") -> bool:
        """Drop the draft round (its games and PAB) if there is one."""
        with transaction.atomic():
            self.lock()
            draft = self.draft_round()
            if draft is None:
                return False
            boards = draft.board_list()
            Bye.objects.filter(
                tournament=self, round_number=draft.number, kind=ByeKind.PAIRING
            ).delete()
            draft_pk = draft.pk
            draft.delete()
            AuditEntry.log(
                self, user, AuditAction.DISCARD, f"Draft of round {draft.number} discarded. {reason}".strip(),
                object_type="round", object_id=draft_pk, label=f"Round {draft.number} (draft)", before=boards,
            )
        return True

    # -- byes -----------------------------------------------------------

    def set_byes(
        self, round_number: int, wanted: dict[int, str], user=None, seen: dict[int, str] | None = None
    ) -> list[str]:
        """Requested byes for one round not yet published: ``wanted`` maps player pk to
        ``""`` (plays), ``H``, ``Z`` or ``F``.  All or nothing; returns the changes made.

        ``seen``: the byes the arbiter's page showed (pk to kind, players without one
        left out).  Then only the players the arbiter changed on the page are touched, so
        a bye another arbiter set meanwhile stays; and if one of those players' bye was
        changed meanwhile, :class:`Conflict` is raised and nothing is saved.

        Changing the byes of the round in draft discards the draft.
        """
        first_open = self.rounds_published() + 1
        if not first_open <= round_number <= self.rounds:
            raise ValueError(f"Byes can be set for rounds {first_open} to {self.rounds}.")
        players = {p.pk: p for p in self.player_set.filter(pk__in=list(wanted))}
        allowed = {"", *REQUESTED_BYES}
        for pk, value in wanted.items():
            if pk not in players:
                raise ValueError(f"Player {pk} is not in this tournament.")
            if value not in allowed:
                raise ValueError(f"{players[pk].name}: unknown choice {value!r}.")
        changes = []
        before, after = {}, {}
        with transaction.atomic():
            self.lock()
            current = {b.player_id: b for b in Bye.objects.filter(tournament=self, round_number=round_number)}
            if seen is not None:
                wanted = {pk: v for pk, v in wanted.items() if v != seen.get(pk, "")}
                clashes = [
                    players[pk].name
                    for pk in wanted
                    if (current[pk].kind if pk in current else "") != seen.get(pk, "")
                ]
                if clashes:
                    raise Conflict(
                        f"Round {round_number}: another arbiter changed the bye of {', '.join(clashes)} since "
                        "you opened the page. Nothing was saved; check the list and save again."
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
                        player=p, round_number=round_number, defaults={"tournament": self, "kind": value}
                    )
                    changes.append(f"{p.name}: {ByeKind(value).label}")
                    before[key], after[key] = bye.kind if bye is not None else "", value
            if changes:
                if round_number == first_open:
                    self.discard_draft(user, "Byes changed.")
                AuditEntry.log(
                    self, user, AuditAction.BYE, f"Round {round_number}: " + "; ".join(changes),
                    label=f"Round {round_number} byes", before=before, after=after,
                )
        return changes

    # -- players --------------------------------------------------------

    def add_players(self, rows: list[dict], user=None, how: str = "from a list") -> list[Player]:
        """Register players (field dicts) in one transaction and renumber."""
        with transaction.atomic():
            self.lock()
            created = [Player.objects.create(tournament=self, **row) for row in rows]
            self.renumber()
            self.discard_draft(user, "Players were added.")
            for p in created:
                p.refresh_from_db(fields=["tpn"])
            AuditEntry.log(
                self, user, AuditAction.IMPORT, f"{len(created)} players added {how}.",
                label=f"{len(created)} players", after={"players": [p.audit_label() for p in created]},
            )
        return created

    def add_player(self, save: Callable[[], Player], user) -> Player:
        """Register a player (``save``: the form's save, which also renumbers) under the
        tournament lock, discard the draft and log it."""
        with transaction.atomic():
            self.lock()
            player = save()
            player.refresh_from_db()
            self.discard_draft(user, "A player was added.")
            AuditEntry.log(
                self, user, AuditAction.PLAYER, f"{player.name} registered with TPN {player.tpn}.",
                obj=player, label=player.audit_label(), after=player.audit_values(),
            )
        return player

    def change_player(
        self, player: Player, save: Callable[[], Player], user, before: dict, seen: str = ""
    ) -> Player:
        """Save ``player``'s changes (``save``: the form's save) under the tournament lock;
        log the fields that changed (``before``: their old values) and discard the draft
        if any changed (a rating change can renumber everyone).  ``seen``: the version
        the arbiter's form was made from; raises :class:`Conflict` if the player changed
        since."""
        with transaction.atomic():
            self.lock()
            if seen and Player.objects.get(pk=player.pk).version() != seen:
                raise Conflict(SEEN_CHANGED.format(what=f"{before['name']}'s details"))
            player = save()
            after = player.audit_values(list(before))
            changed = [f for f in before if before[f] != after[f]]
            if changed:
                self.discard_draft(user, "A player was changed.")
                AuditEntry.log(
                    self, user, AuditAction.PLAYER, f"{player.name}: changed {', '.join(changed)}.",
                    obj=player, label=player.audit_label(),
                    before={f: before[f] for f in changed}, after={f: after[f] for f in changed},
                )
        return player

    def delete_player(self, player: Player, user) -> None:
        """Delete a player who was never paired (ValueError otherwise) and renumber."""
        with transaction.atomic():
            self.lock()
            paired = Seat.objects.filter(player=player).exists() or Game.objects.filter(
                Q(white=player) | Q(black=player)
            ).exists()
            if paired or player.bye_set.filter(kind=ByeKind.PAIRING).exists():
                raise ValueError(f"{player.name} has been paired; withdraw them instead of deleting.")
            before, label, pk = player.audit_values(), player.audit_label(), player.pk
            pairs = ForbiddenPair.objects.filter(Q(player_a=player) | Q(player_b=player))
            if pairs.exists():  # deleted with the player: say so in the entry
                before["forbidden_pairs"] = sorted(p.audit_label() for p in pairs.select_related("player_a", "player_b"))
            player.delete()
            self.renumber()
            self.discard_draft(user, "A player was deleted.")
            AuditEntry.log(
                self, user, AuditAction.PLAYER, f"{before['name']} deleted.",
                object_type="player", object_id=pk, label=label, before=before,
            )

    # -- forbidden pairs ------------------------------------------------

    def forbidden_pair_names(self) -> list[str]:
        """The forbidden pairs for the audit trail: ``No 1 A / No 6 B``."""
        pairs = ForbiddenPair.objects.filter(tournament=self).select_related("player_a", "player_b")
        return sorted(p.audit_label() for p in pairs)

    def forbid_pair(self, a: Player, b: Player, user=None) -> ForbiddenPair:
        """Forbid pairing ``a`` with ``b`` from the next pairing on.  Discards the draft
        (it may pair them) and logs it, under the tournament lock.  Raises ValueError
        (nothing written) for the same player twice, a player of another tournament or
        a pair already forbidden."""
        if a.pk == b.pk:
            raise ValueError("Choose two different players.")
        with transaction.atomic():
            self.lock()
            found = {p.pk: p for p in self.player_set.filter(pk__in=[a.pk, b.pk])}
            for p in (a, b):
                if p.pk not in found:
                    raise ValueError(f"{p.name} is not a player of this tournament.")
            low, high = sorted((found[a.pk], found[b.pk]), key=lambda p: p.pk)
            if ForbiddenPair.objects.filter(player_a=low, player_b=high).exists():
                raise ValueError(f"{low.name} and {high.name} are already a forbidden pair.")
            before = self.forbidden_pair_names()
            pair = ForbiddenPair.objects.create(tournament=self, player_a=low, player_b=high)
            self.discard_draft(user, "A forbidden pair was added.")
            AuditEntry.log(
                self, user, AuditAction.FORBIDDEN,
                f"{low.name} and {high.name} must not be paired with each other.",
                obj=pair, label=pair.audit_label(),
                before={"forbidden_pairs": before}, after={"forbidden_pairs": self.forbidden_pair_names()},
            )
        return pair

    def allow_pair(self, pair_pk: int, user=None) -> str:
        """Remove a forbidden pair (they may be paired again); discards the draft and
        logs it.  Raises ValueError when the pair is gone (another arbiter removed it).
        Returns a sentence."""
        with transaction.atomic():
            self.lock()
            pair = (
                ForbiddenPair.objects.filter(tournament=self, pk=pair_pk)
                .select_related("player_a", "player_b")
                .first()
            )
            if pair is None:
                raise ValueError("That forbidden pair no longer exists (another arbiter removed it); nothing changed.")
            before = self.forbidden_pair_names()
            label, pk = pair.audit_label(), pair.pk
            text = f"{pair.player_a.name} and {pair.player_b.name} may be paired again."
            pair.delete()
            self.discard_draft(user, "A forbidden pair was removed.")
            AuditEntry.log(
                self, user, AuditAction.FORBIDDEN, text,
                object_type="forbiddenpair", object_id=pk, label=label,
                before={"forbidden_pairs": before}, after={"forbidden_pairs": self.forbidden_pair_names()},
            )
        return text

    # -- ranking list ---------------------------------------------------

    def renumber(self) -> None:
        """Give pairing numbers (TPNs) by the initial ranking rules.

        Before the ranking is frozen (round 4 published) every player's TPN is their
        position by rating (descending), title (GM, IM, WGM, FM, WIM, CM, WFM, WCM,
        none), then name.  Once frozen, existing players keep their relative order and a
        late entry is inserted at the first position where the rules rank them above
        the player there; everyone from that position down moves one number down.
        """
        players = list(self.player_set.all())
        if not players:
            return
        if self.ranking_frozen:
            placed = sorted((p for p in players if p.tpn), key=lambda p: p.tpn)
            for late in sorted((p for p in players if not p.tpn), key=Player.ranking_key):
                at = next(
                    (i for i, p in enumerate(placed) if Player.ranking_key(late) < Player.ranking_key(p)),
                    len(placed),
                )
                placed.insert(at, late)
            order = placed
        else:
            order = sorted(players, key=Player.ranking_key)
        wanted = {p.pk: i for i, p in enumerate(order, start=1)}
        if all(p.tpn == wanted[p.pk] for p in players):
            return
        with transaction.atomic():
            # Two passes so that the unique (tournament, tpn) constraint holds at every row.
            offset = len(players) + 100000
            self.player_set.update(tpn=F("pk") + offset)
            for p in players:
                p.tpn = wanted[p.pk]
            Player.objects.bulk_update(players, ["tpn"])

    # -- point system ---------------------------------------------------

    def points_for(self, result: str) -> Decimal:
        """Points for a player-side TRF result code."""
        return {
            "1": self.point_win,
            "=": self.point_draw,
            "0": self.point_loss,
            "+": self.point_win,
            "-": self.point_loss,
            "U": self.point_pab,
            "F": self.point_win,
            "H": self.point_half_bye,
            "Z": Decimal("0"),
        }[result]


# ---------------------------------------------------------------- players


class PlayerQuerySet(models.QuerySet["Player"]):
    def by_tpn(self) -> PlayerQuerySet:
        return self.order_by("tpn")


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    tpn = models.PositiveIntegerField("pairing number", null=True, blank=True)
    title = models.CharField(max_length=3, choices=Title.choices, blank=True)
    name = models.CharField(max_length=33, help_text="Family name, given name")
    rating = models.PositiveSmallIntegerField()
    rating_provisional = models.BooleanField(
        default=False, help_text="Unrated: the arbiter's provisional rating (Dubov 1.1 needs one for everyone)."
    )
    federation = models.CharField(max_length=3, blank=True)
    fide_id = models.CharField("FIDE id", max_length=11, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    sex = models.CharField(max_length=1, choices=Sex.choices, blank=True)
    club = models.CharField(max_length=80, blank=True)
    withdrawn_from_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Not paired from this round on."
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["tpn"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "tpn"], name="player_tpn_unique_per_tournament"),
            models.CheckConstraint(condition=Q(rating__gte=1) & Q(rating__lte=3500), name="player_rating_1_3500"),
            models.CheckConstraint(
                condition=Q(withdrawn_from_round__isnull=True) | Q(withdrawn_from_round__gte=1),
                name="player_withdrawn_round_positive",
            ),
            models.CheckConstraint(condition=Q(sex__in=["m", "f", ""]), name="player_sex_valid"),
            models.CheckConstraint(
                condition=Q(title__in=list(TITLE_ORDER)), name="player_title_valid"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.rating})"

    @staticmethod
    def ranking_key(p: Player) -> tuple:
        return (-p.rating, TITLE_ORDER.get(p.title, 99), p.name.casefold(), p.pk or 0)

    def withdraw(self, from_round: int | None, user=None) -> str:
        """Not paired from ``from_round`` on (None: back in the tournament).

        Only rounds not yet paired; raises ValueError otherwise.  Returns a sentence.
        """
        t = self.tournament
        with transaction.atomic():
            t.lock()
            published = t.rounds_published()
            if from_round is not None and from_round <= published:
                raise ValueError(
                    f"Round {from_round} is already paired; a withdrawal starts with round {published + 1} or later."
                )
            if from_round is not None and from_round > t.rounds:
                raise ValueError(f"The tournament has {t.rounds} rounds; there is no round {from_round}.")
            before = Player.objects.get(pk=self.pk).withdrawn_from_round
            self.withdrawn_from_round = from_round
            self.save(update_fields=["withdrawn_from_round"])
            t.discard_draft(user, "A withdrawal changed.")
            text = f"{self.name} withdrawn from round {from_round}" if from_round else f"{self.name} back in the tournament"
            AuditEntry.log(
                t, user, AuditAction.WITHDRAW, text + ".", obj=self, label=self.audit_label(),
                before={"withdrawn_from_round": before}, after={"withdrawn_from_round": from_round},
            )
        return text + "."

    AUDITED_FIELDS = [
        "tpn", "title", "name", "rating", "rating_provisional", "federation", "fide_id", "birth_date", "sex", "club",
        "withdrawn_from_round",
    ]

    def audit_values(self, fields: list[str] | None = None) -> dict:
        return {f: audit_value(getattr(self, f)) for f in fields or self.AUDITED_FIELDS}

    def version(self) -> str:
        """Not the TPN: another arbiter adding a player renumbers without editing this one."""
        return version_token({k: v for k, v in self.audit_values().items() if k != "tpn"})

    def audit_label(self) -> str:
        return f"No {self.tpn} {self.name}" if self.tpn else self.name

    def withdrawn_in(self, round_number: int) -> bool:
        return self.withdrawn_from_round is not None and self.withdrawn_from_round <= round_number


# ---------------------------------------------------------------- rounds, games, byes


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    explanation = models.JSONField(default=dict, blank=True)
    manual_changes = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique_per_tournament"),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(status="draft"), name="round_one_draft_per_tournament"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "published", "complete"]), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("pairing:round", args=[self.tournament.slug, self.number])

    @property
    def is_draft(self) -> bool:
        return self.status == RoundStatus.DRAFT

    def games(self):
        return self.game_set.select_related("white", "black").order_by("board")

    def pab(self) -> Bye | None:
        return (
            Bye.objects.filter(tournament_id=self.tournament_id, round_number=self.number, kind=ByeKind.PAIRING)
            .select_related("player")
            .first()
        )

    def board_list(self) -> dict:
        """The round's boards for the audit trail: ``{"boards": [[board, white, black]],
        "pab": player}`` with players as ``No 3 Name``."""
        boards = [
            [g.board, g.white.audit_label(), g.black.audit_label()] for g in self.games()
        ]
        pab = self.pab()
        return {"boards": boards, "pab": pab.player.audit_label() if pab else None}

    def progress(self) -> tuple[int, int]:
        games = list(self.game_set.values_list("result", flat=True))
        return sum(1 for r in games if r), len(games)

    def publish(self, user=None) -> bool:
        """Publish the draft.  Idempotent: a second call (double click) changes nothing.

        Returns True when this call published it.  The games were written with the
        draft (one transaction); publishing flips the status with a conditional update,
        so two concurrent publishes cannot both succeed.  Raises :class:`Conflict` when
        the draft was discarded in the meantime (by another arbiter, or by a change of
        results, players or byes).
        """
        with transaction.atomic():
            Tournament(pk=self.tournament_id).lock()
            if not Round.objects.filter(pk=self.pk).exists():
                raise Conflict(self.discarded_message(self.number))
            has_games = self.game_set.exists()
            # A conditional UPDATE: only one of two concurrent publishes can match the
            # draft row, on every database (SQLite ignores SELECT ... FOR UPDATE).
            changed = Round.objects.filter(pk=self.pk, status=RoundStatus.DRAFT).update(
                status=RoundStatus.PUBLISHED if has_games else RoundStatus.COMPLETE,
                published_at=timezone.now(),
            )
            if not changed:
                self.refresh_from_db()
                return False
            if self.number >= 4:
                Tournament.objects.filter(pk=self.tournament_id).update(ranking_frozen=True)
            AuditEntry.log(
                self.tournament, user, AuditAction.PUBLISH, f"Round {self.number} published.", obj=self,
                label=f"Round {self.number}", before={"status": RoundStatus.DRAFT.value},
                after={"status": RoundStatus.PUBLISHED.value if has_games else RoundStatus.COMPLETE.value,
                       **self.board_list()},
            )
        self.refresh_from_db()
        return True

    @staticmethod
    def discarded_message(number: int) -> str:
        return (
            f"The draft of round {number} was discarded in the meantime (by another arbiter, or by a "
            "change of results, players or byes it depended on); nothing was published. Pair the round again."
        )

    def refresh_status(self) -> None:
        if self.status == RoundStatus.DRAFT:
            return
        pending = self.game_set.filter(result=GameResult.PENDING).exists()
        status = RoundStatus.PUBLISHED if pending else RoundStatus.COMPLETE
        if status != self.status:
            self.status = status
            self.save(update_fields=["status"])


class GameQuerySet(models.QuerySet["Game"]):
    def create_boards(self, rnd: Round, boards) -> list[Game]:
        """Write boards ``(board, white_id, black_id, result)`` with their seats.

        The seats (one row per player per round, unique) are the database's guarantee
        that nobody plays twice in a round, whatever colour.
        """
        games = Game.objects.bulk_create(
            Game(round=rnd, board=board, white_id=w, black_id=b, result=r) for board, w, b, r in boards
        )
        Seat.objects.bulk_create(
            Seat(round=rnd, player_id=pid, game=g) for g in games for pid in (g.white_id, g.black_id)
        )
        return games


class Game(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE)
    board = models.PositiveSmallIntegerField()
    # RESTRICT: a player with games cannot be deleted, but a whole tournament can
    white = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="white_games")
    black = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="black_games")
    result = models.CharField(max_length=7, choices=GameResult.choices, blank=True, default=GameResult.PENDING)
    updated = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="game_board_unique_per_round"),
            models.UniqueConstraint(fields=["round", "white"], name="game_white_once_per_round"),
            models.UniqueConstraint(fields=["round", "black"], name="game_black_once_per_round"),
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_white_not_black"),
            models.CheckConstraint(condition=Q(board__gte=1), name="game_board_positive"),
            models.CheckConstraint(
                condition=Q(result__in=[c.value for c in GameResult]), name="game_result_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Board {self.board}: {self.white.name} - {self.black.name} {self.result}"

    def record_result(self, result: str, user=None, expected: str | None = None) -> bool:
        """Store ``result``; ``expected`` is the result the arbiter saw on screen.

        Raises :class:`Conflict` when another arbiter changed it in between (so two
        arbiters never overwrite each other silently); ValueError for an unknown result
        or a round that is still a draft.  Returns False when nothing changed.
        """
        if result not in GameResult.values or result == GameResult.PENDING:
            raise ValueError(f"unknown result {result!r}")
        with transaction.atomic():
            # The tournament first (the lock pairing takes): a round is never paired while
            # a result it depends on is being changed.
            tournament = Tournament(pk=self.round.tournament_id).lock()
            game = Game.objects.select_for_update().select_related("round", "white", "black").get(pk=self.pk)
            if game.round.status == RoundStatus.DRAFT:
                raise ValueError("publish the round before entering results")
            if game.result == result:
                self.result = result
                return False
            if expected is not None and game.result != expected:
                self.result = game.result
                raise Conflict(
                    f"Board {game.board} was changed to {game.get_result_display()} by someone else; "
                    "check it and enter the result again."
                )
            before = game.result
            game.result = result
            game.save(update_fields=["result", "updated"])
            game.round.refresh_status()
            draft = tournament.draft_round()
            if draft is not None and draft.number > game.round.number:
                # the draft was paired on the old result
                tournament.discard_draft(user, f"A result of round {game.round.number} changed.")
            verb = "corrected" if before else "entered"
            AuditEntry.log(
                tournament,
                user,
                AuditAction.RESULT,
                f"Round {game.round.number} board {game.board}: {GameResult(result).label} {verb}"
                + (f" (was {GameResult(before).label})" if before else ""),
                obj=game,
                label=f"Round {game.round.number} board {game.board}: "
                f"{game.white.audit_label()} – {game.black.audit_label()}",
                before={"result": before},
                after={"result": result},
            )
        self.result = result
        return True

    def sides(self) -> tuple[str, str] | None:
        """TRF result codes (white's, black's) or None while pending."""
        return SIDES.get(self.result)


class Seat(models.Model):
    """A player's place in a round's games: one row per player per round.

    ``Game`` alone can only say "white once, black once"; this unique row makes "one
    game per player per round" a database rule.  Written by
    :meth:`GameQuerySet.create_boards`, deleted with its game.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT)
    game = models.ForeignKey(Game, on_delete=models.CASCADE)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_one_game_per_player_per_round"),
        ]

    def __str__(self) -> str:
        return f"round {self.round_id}: player {self.player_id} on game {self.game_id}"


SIDES = {
    GameResult.WHITE_WINS: ("1", "0"),
    GameResult.DRAW: ("=", "="),
    GameResult.BLACK_WINS: ("0", "1"),
    GameResult.WHITE_FORFEIT_WIN: ("+", "-"),
    GameResult.BLACK_FORFEIT_WIN: ("-", "+"),
    GameResult.DOUBLE_FORFEIT: ("-", "-"),
}


class ByeQuerySet(models.QuerySet["Bye"]):
    def requested(self) -> ByeQuerySet:
        return self.filter(kind__in=REQUESTED_BYES)


class Bye(models.Model):
    """A round without a game: the PAB, or a requested bye / absence, per player per round."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    player = models.ForeignKey(Player, on_delete=models.CASCADE)
    round_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=1, choices=ByeKind.choices)

    objects = ByeQuerySet.as_manager()

    class Meta:
        ordering = ["round_number", "player__tpn"]
        constraints = [
            models.UniqueConstraint(fields=["player", "round_number"], name="bye_once_per_player_per_round"),
            models.UniqueConstraint(
                fields=["tournament", "round_number"], condition=Q(kind="U"), name="bye_one_pab_per_round"
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="bye_round_positive"),
            models.CheckConstraint(condition=Q(kind__in=["U", "H", "Z", "F"]), name="bye_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.player.name}: {self.get_kind_display()} in round {self.round_number}"


class ForbiddenPairQuerySet(models.QuerySet["ForbiddenPair"]):
    def engine_pairs(self) -> frozenset[frozenset[int]]:
        """The pairs as the engine takes them: frozensets of two player ids (pks)."""
        return frozenset(frozenset(p) for p in self.values_list("player_a_id", "player_b_id"))


class ForbiddenPair(models.Model):
    """Two players who must not be paired with each other (the arbiter's decision: family
    members, club mates, ...), in every round.  Stored once per unordered pair, the lower
    player id first; see :meth:`Tournament.forbid_pair`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    objects = ForbiddenPairQuerySet.as_manager()

    class Meta:
        ordering = ["player_a__tpn", "player_b__tpn"]
        constraints = [
            models.CheckConstraint(condition=Q(player_a__lt=F("player_b")), name="forbidden_pair_ordered"),
            models.UniqueConstraint(fields=["player_a", "player_b"], name="forbidden_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a.name} / {self.player_b.name}"

    def audit_label(self) -> str:
        return f"{self.player_a.audit_label()} / {self.player_b.audit_label()}"


class AuditAction(models.TextChoices):
    """The kinds of change the audit trail records (its filter on the audit page)."""

    CREATE = "create", "Tournament created"
    SETTINGS = "settings", "Settings"
    DEPUTY = "deputy", "Deputy arbiters"
    PLAYER = "player", "Players"
    IMPORT = "import", "Imports"
    WITHDRAW = "withdraw", "Withdrawals"
    BYE = "bye", "Byes and absences"
    FORBIDDEN = "forbidden", "Forbidden pairs"
    PAIR = "pair", "Pairing"
    SWAP = "swap", "Manual changes to a draft"
    DISCARD = "discard", "Drafts discarded"
    PUBLISH = "publish", "Rounds published"
    RESULT = "result", "Results"


def audit_value(value):
    """A model field value as it is stored in the audit trail (JSON: dates as ISO text,
    decimals as text, choices by value)."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    def of_kind(self, action: str) -> AuditEntryQuerySet:
        return self.filter(action=action) if action in AuditAction.values else self


class AuditEntry(models.Model):
    """One change to a tournament: who, when, what (``action`` and the object), the
    values before and after, and a readable sentence.

    Written by the model method that makes the change, inside its transaction, so a
    change without its entry (or an entry without its change) cannot be committed.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    username = models.CharField(max_length=150, blank=True, help_text="Kept if the account is deleted.")
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20, choices=AuditAction.choices)
    object_type = models.CharField(max_length=20, blank=True, help_text="tournament, player, round, game, ...")
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    label = models.CharField(max_length=200, blank=True, help_text="The object as the arbiter knows it.")
    before = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    detail = models.TextField(blank=True)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["tournament", "-at"], name="audit_tournament_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.detail}"

    @classmethod
    def log(
        cls,
        tournament: Tournament,
        user,
        action: str,
        detail: str,
        *,
        obj: models.Model | None = None,
        object_type: str = "",
        object_id: int | None = None,
        label: str = "",
        before=None,
        after=None,
    ) -> AuditEntry:
        known = user is not None and user.is_authenticated
        return cls.objects.create(
            tournament=tournament,
            user=user if known else None,
            username=user.get_username() if known else "",
            action=action,
            object_type=object_type or (obj._meta.model_name if obj is not None else ""),
            object_id=object_id if object_id is not None else (obj.pk if obj is not None else None),
            label=(label or (str(obj) if obj is not None else ""))[:200],
            before=before,
            after=after,
            detail=detail,
        )

    @property
    def who(self) -> str:
        return self.username or (self.user.get_username() if self.user_id else "") or "system"

    def changes(self) -> list[tuple[str, str, str]]:
        """``(field, before, after)`` as text, for the audit page."""
        b = self.before if isinstance(self.before, dict) else {}
        a = self.after if isinstance(self.after, dict) else {}
        return [(k.replace("_", " "), _audit_text(b.get(k)), _audit_text(a.get(k))) for k in dict.fromkeys([*b, *a])]


AUDIT_LIST_SHOWN = 30  # a 5,000-player import stays readable; the entry keeps them all


def _audit_text(value) -> str:
    """A stored before/after value as a line of text (boards as ``1: A – B``)."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        shown = value[:AUDIT_LIST_SHOWN]
        text = "; ".join(
            f"{v[0]}: {v[1]} – {v[2]}" if isinstance(v, list) and len(v) == 3 else _audit_text(v) for v in shown
        )
        more = len(value) - len(shown)
        return text + (f"; … and {more} more ({len(value)} in all)" if more else "")
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_audit_text(v)}" for k, v in value.items())
    return str(value)
