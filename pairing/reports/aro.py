"""The ARO list (Dubov 9) published before each round, and the spread of AROs per
scoregroup after each complete round (the chart of :mod:`pairing.reports.aro_chart`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext

from .. import engine
from ..engine import Colour
from ..models import Player, RoundStatus, Tournament
from ..services.snapshot import build_snapshot, histories, point_system
from .standings import complete_rounds


@dataclass(frozen=True)
class AroRow:
    player: Player
    score: Decimal
    aro: int
    preference: str  # "W", "w", "(w)", "B", ... strength by case and brackets
    upfloats: int
    upfloated_previous: bool
    max_upfloater: bool
    absent: bool


@dataclass(frozen=True)
class AroGroup:
    score: Decimal
    white_seekers: list[AroRow]
    black_seekers: list[AroRow]

    @property
    def columns(self) -> tuple[tuple[str, list[AroRow]], ...]:
        return ((gettext("White seekers"), self.white_seekers), (gettext("Black seekers"), self.black_seekers))


def aro_rounds(t: Tournament) -> list[int]:
    """The rounds an ARO list exists for: each round already paired, and the next one."""
    last = t.published_rounds().last()
    if last is None:
        upto = 1
    elif last.status != RoundStatus.COMPLETE:
        upto = last.number
    else:
        upto = min(last.number + 1, t.rounds)
    return list(range(1, upto + 1))


def aro_list(t: Tournament, number: int | None = None) -> tuple[int, list[AroGroup]]:
    """Dubov 9: per scoregroup, White seekers by ARO (then TPN), Black seekers by rating
    (then TPN), with the figures the engine pairs with.  ``number``: the list published
    before that round (one of :func:`aro_rounds`); default the round in play, else the
    next round to pair."""
    if number is None:
        number = aro_rounds(t)[-1]
    snapshot = build_snapshot(t, number)
    states = engine.player_states(snapshot)
    players = {p.pk: p for p in t.player_set.all()}
    groups: dict[Decimal, AroGroup] = {}
    for pid, st in states.items():
        pref = st.preference
        letter = "W" if pref.colour is Colour.WHITE else "B"
        shown = {
            engine.PreferenceStrength.ABSOLUTE: letter,
            engine.PreferenceStrength.STRONG: letter.lower(),
            engine.PreferenceStrength.MILD: f"({letter.lower()})",
        }[pref.strength]
        row = AroRow(
            player=players[pid],
            score=st.score,
            aro=st.aro,
            preference=shown,
            upfloats=st.upfloats,
            upfloated_previous=st.upfloated_previous,
            max_upfloater=st.max_upfloater,
            absent=pid in snapshot.absent,
        )
        group = groups.setdefault(st.score, AroGroup(st.score, [], []))
        (group.white_seekers if pref.colour is Colour.WHITE else group.black_seekers).append(row)
    for g in groups.values():
        g.white_seekers.sort(key=lambda r: (r.aro, r.player.tpn))
        g.black_seekers.sort(key=lambda r: (-r.player.rating, r.player.tpn))
    return number, [groups[s] for s in sorted(groups, reverse=True)]


def aro_spread(t: Tournament) -> list:
    """Per complete round, per scoregroup: the range of AROs (see :mod:`pairing.reports.aro_chart`)."""
    from . import aro_chart

    players = list(t.player_set.all())
    hist = histories(t, complete_rounds(t), players)
    figures = aro_chart.running_figures(hist, {p.pk: p.rating for p in players}, point_system(t))
    return aro_chart.spread_by_scoregroup(figures)

