"""The tournament's settings and its deputies."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.text import slugify

from ..models import ColourMethod, Tournament
from ..wording import counted
from .fields import _clean_federation, refuse_control_characters


class TournamentForm(forms.ModelForm):
    slug = forms.SlugField(
        label="Web address",
        required=False,
        max_length=60,
        help_text="The tournament's pages are at /t/<this>/ (letters, digits and hyphens); "
        "made from the name when left empty.",
        error_messages={"invalid": "A web address takes lower-case letters, digits and hyphens only."},
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "place",
            "federation",
            "start_date",
            "end_date",
            "time_control",
            "rounds",
            "point_win",
            "point_draw",
            "point_loss",
            "point_pab",
            "point_half_bye",
            "initial_colour_method",
            "initial_colour",
            "tiebreaks",
            "public",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "initial_colour_method": forms.RadioSelect,
            "initial_colour": forms.RadioSelect,
        }
        labels = {
            "initial_colour_method": "Initial colour",
            "initial_colour": "Colour of pairing number 1 in round 1 (when chosen)",
            "point_win": "Win",
            "point_draw": "Draw",
            "point_loss": "Loss",
            "point_pab": "Pairing-allocated bye (PAB)",
            "point_half_bye": "Requested half-point bye",
        }
        help_texts = {
            "tiebreaks": "FIDE C.07 codes in order, e.g. BH-C1, BH, SB, DE.",
            "public": "Pairings and standings visible without logging in.",
        }

    POINT_FIELDS = ("point_win", "point_draw", "point_loss", "point_pab", "point_half_bye")

    confirm_points = forms.BooleanField(
        required=False,
        label="Change the points of the rounds already played",
        help_text="Every score so far is recomputed with the new points, although those rounds were paired on the old ones.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        refuse_control_characters(self)
        self.rounds_published = self.instance.rounds_published() if self.instance.pk else 0
        # one message for every number out of range (clean_rounds), not Django's "≥ 0"
        self.fields["rounds"].validators = []
        self.fields["rounds"].widget.attrs.update(min=1, max=99)
        if self.rounds_published:
            # Round 1 is paired: the initial colour is history now.
            self.fields["initial_colour_method"].disabled = True
            self.fields["initial_colour"].disabled = True
        else:
            del self.fields["confirm_points"]

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))[:60]
        if not slug:
            if self.cleaned_data.get("name"):
                raise forms.ValidationError(
                    "The name has no letters or digits an address can use; type an address (a-z, 0-9, hyphens)."
                )
            raise forms.ValidationError("Give the tournament a name or an address.")
        clash = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(f"The address {slug!r} is taken; choose another.")
        return slug

    def clean_federation(self) -> str:
        return _clean_federation(self.cleaned_data.get("federation", ""))

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if rounds is None or not 1 <= rounds <= 99:
            raise forms.ValidationError("A tournament has between 1 and 99 rounds.")
        if rounds < self.rounds_published:
            raise forms.ValidationError(f"{self.rounds_published} rounds are already paired.")
        return rounds

    def clean_tiebreaks(self) -> str:
        from ..tiebreaks import parse_order

        text = self.cleaned_data.get("tiebreaks", "")
        try:
            order = parse_order(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        twice = sorted({tb.value for tb in order if order.count(tb) > 1})
        if twice:
            raise forms.ValidationError(f"{', '.join(twice)} is listed twice; each tie-break goes in the order once.")
        return ", ".join(tb.value for tb in order)

    def clean(self):
        data = super().clean()
        win, draw, loss = data.get("point_win"), data.get("point_draw"), data.get("point_loss")
        pab, half = data.get("point_pab"), data.get("point_half_bye")
        if None not in (win, draw, loss):
            if not win > draw >= loss >= 0:
                self.add_error("point_draw", "Points must satisfy win > draw ≥ loss ≥ 0.")
            for name, value in (("point_pab", pab), ("point_half_bye", half)):
                if value is not None and not Decimal(0) <= value <= win:
                    self.add_error(name, "Between 0 and the points for a win.")
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", "The tournament cannot end before it starts.")
        changed = [f for f in self.POINT_FIELDS if f in self.changed_data]
        if self.rounds_published and changed and not data.get("confirm_points"):
            self.add_error(
                "confirm_points",
                f"{counted(self.rounds_published, 'round')} {'was' if self.rounds_published == 1 else 'were'} paired on the old points. Tick this box to recompute every "
                "score with the new ones, or leave the points as they were.",
            )
        return data

    def save(self, commit: bool = True) -> Tournament:
        t = super().save(commit=False)
        if not self.rounds_published and t.initial_colour_method == ColourMethod.LOT:
            if "initial_colour_method" in self.changed_data or not t.pk:
                t.draw_initial_colour()
        if commit:
            t.save()
        return t


class DeputyForm(forms.Form):
    """A username for the arbiter team.  It is not looked up: whether an account of
    that name exists is not disclosed (the invitation waits for it)."""

    username = forms.CharField(max_length=150)

    def clean_username(self):
        return self.cleaned_data["username"].strip()

    def clean(self):
        refuse_control_characters(self)
        return super().clean()
