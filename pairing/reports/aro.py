"""The ARO list (Dubov 9) published before each round, and the spread of AROs per
scoregroup after each complete round (the chart of :mod:`pairing.reports.aro_chart`, a
page of its own)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple

from django.utils.translation import gettext

from .. import engine
from ..engine import Colour
from ..engine.history import history_columns
from ..models import Player, RoundStatus, Tournament
from ..services.snapshot import build_snapshot, history_table, point_system
from .standings import complete_rounds


@dataclass(frozen=True)
class AroRow:
    player: Player
    score: Decimal
    aro: int | Decimal  # Decimal (tenths) under the Dubov rules of 1997 (1.2: not rounded)
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


def in_tenths(exact: Fraction) -> Decimal:
    """An unrounded ARO (Dubov rules of 1997, 1.2) as the ARO list and the player card show
    it: to one decimal, half up, as 6.2's example lists 2310.0, 2318.4 ..."""
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal("0.1"), ROUND_HALF_UP)


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


class AroLine(NamedTuple):
    """One player of the ARO list, by id (what the cache keeps; :func:`aro_groups` gives
    the players back)."""

    player_id: int
    score: Decimal
    aro: int | Decimal
    preference: str
    upfloats: int
    upfloated_previous: bool
    max_upfloater: bool
    absent: bool
    white: bool  # a White seeker


def aro_lines(t: Tournament, number: int | None = None, snapshot=None) -> tuple[int, tuple[AroLine, ...]]:
    """Dubov 9: every player of the ARO list published before round ``number`` (one of
    :func:`aro_rounds`; default the round in play, else the next round to pair), in the
    list's order: scoregroups from the highest, in each the White seekers by ARO (then
    TPN), then the Black seekers by rating (then TPN).  Under the Dubov rules of 1997 the
    order is 6.2's (White seekers of equal ARO by the lower rating, Black seekers of equal
    rating by the higher ARO, then by name) and the AROs are not rounded (1.2): shown to
    one decimal, as 6.2's example, and ordered by their exact value.  Computed once and
    shared until something before round ``number`` changes
    (:func:`pairing.computed.through_round`).  ``snapshot``: the tournament before round
    ``number``, when the caller has built it (the pairing of that round)."""
    from ..computed import through_round

    if number is None:
        number = aro_rounds(t)[-1]
    return number, through_round(t, "aro-list", number - 1, lambda: _aro_lines(t, number, snapshot), rounds_too=True)


def _aro_lines(t: Tournament, number: int, snapshot=None) -> tuple[AroLine, ...]:
    if snapshot is None:
        snapshot = build_snapshot(t, number)
    states = engine.player_states(snapshot)
    players = {p.id: p for p in snapshot.players}
    rules = snapshot.dubov_rules
    lines = []
    for pid, st in states.items():
        pref = st.preference
        letter = "W" if pref.colour is Colour.WHITE else "B"
        shown = {
            engine.PreferenceStrength.ABSOLUTE: letter,
            engine.PreferenceStrength.STRONG: letter.lower(),
            engine.PreferenceStrength.MILD: f"({letter.lower()})",
        }[pref.strength]
        aro = in_tenths(st.aro_exact) if rules.aro_unrounded and st.games_played else st.aro
        lines.append(AroLine(pid, st.score, aro, shown, st.upfloats, st.upfloated_previous, st.max_upfloater,
                             pid in snapshot.absent, pref.colour is Colour.WHITE))

    def order(line: AroLine):
        p, st = players[line.player_id], states[line.player_id]
        if rules.lists_by_rating:  # 1997 6.2
            exact = st.aro_exact if rules.aro_unrounded else st.aro
            within = ((exact, p.rating, p.name.casefold(), p.tpn) if line.white
                      else (-p.rating, -exact, p.name.casefold(), p.tpn))
        else:
            within = (line.aro, p.tpn) if line.white else (-p.rating, p.tpn)
        return (-line.score, not line.white, *within)

    return tuple(sorted(lines, key=order))


def aro_groups(t: Tournament, lines) -> list[AroGroup]:
    """``lines`` (some of :func:`aro_lines`, in its order) as scoregroups of rows with
    their players: the groups a page of the list shows."""
    players = Player.objects.in_bulk([line.player_id for line in lines])
    groups: dict[Decimal, AroGroup] = {}
    for line in lines:
        row = AroRow(players[line.player_id], line.score, line.aro, line.preference, line.upfloats,
                     line.upfloated_previous, line.max_upfloater, line.absent)
        group = groups.setdefault(line.score, AroGroup(line.score, [], []))
        (group.white_seekers if line.white else group.black_seekers).append(row)
    return list(groups.values())


def aro_list(t: Tournament, number: int | None = None) -> tuple[int, list[AroGroup]]:
    """Dubov 9: per scoregroup, White seekers by ARO (then TPN), Black seekers by rating
    (then TPN), with the figures the engine pairs with.  ``number``: the list published
    before that round (one of :func:`aro_rounds`); default the round in play, else the
    next round to pair."""
    number, lines = aro_lines(t, number)
    return number, aro_groups(t, lines)


def aro_spread(t: Tournament, snapshot=None) -> list:
    """Per complete round, per scoregroup: the range of AROs (see :mod:`pairing.reports.aro_chart`).
    Computed once and shared until a complete round changes, from the rounds read as
    columns (:func:`history_table`).  ``snapshot``: the tournament before the round after
    the last complete one, when the caller has built it (the pairing of that round): the
    columns are read from its histories and ratings instead."""
    from ..computed import through_round

    done = complete_rounds(t)
    if snapshot is not None and snapshot.round_number - 1 != done:
        snapshot = None
    return through_round(t, "aro-spread", done, lambda: _aro_spread(t, done, snapshot), rounds_too=True)


def _aro_spread(t: Tournament, done: int, snapshot=None) -> list:
    from . import aro_chart

    if snapshot is not None:
        _index, opponents, codes, _colours = history_columns(snapshot.players)
        ratings = [p.rating for p in snapshot.players]
    else:
        # the rounds read as columns, without entries or a snapshot (9,999 x 40: ~0.2 s)
        players = list(t.player_set.order_by().values_list("pk", "rating", named=True))
        opponents, codes, _colours = history_table(t, done, players)
        ratings = [p.rating for p in players]
    return aro_chart.spread_by_scoregroup(*aro_chart.running_figures(opponents, codes, ratings, point_system(t)))
