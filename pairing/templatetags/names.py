"""``{{ player|name_in:t }}``: a player's name as every page shows it, with what tells
two players of the same name apart (Player.name_among; issue 32, item 10)."""

from __future__ import annotations

from django import template

from ..computed import through_round
from ..models import Tournament, namesakes

register = template.Library()


@register.filter
def name_in(player, tournament) -> str:
    """The name, or "Nagy, Dmitri (HUN)" when another player of ``tournament`` is also
    called so.  The clashes are read once per tournament object (one page), from the
    shared cache while only results changed."""
    if player is None:
        return ""
    clashes = getattr(tournament, "_namesakes_shown", None)
    if clashes is None:
        if isinstance(tournament, Tournament):
            # names change with the player list only: kept in the shared cache across
            # results (every result is of a round after "round 0"), read again after any
            # other change (a 9,999-player list is 10,000 names to read per page)
            clashes = through_round(tournament, "namesakes", 0, lambda: namesakes(tournament.pk),
                                   rounds_too=True)
        else:
            clashes = namesakes(tournament.pk)
        tournament._namesakes_shown = clashes
    return player.name_among(clashes)
