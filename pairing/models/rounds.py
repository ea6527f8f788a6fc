"""Rounds, their games and seats, byes, and forbidden pairs."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .choices import (
    REQUESTED_BYES,
    SIDES,
    ByeKind,
    GameResult,
    PairedBy,
    RoundStatus,
)
from .player import Player
from .tournament import Tournament


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    explanation = models.JSONField(default=dict, blank=True)
    manual_changes = models.PositiveSmallIntegerField(default=0)
    chess960_position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("The Chess960 starting position (0-959) drawn when the round was published.")
    )
    manual_session = models.BooleanField(
        default=False, help_text=_("A manual-pairing session is open on this draft (VCL4THP Q65).")
    )
    paired_by = models.CharField(
        max_length=8, choices=PairedBy.choices, blank=True, default=PairedBy.UNKNOWN,
        help_text=_("How the pairing was made (the rating report's ### Paired by lines)."),
    )
    program = models.CharField(
        max_length=120, blank=True, default="",
        help_text=_("The program and release that paired the round, e.g. 'Dubov arbiter 1.0.0 (FIDE Dubov system, "
                    "C.04.4.1)'; for an imported round, the program the file names, if any."),
    )
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
                condition=Q(chess960_position__isnull=True) | Q(chess960_position__lte=959),
                name="round_chess960_position_0_959",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "published", "complete"]), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("pairing:round", args=[self.tournament.slug, self.number])

    @property
    def chess960_array(self) -> str:
        """``518 RNBQKBNR``, or '' when the round has no Chess960 position."""
        from ..chess960 import position

        n = self.chess960_position
        return "" if n is None else f"{n} {position(n)}"

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
        from django.utils.translation import gettext

        return gettext(
            "The draft of round %(n)s was discarded in the meantime (by another arbiter, or by a "
            "change of results, players or byes it depended on); nothing was published. Pair the round again."
        ) % {"n": number}

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
            (Game(round=rnd, board=board, white_id=w, black_id=b, result=r) for board, w, b, r in boards),
            batch_size=500,
        )
        Seat.objects.bulk_create(
            (Seat(round=rnd, player_id=pid, game=g) for g in games for pid in (g.white_id, g.black_id)),
            batch_size=1000,
        )
        return games


class Game(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE)
    board = models.PositiveSmallIntegerField()
    # RESTRICT: a player with games cannot be deleted, but a whole tournament can
    white = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="white_games")
    black = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="black_games")
    result = models.CharField(max_length=7, choices=GameResult.choices, blank=True, default=GameResult.PENDING)
    rating_result = models.CharField(
        max_length=7, choices=GameResult.choices, blank=True, default="",
        help_text=_("A correction for the rating report only (C.04.2 4.3): pairings and standings keep ``result``."),
    )
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
            models.CheckConstraint(
                condition=Q(rating_result__in=[c.value for c in GameResult]), name="game_rating_result_valid"
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
    player id first; see :func:`pairing.services.forbidden_pairs.forbid_pair`."""

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



class ScheduledRound(models.Model):
    """When a round is played (the tournament's schedule, announced before it starts):
    the date, and the time when known.  TRF 132 writes these dates; the public pages show
    them.  Set on the settings page and at creation; a date outside the tournament's own
    dates is refused there."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="schedule")
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"))
    time = models.TimeField(_("time"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="scheduled_round_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="scheduled_round_from_1"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}: {self.date}" + (f" {self.time:%H:%M}" if self.time else "")
