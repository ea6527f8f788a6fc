"""A tournament: its settings, who may change it, and the lock every change takes."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .choices import (
    SYSTEM_LABELS,
    AccelerationMethod,
    BergerNumbers,
    ColourChoice,
    ColourMethod,
    DubovRulesText,
    FinalTies,
    GameResult,
    PairingSystem,
    RateOfPlay,
    RatingMethod,
    RoundStatus,
    TiebreakRules,
    TieOrder,
    UnratedTiebreaks,
    audit_value,
    version_token,
)
from .event import Event

if TYPE_CHECKING:
    from .rounds import Round


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def for_arbiter(self, user) -> TournamentQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(owner=user) | Q(deputies=user)).distinct()

    def public(self) -> TournamentQuerySet:
        return self.filter(public=True)


class Tournament(models.Model):
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=120)
    place = models.CharField(_("place"), max_length=120, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    time_control = models.CharField(_("time control"), max_length=60, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=9)
    system = models.CharField(
        _("pairing system"), max_length=11, choices=PairingSystem.choices, default=PairingSystem.DUBOV,
        help_text=_("Fixed once round 1 is published."),
    )
    dubov_rules = models.PositiveSmallIntegerField(
        _("Dubov rules"), choices=DubovRulesText.choices, default=DubovRulesText.TEXT_2025,
        help_text=_("For the Dubov system only: the 2025 text, or the rules of 1997 for events whose regulations "
                    "declare them. Fixed once round 1 is published."),
    )
    rr_cycles = models.PositiveSmallIntegerField(
        _("cycles"), default=1, choices=[(1, _("Single round robin")), (2, _("Double round robin"))],
    )
    rr_reverse_last_two = models.BooleanField(
        _("reverse the last two rounds of the first cycle"), default=True,
        help_text=_("Double round robin (C.05 Annex 1): avoids the same colour three times running between the cycles."),
    )
    rr_numbers = models.CharField(
        _("Berger numbers"), max_length=6, choices=BergerNumbers.choices, default=BergerNumbers.RATING,
    )

    point_win = models.DecimalField(_("point win"), max_digits=4, decimal_places=1, default=Decimal("1"))
    point_draw = models.DecimalField(_("point draw"), max_digits=4, decimal_places=1, default=Decimal("0.5"))
    point_loss = models.DecimalField(_("point loss"), max_digits=4, decimal_places=1, default=Decimal("0"))
    point_pab = models.DecimalField(
        _("points for the pairing-allocated bye"), max_digits=4, decimal_places=1, default=Decimal("1")
    )
    point_half_bye = models.DecimalField(
        _("points for a requested half-point bye"), max_digits=4, decimal_places=1, default=Decimal("0.5")
    )

    initial_colour = models.CharField(_("initial colour"), max_length=1, choices=ColourChoice.choices, default=ColourChoice.WHITE)
    initial_colour_method = models.CharField(
        _("initial colour method"),
        max_length=6, choices=ColourMethod.choices, default=ColourMethod.LOT
    )
    tiebreaks = models.CharField(_("tie-break order"), max_length=200, blank=True, default="BH-C1, BH, SB")
    public = models.BooleanField(_("public"), default=False)
    tiebreak_rules = models.PositiveSmallIntegerField(
        _("tie-break regulations"), null=True, blank=True, choices=TiebreakRules.choices,
        help_text=_("Empty: decided by the start date (the 2026 text from 1 March 2026)."),
    )
    unrated_tiebreaks = models.CharField(
        _("unrated players in rating tie-breaks"), max_length=6, choices=UnratedTiebreaks.choices,
        default=UnratedTiebreaks.DROP,
    )
    unrated_tiebreak_rating = models.PositiveSmallIntegerField(
        _("rating of unrated players for tie-breaks"), null=True, blank=True,
        help_text=_("With 'a fixed rating': the rating the tournament's regulations give unrated players."),
    )
    final_ties = models.CharField(
        _("players tied after every tie-break"), max_length=5, choices=FinalTies.choices, default=FinalTies.SHARE,
    )
    lots_seed = models.PositiveIntegerField(
        _("lots seed"),
        null=True, blank=True, help_text=_("The drawing of lots for ties, drawn once; the same seed, the same order.")
    )
    long_event = models.BooleanField(
        _("event over 30 days"), default=False,
        help_text=_("C.07 10: rating-based tie-breaks are not advised; players may carry a rating per round."),
    )
    ratings_per_round = models.BooleanField(
        _("rating tie-breaks use each round's rating"), default=False,
        help_text=_("Events over 30 days: each game counts the opponent's rating of that round; "
        "otherwise the first rating (C.07 10's default)."),
    )
    tie_order = models.CharField(
        _("order of equal ratings"), max_length=8, choices=TieOrder.choices, default=TieOrder.NAME,
        help_text=_("Pairing numbers of players equal on rating and title: this, then the name."),
    )
    chess960 = models.BooleanField(
        _("Chess960"), default=False, help_text=_("A starting position is drawn for each round when it is published.")
    )
    acceleration = models.CharField(
        _("acceleration"), max_length=4, choices=AccelerationMethod.choices, default=AccelerationMethod.NONE,
        help_text=_("Baku acceleration: the top half (rounded up to even) starts with virtual points "
        "for the pairings of the first half of the rounds. Only with 1-½-0 scoring; locked after round 1."),
    )
    acceleration_last_ga = models.ForeignKey(
        "pairing.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=_("Baku: the last player of group A, fixed when round 1 is published (C.04.5.1)."),
    )
    rate_of_play = models.CharField(
        _("rate of play"), max_length=8, choices=RateOfPlay.choices, default=RateOfPlay.STANDARD,
        help_text=_("Decides which FIDE rating is the official one and the default order of the rating lists."),
    )
    rating_method = models.CharField(
        _("tournament rating"), max_length=5, choices=RatingMethod.choices, default=RatingMethod.FIDON,
        help_text=_("How each player's tournament rating (pairing numbers, rating tie-breaks) comes from the FIDE "
        "and the national rating (TRF-2026 tag 172)."),
    )
    rating_lists = models.CharField(
        _("rating lists, in order"), max_length=300, blank=True,
        help_text=_("Where ratings are looked up, first list first; empty: the default for the rate of play."),
    )
    consistency_checks = models.BooleanField(
        _("rating consistency checks"), default=True,
        help_text=_("Compare the registered players with the rating lists after each list update and on request."),
    )
    ratings_checked_at = models.DateTimeField(
        _("ratings checked at"),
        null=True, blank=True, help_text=_("When the players were last compared with the rating lists.")
    )
    fide_mode = models.BooleanField(
        _("FIDE mode"), default=True,
        help_text=_("On for every new tournament; the chief arbiter can leave it (for good), never re-enter it."),
    )
    fide_mode_left_round = models.PositiveSmallIntegerField(
        _("fide mode left round"),
        null=True, blank=True, help_text=_("The last round paired when the tournament left FIDE mode.")
    )
    chief_arbiter = models.CharField(
        _("chief arbiter in the report"), max_length=80, blank=True,
        help_text=_("Title, name and FIDE id as the rating report writes them (TRF 102), e.g. 'IA Jane Doe 1234567'. "
        "Empty: the chief arbiter's account name."),
    )
    deputy_arbiters = models.TextField(
        _("deputy arbiters in the report"), blank=True,
        help_text=_("One per line, as for the chief arbiter (TRF 112). Empty: the deputies' account names."),
    )
    numbers_by_hand = models.BooleanField(
        _("numbers by hand"),
        default=False,
        help_text=_("Set when the chief arbiter exchanges two pairing numbers: they no longer follow ratings until "
        "the list is regenerated."),
    )
    ranking_frozen = models.BooleanField(
        _("ranking frozen"),
        default=False, help_text=_("Set when round 4 is published: pairing numbers no longer follow ratings.")
    )

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_tournaments"
    )
    # the event this tournament is a section of (save() makes one for a tournament without)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="sections", verbose_name=_("event"),
    )
    entry_limit = models.PositiveIntegerField(
        _("maximum entries"), null=True, blank=True,
        help_text=_("Online entries past this number of players go to the waiting list. Empty: no limit."),
    )
    checkin_closed_at = models.DateTimeField(
        _("check-in closed at"), null=True, blank=True,
        help_text=_("When check-in for round 1 was closed (the players not present got a zero-point bye)."),
    )
    deputies = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="deputy_tournaments")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    revision = models.PositiveBigIntegerField(
        _("revision"), default=0, editable=False,
        help_text=_("Counts the changes of the tournament's state; see bump_revision()."),
    )

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
                condition=Q(tie_order__in=["name", "fide-id", "oldest", "youngest"]), name="tournament_tie_order_valid"
            ),
            models.CheckConstraint(
                condition=Q(initial_colour_method__in=["lot", "chosen"]), name="tournament_colour_method_valid"
            ),
            models.CheckConstraint(
                condition=Q(rate_of_play__in=["standard", "rapid", "blitz"]), name="tournament_rate_of_play_valid"
            ),
            models.CheckConstraint(condition=Q(system__in=["dutch", "dubov", "burstein", "round-robin"]),
                                   name="tournament_system_valid"),
            models.CheckConstraint(condition=Q(rr_cycles__in=[1, 2]), name="tournament_rr_cycles_1_2"),
            models.CheckConstraint(condition=Q(rr_numbers__in=["rating", "lot", "hand"]), name="tournament_rr_numbers_valid"),
            # acceleration is for Swiss pairings
            models.CheckConstraint(
                condition=Q(system__in=["dutch", "dubov", "burstein"]) | Q(acceleration="none"),
                name="tournament_rr_not_accelerated",
            ),
            models.CheckConstraint(
                condition=Q(rating_method__in=["FIDE", "NRO", "FIDON", "NIDOF", "HBFN", "LBFN", "OTHER"]),
                name="tournament_rating_method_valid",
            ),
            # C.04.5.1: Baku acceleration only with the standard scoring (win 1, draw ½)
            models.CheckConstraint(
                condition=Q(acceleration="none")
                | Q(acceleration="baku", point_win=Decimal("1"), point_draw=Decimal("0.5"), point_loss=Decimal("0")),
                name="tournament_acceleration_standard_scoring",
            ),
            models.CheckConstraint(
                condition=Q(fide_mode=True, fide_mode_left_round__isnull=True)
                | Q(fide_mode=False, fide_mode_left_round__isnull=False),
                name="tournament_fide_mode_left_round_iff_left",
            ),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(start_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="tournament_end_after_start",
            ),
            models.CheckConstraint(
                condition=Q(tiebreak_rules__isnull=True) | Q(tiebreak_rules__in=[2023, 2026]),
                name="tournament_tiebreak_rules_valid",
            ),
            models.CheckConstraint(
                condition=Q(unrated_tiebreaks__in=["drop", "lowest"])
                | Q(unrated_tiebreaks="fixed", unrated_tiebreak_rating__gte=1, unrated_tiebreak_rating__lte=3500),
                name="tournament_unrated_tiebreaks_valid",
            ),
            models.CheckConstraint(condition=Q(final_ties__in=["share", "lots"]), name="tournament_final_ties_valid"),
            models.CheckConstraint(
                condition=Q(ratings_per_round=False) | Q(long_event=True), name="tournament_ratings_per_round_long"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """A tournament is always a section of an event: one created without an event
        gets an event of its own (its name, place, dates and chief arbiter)."""
        if self.event_id is None and self.owner_id is not None:
            self.event = Event.objects.create(
                slug=Event.free_slug(self.slug), name=self.name, place=self.place, start_date=self.start_date,
                end_date=self.end_date, owner_id=self.owner_id,
            )
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = [*kwargs["update_fields"], "event"]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("pairing:tournament", args=[self.slug])

    # -- access ---------------------------------------------------------

    def is_arbiter(self, user) -> bool:
        if not user.is_authenticated:
            return False
        return self.owner_id == user.pk or self.deputies.filter(pk=user.pk).exists()

    def current_revision(self) -> int:
        """The committed :attr:`revision` (the instance's copy may be older)."""
        return Tournament.objects.filter(pk=self.pk).values_list("revision", flat=True).first() or 0

    def list_owners(self) -> list[int]:
        """The accounts whose own rating lists this tournament uses, in order of
        precedence: the chief arbiter, then the deputies."""
        owners = [self.owner_id] if self.owner_id else []
        if self.pk:
            owners += sorted(self.deputies.values_list("pk", flat=True))
        return owners

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
        "initial_colour_method", "initial_colour", "tiebreaks", "tie_order", "public", "chess960",
        "acceleration", "system", "dubov_rules", "rr_cycles", "rr_reverse_last_two", "rr_numbers", "rate_of_play", "rating_method", "rating_lists", "consistency_checks",
        "tiebreak_rules", "unrated_tiebreaks", "unrated_tiebreak_rating", "final_ties", "long_event",
        "ratings_per_round", "chief_arbiter", "deputy_arbiters", "schedule_text", "entry_limit",
    ]

    @property
    def schedule_text(self) -> str:
        """The round schedule in one line, for the audit trail and the settings' version:
        ``1: 2026-12-01 15:00; 2: 2026-12-02`` ('' for an unsaved tournament)."""
        if not self.pk:
            return ""
        return "; ".join(f"{n}: {d.isoformat()}" + (f" {tm:%H:%M}" if tm else "")
                         for n, d, tm in self.schedule.order_by("number").values_list("number", "date", "time"))

    TIEBREAK_TEXT_SWITCH = date(2026, 3, 1)

    def effective_tiebreak_rules(self) -> int:
        """The C.07 text the standings follow: the one chosen, else the 2026 text for a
        tournament starting on or after 1 March 2026 (or with no start date yet), the 2023
        text before."""
        if self.tiebreak_rules:
            return self.tiebreak_rules
        if self.start_date and self.start_date < self.TIEBREAK_TEXT_SWITCH:
            return TiebreakRules.C07_2023
        return TiebreakRules.C07_2026

    def longer_than_30_days(self) -> bool:
        """The suggestion for :attr:`long_event`: the dates (or the rounds' dates) span
        more than 30 days."""
        days = [d for d in (self.start_date, self.end_date) if d]
        if self.pk:
            days += [d.date() for d in self.round_set.values_list("published_at", flat=True) if d]
        return bool(days) and (max(days) - min(days)).days > 30

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

    @property
    def round_robin(self) -> bool:
        return self.system == PairingSystem.ROUND_ROBIN

    @property
    def dutch(self) -> bool:
        return self.system == PairingSystem.DUTCH

    @property
    def burstein(self) -> bool:
        return self.system == PairingSystem.BURSTEIN

    @property
    def system_label(self) -> str:
        """The pairing system in a few words, the one place pages take it from ("FIDE
        Dubov system", "round robin", "double round robin")."""
        if self.round_robin and self.rr_cycles == 2:
            return gettext("double round robin")
        if self.dubov_rules_1997:
            return gettext("FIDE Dubov system, rules of 1997")
        label = SYSTEM_LABELS.get(self.system)
        return str(label) if label is not None else self.get_system_display()

    @property
    def dubov_rules_1997(self) -> bool:
        """Paired by the Dubov system's rules of 1997 (docs/dubov-1997.md)."""
        return self.system == PairingSystem.DUBOV and self.dubov_rules == DubovRulesText.TEXT_1997

    @property
    def publishes_aro_list(self) -> bool:
        """Dubov 9 asks for the ARO list after each round; other systems have none."""
        return self.system == PairingSystem.DUBOV

    @cached_property
    def import_pending(self):
        """The background check of an imported file that this tournament waits for (queued,
        running, or waiting for the arbiter's answer), or None.  Until it is answered
        nothing is paired and no file for rating is written."""
        from .jobs import BLOCKING, JobKind

        return self.jobs.filter(kind=JobKind.IMPORT_CHECK, status__in=BLOCKING).first() if self.pk else None

    def pairing_blocker(self) -> str:
        """Why the next round cannot be paired now, or '' when it can."""
        if self.import_pending is not None:
            return gettext("The imported file is being checked round by round in the background, or waits for your "
                           "answer: nothing can be paired until then.")
        last = self.published_rounds().last()
        if last is not None and last.status != RoundStatus.COMPLETE:
            boards = list(
                last.game_set.filter(result=GameResult.PENDING).order_by("board").values_list("board", flat=True)
            )
            return ngettext(
                "Round %(round)s still has %(n)s result to enter (board %(boards)s).",
                "Round %(round)s still has %(n)s results to enter (boards %(boards)s).", len(boards),
            ) % {"round": last.number, "n": len(boards), "boards": ", ".join(map(str, boards))}
        if self.rounds_published() >= self.rounds:
            return gettext("All %(n)s rounds have been paired.") % {"n": self.rounds}
        if self.player_set.count() < 2:
            return gettext("Register at least two players first.")
        return ""

    # -- byes -----------------------------------------------------------

    def absent_ids(self, round_number: int) -> frozenset[int]:
        """Players not to be paired in ``round_number``: requested byes and withdrawals."""
        byes = self.bye_set.requested().filter(round_number=round_number)
        withdrawn = self.player_set.filter(withdrawn_from_round__lte=round_number)
        return frozenset(byes.values_list("player_id", flat=True)) | frozenset(withdrawn.values_list("pk", flat=True))

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



def bump_revision(tournament_id: int) -> None:
    """Count one change of the tournament's state: ``revision = revision + 1``, atomically,
    in the caller's transaction (it takes the row's lock until the transaction ends).

    :attr:`Tournament.revision` is the one version of a tournament as a whole: it grows by
    one (at least) with every change of its state and never otherwise.
    :meth:`AuditEntry.log <pairing.models.AuditEntry.log>` calls this, and every service
    writes its audit entry in the transaction of its change, so a committed change always
    moves the revision; a write of the tournament's state without an audit entry must
    call this itself (bookkeeping that changes no page but the arbiter's own, such as
    ``ratings_checked_at``, when the rating check page was last looked at, does not
    count as a change).  What keys on it: a confirmation is bound to the revision
    the arbiter saw (:mod:`pairing.views.confirm`: a later change makes it stale), and a
    cache of a tournament's public pages can use ``(tournament.pk, revision)`` as its key.
    """
    Tournament.objects.filter(pk=tournament_id).update(revision=F("revision") + 1)
