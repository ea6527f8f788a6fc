"""A section's categories and prizes, typed as lines (one category, one list of prizes each)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import ROUNDING_CHOICES, CategoryKind, OnePrize, Sharing

CATEGORY_LINE = re.compile(r"^(?P<name>[^:]{1,40}):\s*(?P<kind>under|over|women|unrated|rating|fed|club)\b\s*(?P<rest>.*)$",
                           re.IGNORECASE)


class PrizeForm(forms.Form):
    categories = forms.CharField(
        label=_("Categories"), required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("One a line, name: kind. Kinds: under 12, over 50 (birth year), women, unrated, "
                    "rating 1400-1599, fed SLO, club Bled."),
    )
    prizes = forms.CharField(
        label=_("Prizes"), required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("One list a line: 'place: 300, 200, 100' for the places, 'U12: 50, 30' for a category's places."),
    )
    sharing = forms.ChoiceField(label=_("players tied on points"), choices=Sharing.choices)
    one_prize = forms.ChoiceField(label=_("a player eligible for two prizes gets"), choices=OnePrize.choices)
    rounding = forms.ChoiceField(label=_("shares rounded down"), choices=ROUNDING_CHOICES)
    currency = forms.CharField(label=_("currency"), max_length=8, required=False)
    club_best = forms.IntegerField(label=_("club ranking: best players counted"), min_value=1, max_value=50)

    def clean_categories(self) -> list[dict]:
        out, names = [], set()
        for n, line in enumerate(self.cleaned_data["categories"].splitlines(), start=1):
            line = line.strip()
            if not line:
                continue
            m = CATEGORY_LINE.match(line)
            if not m:
                raise forms.ValidationError(gettext("Line %(n)s: write 'name: kind', e.g. 'U12: under 12'.") % {"n": n})
            name, kind, rest = m["name"].strip(), m["kind"].lower(), m["rest"].strip()
            if name.casefold() in names or name.casefold() == "place":
                raise forms.ValidationError(gettext("Line %(n)s: the name %(name)s is used twice.") % {"n": n, "name": name})
            names.add(name.casefold())
            row = {"name": name, "kind": kind, "age": None, "rating_min": None, "rating_max": None, "value": ""}
            if kind in (CategoryKind.UNDER, CategoryKind.OVER):
                if not (rest.isascii() and rest.isdigit() and 1 <= int(rest) <= 120):
                    raise forms.ValidationError(gettext("Line %(n)s: an age from 1 to 120.") % {"n": n})
                row["age"] = int(rest)
            elif kind == CategoryKind.RATING:
                m2 = re.fullmatch(r"(\d{0,4})\s*-\s*(\d{0,4})", rest)
                if not m2 or not (m2[1] or m2[2]):
                    raise forms.ValidationError(gettext("Line %(n)s: a rating band such as 1400-1599, -1599 or 2000-.")
                                                % {"n": n})
                row["rating_min"], row["rating_max"] = (int(m2[1]) if m2[1] else None), (int(m2[2]) if m2[2] else None)
            elif kind in (CategoryKind.FEDERATION, CategoryKind.CLUB):
                if not rest or len(rest) > 80:
                    raise forms.ValidationError(gettext("Line %(n)s: name the federation or the club.") % {"n": n})
                row["value"] = rest.upper() if kind == CategoryKind.FEDERATION else rest
            out.append(row)
        return out

    def clean(self):
        data = super().clean()
        names = {c["name"].casefold(): c["name"] for c in data.get("categories") or []}
        lists, seen = [], set()
        for n, line in enumerate((self.data.get("prizes") or "").splitlines(), start=1):
            line = line.strip()
            if not line:
                continue
            name, sep, rest = line.partition(":")
            key = name.strip().casefold()
            if not sep or (key != "place" and key not in names):
                self.add_error("prizes", gettext("Line %(n)s: start with 'place:' or a category's name.") % {"n": n})
                return data
            if key in seen:
                self.add_error("prizes", gettext("Line %(n)s: a second list for the same places.") % {"n": n})
                return data
            seen.add(key)
            amounts = []
            for item in rest.split(","):
                try:
                    value = Decimal(item.strip())
                except InvalidOperation:
                    value = None
                if value is None or not value.is_finite() or value < 0 or value >= 10**8 or value != value.quantize(Decimal("0.01")):
                    self.add_error("prizes", gettext("Line %(n)s: amounts such as 300, 150.50 (not %(item)r).") % {
                        "n": n, "item": item.strip()[:20]})
                    return data
                amounts.append(value)
            if len(amounts) > 100:
                self.add_error("prizes", gettext("Line %(n)s: at most 100 prizes.") % {"n": n})
                return data
            lists.append((None if key == "place" else names[key], amounts))
        data["prize_lists"] = lists
        return data
