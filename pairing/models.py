"""Tournament data and the state changes arbiters make (the service layer).

Views call these methods; nothing here knows about HTTP.  The pairing engine is
reached only through :mod:`pairing.services`.
"""

from __future__ import annotations

import hashlib
import json
import random
from decimal import Decimal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

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

    # -- byes -----------------------------------------------------------

    # -- players --------------------------------------------------------

    # -- forbidden pairs ------------------------------------------------

    # -- ranking list ---------------------------------------------------

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
