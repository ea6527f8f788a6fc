"""A registered player."""

from __future__ import annotations

from collections import Counter

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .choices import (
    TITLE_ORDER,
    Sex,
    Title,
    audit_value,
    version_token,
)
from .tournament import Tournament


def name_key(name: str) -> str:
    """Two names a reader takes for the same: case and spacing aside."""
    return " ".join(name.casefold().split())


def namesakes(tournament_id: int) -> dict[str, list[Player]]:
    """The tournament's players who share a name with another, by ``name_key``: two
    queries (the names, then the players of the names that collide)."""
    seen = Counter(map(name_key, Player.objects.filter(tournament_id=tournament_id).values_list("name", flat=True)))
    clashing = {key for key, n in seen.items() if n > 1}
    if not clashing:
        return {}
    out: dict[str, list[Player]] = {}
    rows = Player.objects.filter(tournament_id=tournament_id).only("pk", "name", "federation", "rating", "tpn", "fide_id")
    for p in rows.order_by("tpn", "pk"):
        if name_key(p.name) in clashing:
            out.setdefault(name_key(p.name), []).append(p)
    return out


class PlayerQuerySet(models.QuerySet["Player"]):
    def by_tpn(self) -> PlayerQuerySet:
        return self.order_by("tpn")


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    tpn = models.PositiveIntegerField(_("pairing number"), null=True, blank=True)
    title = models.CharField(_("title"), max_length=3, choices=Title.choices, blank=True)
    name = models.CharField(_("name"), max_length=33, help_text=_("Family name, given name"))
    rating = models.PositiveSmallIntegerField(_("rating"))
    rating_provisional = models.BooleanField(
        _("rating provisional"),
        default=False, help_text=_("Unrated: the arbiter's provisional rating (Dubov 1.1 needs one for everyone).")
    )
    fide_rating = models.PositiveSmallIntegerField(
        _("FIDE rating"), null=True, blank=True, help_text=_("The official FIDE rating for the tournament's rate of play.")
    )
    national_rating = models.PositiveSmallIntegerField(_("national rating"), null=True, blank=True)
    k_factor = models.PositiveSmallIntegerField(
        _("K factor"), null=True, blank=True, help_text=_("FIDE's K for the rate of play, from the list (for the rating change).")
    )
    rating_source = models.CharField(
        _("rating source"),
        max_length=80, blank=True,
        help_text=_("The list the rating came from (e.g. 'FIDE standard, Nov 2026'); empty: typed by hand."),
    )
    national_id = models.CharField(_("national id"), max_length=20, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    fide_id = models.CharField(_("FIDE id"), max_length=11, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    club = models.CharField(_("club"), max_length=80, blank=True)
    entered_round = models.PositiveSmallIntegerField(
        _("entered in round"),
        null=True, blank=True,
        help_text=_("A late entry: the first round the player was in the tournament for (before it, no pairing "
                    "number). Empty: from round 1."),
    )
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"),
        null=True, blank=True, help_text=_("Not paired from this round on.")
    )
    expelled = models.BooleanField(
        _("expelled"),
        default=False,
        help_text=_("Expelled (withdrawn by the arbiters' decision): left out of the standings; the games count for "
        "the opponents."),
    )
    hand_rank = models.PositiveSmallIntegerField(
        _("order among the tied"), null=True, blank=True,
        help_text=_("The chief arbiter's order for players tied on points and every tie-break (1 first)."),
    )
    external_tiebreak = models.DecimalField(
        _("external tie-break value"), max_digits=8, decimal_places=2, null=True, blank=True,
        help_text=_("A tie-break value computed outside the program (code EXT in the tie-break list)."),
    )
    no_half_point_byes = models.BooleanField(
        _("not eligible for half-point byes"), default=False,
        help_text=_("The tournament's rules give this player no half-point bye."),
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["tpn"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "tpn"], name="player_tpn_unique_per_tournament"),
            # two adds at once both passed the form's check (audit finding 7)
            models.UniqueConstraint(
                fields=["tournament", "fide_id"], condition=~Q(fide_id=""), name="player_fide_id_unique_per_tournament"
            ),
            models.CheckConstraint(condition=Q(rating__gte=1) & Q(rating__lte=3500), name="player_rating_1_3500"),
            models.CheckConstraint(
                condition=Q(entered_round__isnull=True) | Q(entered_round__gte=2), name="player_entered_round_after_1"
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_from_round__isnull=True) | Q(withdrawn_from_round__gte=1),
                name="player_withdrawn_round_positive",
            ),
            models.CheckConstraint(
                condition=Q(expelled=False) | Q(withdrawn_from_round__isnull=False), name="player_expelled_is_withdrawn"
            ),
            models.CheckConstraint(condition=Q(sex__in=["m", "f", ""]), name="player_sex_valid"),
            models.CheckConstraint(
                condition=Q(title__in=list(TITLE_ORDER)), name="player_title_valid"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
            models.CheckConstraint(
                condition=(Q(fide_rating__isnull=True) | Q(fide_rating__gte=1, fide_rating__lte=3500))
                & (Q(national_rating__isnull=True) | Q(national_rating__gte=1, national_rating__lte=3500)),
                name="player_official_ratings_1_3500",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.rating})"

    @staticmethod
    def ranking_key(p: Player, tie_order: str = "name") -> tuple:
        """Initial ranking: rating (descending), title, the tournament's announced order
        for the rest (``tie_order``; players without the datum after those with it), name."""
        if tie_order == "fide-id":
            digits = p.fide_id.strip()
            extra: tuple = (0, int(digits)) if digits.isdigit() else (1, 0)
        elif tie_order in ("oldest", "youngest") and p.birth_date is not None:
            day = p.birth_date.toordinal()
            extra = (0, day if tie_order == "oldest" else -day)
        elif tie_order in ("oldest", "youngest"):
            extra = (1, 0)
        else:
            extra = ()
        return (-p.rating, TITLE_ORDER.get(p.title, 99), *extra, p.name.casefold(), p.pk or 0)

    AUDITED_FIELDS = [
        "tpn", "title", "name", "rating", "rating_provisional", "fide_rating", "national_rating", "k_factor", "rating_source",
        "national_id", "birth_year", "federation", "fide_id", "birth_date", "sex", "club", "entered_round",
        "withdrawn_from_round", "expelled", "no_half_point_byes", "hand_rank", "external_tiebreak",
    ]

    def audit_values(self, fields: list[str] | None = None) -> dict:
        return {f: audit_value(getattr(self, f)) for f in fields or self.AUDITED_FIELDS}

    def version(self) -> str:
        """Not the TPN: another arbiter adding a player renumbers without editing this one."""
        return version_token({k: v for k, v in self.audit_values().items() if k != "tpn"})

    def name_among(self, clashes: dict[str, list[Player]]) -> str:
        """The name as pages show it: alone, or, when another player of the tournament
        has the same name, with what tells them apart (issue 32, item 10): the
        federation if theirs all differ, else the rating if theirs all differ, else the
        pairing number.  ``clashes`` is ``namesakes(tournament_id)``."""
        group = clashes.get(name_key(self.name))
        if not group or len(group) < 2:
            return self.name
        feds = [(p.federation or "").strip().upper() for p in group]
        if all(feds) and len(set(feds)) == len(group):
            detail = (self.federation or "").strip().upper()
        elif len({p.rating for p in group}) == len(group):
            detail = str(self.rating)
        elif self.tpn:
            detail = gettext("No %(tpn)s") % {"tpn": self.tpn}
        else:
            detail = self.fide_id.strip() or f"#{self.pk}"
        return gettext("%(name)s (%(detail)s)") % {"name": self.name, "detail": detail}

    @property
    def shown_name(self) -> str:
        """``name_among`` for one player (messages, confirmations); lists use the
        template filter ``name_in``, which asks the database once per page."""
        return self.name_among(namesakes(self.tournament_id))

    def audit_label(self) -> str:
        return f"No {self.tpn} {self.name}" if self.tpn else self.name

    def entered_by(self, round_number: int) -> bool:
        """In the tournament for ``round_number`` (a late entry only from their round on)."""
        return self.entered_round is None or self.entered_round <= round_number

    def withdrawn_in(self, round_number: int) -> bool:
        return self.withdrawn_from_round is not None and self.withdrawn_from_round <= round_number



class RoundRating(models.Model):
    """A player's rating from a round on, for an event over 30 days (C.07 10, VCL4THP
    Q212-213): the rating in force in round ``round_number`` and after, until the next
    one.  Before the first of them the player's tournament rating counts."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="round_ratings")
    round_number = models.PositiveSmallIntegerField(_("round number"))
    rating = models.PositiveSmallIntegerField(_("rating"))

    class Meta:
        ordering = ["player", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["player", "round_number"], name="round_rating_once_per_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="round_rating_round_from_1"),
            models.CheckConstraint(condition=Q(rating__gte=1) & Q(rating__lte=3500), name="round_rating_1_3500"),
        ]

    def __str__(self) -> str:
        return f"{self.player.name}: {self.rating} from round {self.round_number}"
