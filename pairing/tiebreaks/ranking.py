"""Direct encounter (C.07 6) and the public entry points: the tie-break columns in the
organiser's order, and the sorted standings with shared ranks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .checks import _facts
from .context import _FORFEIT, _as_decimals, _Context
from .definitions import StandingRow, TBTournament, TieBreak, Unrated, Value

# ---------------------------------------------------------------- direct encounter


def _de_tiers(ctx: _Context, group: list[int], forfeits: bool = False) -> list[list[int]]:
    """C.07 6: order ``group`` (player indexes) into tiers by their games among themselves.

    When all of them met, rank by the points scored among them and repeat inside every
    sub-group still tied.  When some did not meet, a player is placed first only if their
    score is higher than any other could reach by winning every missing game; the rest
    then form a new mini-tournament.  Otherwise the group stays tied.  O(|group|·R) per
    level; a Swiss group can only be split when it has at most 2R+1 players.
    ``forfeits`` (DE/P): a forfeited game counts as played against the scheduled opponent.
    """
    if len(group) < 2:
        return [group]
    members = set(group)
    score = {i: 0 for i in group}  # in units (_Context.unit)
    met: dict[int, set[int]] = {i: set() for i in group}
    for i in group:
        for r, j in enumerate(ctx.opp[i]):
            if j in members and (ctx.otb[i][r] or (forfeits and ctx.code[i][r] in _FORFEIT)):
                score[i] += ctx.pts[i][r]
                met[i].add(j)
    if not any(met.values()):
        return [group]
    if all(len(met[i]) == len(group) - 1 for i in group):
        levels = sorted({score[i] for i in group}, reverse=True)
        if len(levels) == 1:
            return [group]
        tiers: list[list[int]] = []
        for level in levels:
            tiers.extend(_de_tiers(ctx, [i for i in group if score[i] == level], forfeits))
        return tiers
    best = max(group, key=lambda i: score[i])
    win = ctx.win
    ceiling = max(score[j] + win * (len(group) - 1 - len(met[j])) for j in group if j != best)
    if score[best] > ceiling:
        return [[best], *_de_tiers(ctx, [i for i in group if i != best], forfeits)]
    return [group]


def _direct_encounter(ctx: _Context, keys: list[tuple], forfeits: bool = False) -> list[Value]:
    """DE value: how many players of the same tie group DE ranks strictly below this one."""
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    column: list[Value] = [0] * ctx.n
    for group in groups.values():
        below = len(group)
        for tier in _de_tiers(ctx, group, forfeits):
            below -= len(tier)
            for i in tier:
                column[i] = below
    return column


# ---------------------------------------------------------------- public API


def _columns(t: TBTournament, order: Iterable[TieBreak]) -> tuple[_Context, list[list[Value]]]:
    """The context and the columns of ``order`` as computed (:meth:`_Context.figures`:
    scores in whole units), which order the players exactly as their values do."""
    index, codes, opponents, colours = _facts(t)
    ctx = _Context(t, index, (codes, opponents, colours))
    columns: list[list[Value]] = []
    for tb in order:
        if tb.base == "DE":
            keys = [(ctx.face[i], *(col[i] for col in columns)) for i in range(ctx.n)]
            columns.append(_direct_encounter(ctx, keys, forfeits=tb is TieBreak.DE_P))
        else:
            columns.append(ctx.figures(tb))
    return ctx, columns


def _shown(ctx: _Context, columns: list[list[Value]], order: Iterable[TieBreak]) -> list[list[Value]]:
    """The columns of :func:`_columns` as their values: Decimals for the scores."""
    return [col if tb.base == "DE" else _as_decimals(col, ctx.decimals(tb)) for col, tb in zip(columns, order, strict=True)]


def compute(t: TBTournament, order: Sequence[TieBreak]) -> dict[int, tuple[Value, ...]]:
    """Tie-break values per player id, in the order given.

    Decimal for score-based tie-breaks, int for counts and ratings.  DE depends on its
    position: it separates players tied on points and on every tie-break listed before it.
    """
    ctx, columns = _columns(t, order)
    columns = _shown(ctx, columns, order)
    return {p.id: tuple(col[i] for col in columns) for i, p in enumerate(t.players)}


def standings(t: TBTournament, order: Sequence[TieBreak]) -> list[StandingRow]:
    """Players sorted by points, then by each tie-break (higher is better; TPN lower), then
    by TPN/id.

    Players equal on points and every tie-break share a rank (1, 2, 2, 4 ...).
    """
    return standings_with(t, order, ())[0]


def standings_with(
    t: TBTournament, order: Sequence[TieBreak], extra: Sequence[TieBreak]
) -> tuple[list[StandingRow], dict[int, tuple[Value, ...]]]:
    """:func:`standings`, and each player's values of the ``extra`` tie-breaks (which do
    not order anyone) from the same pass over the histories: what a player's card shows
    beside the rank (its TPR) without a second pass.  An undefined extra value (a TPR
    without a game) is None."""
    ctx, columns = _columns(t, order)
    more = [ctx.column(tb) for tb in extra]
    unknown = [ctx.undefined(tb) for tb in extra]
    values = {p.id: tuple(None if no[i] else col[i] for col, no in zip(more, unknown, strict=True))
              for i, p in enumerate(t.players)}
    return _ranked(ctx, columns, order), values


def _ranked(ctx: _Context, columns: list[list[Value]], order: Sequence[TieBreak]) -> list[StandingRow]:
    """The standings, ordered and ranked on the computed figures (:func:`_columns`), each
    row with its values."""
    t = ctx.t
    # higher is better, except for a tie-break ranked the other way (TPN)
    signs = [1 if tb.ascending else -1 for tb in order]
    figures = list(zip(*columns, strict=True)) if columns else [()] * ctx.n
    values = list(zip(*_shown(ctx, columns, order), strict=True)) if columns else [()] * ctx.n
    points = ctx.points()
    undefined = list(zip(*(ctx.undefined(tb) for tb in order), strict=True)) if order else [()] * ctx.n
    face = ctx.face
    rows = [
        ((-face[i], *(s * v for s, v in zip(signs, figures[i], strict=True)), p.tpn, p.id), i, p)
        for i, p in enumerate(t.players)
    ]
    rows.sort(key=lambda row: row[0])
    result: list[StandingRow] = []
    last = None
    for position, (key, i, p) in enumerate(rows, start=1):
        # tied: equal on points and every tie-break (the key without TPN and id)
        if last is not None and key[:-2] == last:
            rank = result[-1].rank
        else:
            rank = position
        last = key[:-2]
        result.append(StandingRow(rank, p.id, points[i], values[i], undefined[i]))
    return result


def applicable(t: TBTournament, order: Sequence[TieBreak]) -> tuple[tuple[TieBreak, ...], tuple[TieBreak, ...]]:
    """(the tie-breaks that apply, the ones dropped).  C.07 10: with unrated players
    present and no rule for them (:attr:`Unrated.DROP`), the rating-based tie-breaks are
    dropped from the list."""
    if t.unrated is not Unrated.DROP or all(p.rating for p in t.players):
        return tuple(order), ()
    kept = tuple(tb for tb in order if not tb.rating_based)
    return kept, tuple(tb for tb in order if tb.rating_based)


def without(rows: Sequence[StandingRow], dropped: Iterable[int]) -> list[StandingRow]:
    """The standings with the players ``dropped`` (ids) left out -- expelled players,
    whose games still counted for everyone's points and tie-breaks -- and the ranks
    closed up: a shared rank is the position of the first of the tied rows."""
    gone = set(dropped)
    if not gone.intersection(r.id for r in rows):  # nobody left out: the ranks stand
        return list(rows)
    result: list[StandingRow] = []
    for r in rows:
        if r.id in gone:
            continue
        if result and result[-1].points == r.points and result[-1].tiebreaks == r.tiebreaks:
            rank = result[-1].rank
        else:
            rank = len(result) + 1
        result.append(r._replace(rank=rank))
    return result


def break_ties(rows: Sequence[StandingRow], key) -> list[StandingRow]:
    """Order players who share a rank (equal on points and every tie-break) by
    ``key(id)`` -- the chief arbiter's order, a drawing of lots (C.07; VCL4THP Q204-205);
    players whose keys are equal go on sharing.  Ranks of the others do not move."""
    result: list[StandingRow] = []
    start = 0
    while start < len(rows):
        end = start
        while end < len(rows) and rows[end].rank == rows[start].rank:
            end += 1
        group = sorted(rows[start:end], key=lambda r: key(r.id))
        for offset, r in enumerate(group):
            if offset and key(r.id) == key(group[offset - 1].id):
                rank = result[-1].rank
            else:
                rank = rows[start].rank + offset
            result.append(r._replace(rank=rank))
        start = end
    return result
