"""The draft round's swap of two players."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Player
from .fields import PlainSelect


class SwapForm(forms.Form):
    a = forms.TypedChoiceField(coerce=int, label=_("Player"), widget=PlainSelect)
    b = forms.TypedChoiceField(coerce=int, label=_("swaps places with"), widget=PlainSelect)

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(p.pk, f"{p.tpn}. {p.name}") for p in players]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class PoolPairForm(SwapForm):
    """Two players of the pool to pair on a new board, the first with White."""

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, players=players, **kwargs)
        self.fields["a"].label = _("White")
        self.fields["b"].label = _("Black")


class OnePlayerForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, label=_("Player"), widget=PlainSelect)

    def __init__(self, *args, players: list[Player], label: str = _("Player"), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p.pk, f"{p.tpn}. {p.name}") for p in players]
        self.fields["player"].label = label
