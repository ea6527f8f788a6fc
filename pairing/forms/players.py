"""One player at a time: registration and changes, withdrawal, forbidden pairs."""

from __future__ import annotations

import datetime

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import ForbiddenPair, PairingSystem, Player, Tournament
from .fields import _birth_date_problem, _clean_federation, _clean_fide_id, refuse_control_characters

# The box that confirms a second player of the same name (issue 21, rough edge 1): shown
# only once a namesake is found, so that nothing is saved before the arbiter has answered.
SAME_NAME = "same_name"


class PlayerForm(forms.ModelForm):
    # A text box (numeric keyboard on phones), not <input type=number>: a browser sends
    # an empty value for "abc" typed in a number box, and the arbiter was told the
    # rating is required instead of what is wrong with it.
    rating = forms.IntegerField(
        min_value=1,
        max_value=3500,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "min_value": "A rating between 1 and 3500.",
            "max_value": "A rating between 1 and 3500.",
            "invalid": _("A rating is a whole number between 1 and 3500."),
            "required": "A rating is required; an unrated player needs a provisional one (tick Unrated).",
        },
        required=False,
        label=_("Tournament rating"),
    )
    # the rating the list gave when the row was picked in a look-up: a rating typed over
    # it is marked as typed by hand (VCL4THP Q134)
    list_rating = forms.IntegerField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = Player
        fields = [
            "title",
            "name",
            "rating",
            "rating_provisional",
            "fide_rating",
            "national_rating",
            "k_factor",
            "federation",
            "fide_id",
            "national_id",
            "birth_date",
            "birth_year",
            "sex",
            "club",
            "no_half_point_byes",
            "rating_source",
        ]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"}), "rating_source": forms.HiddenInput}
        labels = {"rating_provisional": _("Unrated (provisional rating)")}

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)
        refuse_control_characters(self)
        self.fields["rating"].help_text = gettext(
            "Pairs and ranks the player. Left empty: from the FIDE and national ratings by the tournament's "
            "method (%(method)s)."
        ) % {"method": tournament.rating_method}
        if tournament.system == PairingSystem.DUBOV:
            self.fields["rating"].help_text += " " + gettext("Unrated players need a provisional rating (Dubov 1.1).")
        elif tournament.system == PairingSystem.DUTCH:  # the rating only ranks: no AROs
            self.fields["rating"].help_text += " " + gettext(
                "Unrated players get the chief arbiter's estimate, which places them in the initial ranking list "
                "(C.04.2 2.1); the Dutch system pairs by score and pairing number only.")
            self.fields["rating_provisional"].help_text = gettext(
                "Unrated: the rating the arbiter gives the player for the initial ranking."
            )
        elif tournament.system == PairingSystem.BURSTEIN:  # the rating only ranks: the Index never reads it
            self.fields["rating"].help_text += " " + gettext(
                "Unrated players get the chief arbiter's estimate, which places them in the initial ranking list "
                "(C.04.2 2.1); the Burstein system pairs by score, the Index and pairing number only.")
            self.fields["rating_provisional"].help_text = gettext(
                "Unrated: the rating the arbiter gives the player for the initial ranking."
            )
        else:  # the model's help names Dubov's rule; other systems only rank by the rating
            self.fields["rating_provisional"].help_text = gettext(
                "Unrated: the rating the arbiter gives the player for the initial ranking."
            )
        for name in ("fide_rating", "national_rating"):
            self.fields[name].widget = forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"})
            self.fields[name].error_messages["invalid"] = _("A rating is a whole number between 1 and 3500.")
        self.fields["name"].widget.attrs["autofocus"] = True
        if self.data.get(SAME_NAME):
            self._ask_about_the_name()

    def _ask_about_the_name(self) -> None:
        self.fields[SAME_NAME] = forms.BooleanField(
            required=False, label=_("Yes, this is a different player with the same name")
        )

    def clean(self):
        data = super().clean()
        if self.instance.pk is None and self.tournament.round_robin and self.tournament.round_set.exists():
            raise forms.ValidationError(_("A round robin takes no new player once round 1 is paired: the Berger "
                                        "table is made for the players registered then."))
        self._tournament_rating(data)
        name = data.get("name")
        renamed = self.instance.pk is None or (name or "").casefold() != self.instance.name.casefold()
        if name and renamed and not data.get(SAME_NAME):
            namesakes = list(
                Player.objects.filter(tournament=self.tournament, name__iexact=name)
                .exclude(pk=self.instance.pk).order_by("tpn")
            )
            if namesakes:
                self._ask_about_the_name()
                shown = "; ".join(
                    gettext("number %(tpn)s, rating %(rating)s") % {"tpn": p.tpn, "rating": p.rating}
                    + (", " + gettext("FIDE id %(id)s") % {"id": p.fide_id} if p.fide_id else "")
                    for p in namesakes
                )
                raise forms.ValidationError(
                    gettext("%(name)s is already registered (%(shown)s). Nothing was saved: if this is a different "
                      "player, tick the box below and save again.") % {"name": name, "shown": shown}
                )
        return data

    def _tournament_rating(self, data: dict) -> None:
        """The tournament rating: the method's when it defines one (a different typed
        one is refused), else the typed one; the list it came from, or '' when typed."""
        from ..models import tournament_rating

        for name in ("fide_rating", "national_rating"):
            value = data.get(name)
            if value is not None and not 1 <= value <= 3500:
                self.add_error(name, gettext("A rating between 1 and 3500."))
                return
        method = self.tournament.rating_method
        computed = tournament_rating(method, data.get("fide_rating"), data.get("national_rating"))
        typed = data.get("rating")
        if "rating" in self.errors:
            return
        if computed is not None:
            if typed is not None and typed != computed:
                self.add_error(
                    "rating",
                    gettext("By the tournament's method (%(method)s) this player's tournament rating is %(rating)s; "
                      "leave it empty, or change the FIDE or national rating.") % {"method": method, "rating": computed},
                )
                return
            data["rating"] = computed
            data["rating_provisional"] = False
            self.instance.rating_provisional = False
        elif typed is None and data.get("rating_provisional"):
            # Unrated ticked and nothing typed: say what to type (issue 32, item 12)
            self.add_error("rating", gettext("Unrated: type the provisional rating you give this player."))
            return
        elif typed is None:
            self.add_error("rating", self.fields["rating"].error_messages["required"])
            return
        if data.get("list_rating") is None or data.get("list_rating") != data["rating"]:
            data["rating_source"] = ""

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Enter the player's name."))
        return name

    def clean_federation(self) -> str:
        return _clean_federation(self.cleaned_data.get("federation", ""))

    def clean_birth_date(self) -> datetime.date | None:
        birth = self.cleaned_data.get("birth_date")
        problem = _birth_date_problem(birth)
        if problem:
            raise forms.ValidationError(problem[0].upper() + problem[1:] + ".")
        return birth

    def clean_fide_id(self) -> str:
        fide_id = _clean_fide_id(self.cleaned_data.get("fide_id", ""))
        if fide_id:
            clash = Player.objects.filter(tournament=self.tournament, fide_id=fide_id).exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(gettext("FIDE id %(id)s is already registered (%(name)s).") % {"id": fide_id, "name": clash.first().name})
        return fide_id

    def save(self, commit: bool = True) -> Player:
        player = super().save(commit=False)
        player.tournament = self.tournament
        if commit:
            player.save()  # the service renumbers the tournament (services.players)
        return player


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(
        required=False, min_value=1, max_value=99,
        help_text=_("Not paired from this round on; empty: back in the tournament."),
    )
    expelled = forms.BooleanField(
        required=False, label=_("Expelled"),
        help_text=_("By the arbiters' decision: left out of the standings; the games count for the opponents."),
    )


class ForbiddenPairForm(forms.Form):
    """Two players of the tournament who must not be paired with each other."""

    CHOICE_ERRORS = {"required": _("Choose two players."), "invalid_choice": _("Choose a player of this tournament.")}
    a = forms.TypedChoiceField(coerce=int, label=_("Player"), error_messages=CHOICE_ERRORS)
    b = forms.TypedChoiceField(coerce=int, label=_("must not be paired with"), error_messages=CHOICE_ERRORS)

    # Past this many players the two lists would be a megabyte of HTML nobody scrolls
    # through: the arbiter types the two pairing numbers instead (the players list has them).
    LISTED_UP_TO = 200

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.by_number = tournament.player_set.count() > self.LISTED_UP_TO
        if self.by_number:
            for name, label in (("a", _("Player (pairing number)")), ("b", _("must not be paired with (pairing number)"))):
                self.fields[name] = forms.IntegerField(
                    label=label, min_value=1, widget=forms.NumberInput(attrs={"size": 5}),
                    error_messages={"required": _("Type two pairing numbers."), "invalid": _("Type a pairing number.")},
                )
            return
        self.players = {p.pk: p for p in tournament.player_set.by_tpn()}
        choices = [("", "—")] + [(p.pk, f"{p.tpn}. {p.name}") for p in self.players.values()]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices

    def clean(self):
        data = super().clean()
        a, b = data.get("a"), data.get("b")
        if a is None or b is None:
            return data
        if self.by_number:
            found = {p.tpn: p for p in self.tournament.player_set.filter(tpn__in=[a, b])}
            missing = [n for n in (a, b) if n not in found]
            if missing:
                raise forms.ValidationError(
                    gettext("No player has the pairing number %(n)s.") % {"n": missing[0]})
            self.players = {p.pk: p for p in found.values()}
            a, b = found[a].pk, found[b].pk
        if a == b:
            raise forms.ValidationError(_("Choose two different players."))
        pa, pb = self.players[a], self.players[b]
        low, high = sorted((a, b))
        if ForbiddenPair.objects.filter(player_a_id=low, player_b_id=high).exists():
            raise forms.ValidationError(gettext("%(a)s and %(b)s are already a forbidden pair.") % {"a": pa.shown_name, "b": pb.shown_name})
        data["player_a"], data["player_b"] = pa, pb
        return data
