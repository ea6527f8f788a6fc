"""``{{ player|name_in:t }}``: a player's name as every page shows it, with what tells
two players of the same name apart (Player.name_among; issue 32, item 10)."""

from __future__ import annotations

from django import template

from ..models import namesakes

register = template.Library()


@register.filter
def name_in(player, tournament) -> str:
    """The name, or "Nagy, Dmitri (HUN)" when another player of ``tournament`` is also
    called so.  The clashes are read once per tournament object (one page)."""
    if player is None:
        return ""
    clashes = getattr(tournament, "_namesakes_shown", None)
    if clashes is None:
        clashes = namesakes(tournament.pk)
        tournament._namesakes_shown = clashes
    return player.name_among(clashes)
