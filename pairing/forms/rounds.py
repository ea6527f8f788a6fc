"""The draft round's swap of two players."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Player
from .fields import PlainSelect

# Up to this many players in the tournament a field is a list to choose from; past it (a
# draft of 9,999 players made lists of 700 KB that nobody scrolls) the arbiter types the
# pairing number.  The field is then named ``<name>_no``: a form sent from a page of the
# other kind is refused as incomplete, never read as the other kind of number.
LIST_LIMIT = 300


def by_number(t) -> bool:
    """Whether ``t``'s forms that name a player take a pairing number."""
    return t.player_set.count() > LIST_LIMIT


class _PlayersForm(forms.Form):
    """Fields that each name one of ``players``: a list of "No. Name" (the value is the
    player's key), or with ``numbers`` a pairing number (field ``<name>_no``) that the
    cleaned data gives as the same key, under ``<name>``."""

    player_fields: tuple[str, ...] = ()

    def _set_players(self, players: list[Player], numbers: bool) -> None:
        self._numbers = numbers
        if numbers:
            self._keys = {p.tpn: p.pk for p in players if p.tpn}
            for name in self.player_fields:
                label = self.fields.pop(name).label
                self.fields[f"{name}_no"] = forms.IntegerField(
                    label=label, min_value=1,
                    widget=forms.NumberInput(attrs={"min": 1, "placeholder": _("pairing number")}))
        else:
            choices = [(p.pk, f"{p.tpn}. {p.name}") for p in players]
            for name in self.player_fields:
                self.fields[name].choices = choices

    def clean(self):
        data = super().clean()
        if self._numbers:
            for name in self.player_fields:
                number = data.pop(f"{name}_no", None)
                if number is None:
                    continue
                if number not in self._keys:
                    self.add_error(f"{name}_no", _("No player has pairing number %(n)s.") % {"n": number})
                else:
                    data[name] = self._keys[number]
        return data


class SwapForm(_PlayersForm):
    a = forms.TypedChoiceField(coerce=int, label=_("Player"), widget=PlainSelect)
    b = forms.TypedChoiceField(coerce=int, label=_("swaps places with"), widget=PlainSelect)
    player_fields = ("a", "b")

    def __init__(self, *args, players: list[Player], numbers: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self._set_players(players, numbers)

    def clean(self):
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class PoolPairForm(SwapForm):
    """Two players of the pool to pair on a new board, the first with White."""

    def __init__(self, *args, players: list[Player], numbers: bool = False, **kwargs):
        super().__init__(*args, players=players, numbers=numbers, **kwargs)
        self.fields["a_no" if numbers else "a"].label = _("White")
        self.fields["b_no" if numbers else "b"].label = _("Black")


class OnePlayerForm(_PlayersForm):
    player = forms.TypedChoiceField(coerce=int, label=_("Player"), widget=PlainSelect)
    player_fields = ("player",)

    def __init__(self, *args, players: list[Player], label: str = _("Player"), numbers: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].label = label
        self._set_players(players, numbers)
