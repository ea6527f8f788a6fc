"""The tie-breaks' check of their input (C.07 art. 16 reads every round of every
player): each history against its opponents', in one pass over the rounds' columns, and
the first problem named when a check fails."""

from __future__ import annotations

from pairing.engine.history import history_columns
from pairing.engine.model import Result, RoundEntry

from .definitions import TBTournament, TieBreakError

_BYE = frozenset(r.value for r in Result if r.is_bye)
_MIRROR = {r.value: frozenset(m.value for m in r.opponent_results) for r in Result if r.opponent_results}
# (a player's code, the opponent's code) of every game whose two lines agree
_MIRRORED = frozenset((code, back) for code, backs in _MIRROR.items() for back in backs)


def _facts(t: TBTournament) -> tuple[dict[int, int], list[list[str]], list[list[int]], list[list]]:
    """Check every history against the others: (id -> index, each player's result codes,
    each player's opponents by index, -1 for none, each player's colours).  O(N·R): one
    pass over the histories (or the columns given, :class:`HistoryColumns`) and one over
    these lists (a 9,999-player, 40-round field: 400,000 entries).  When a check fails,
    :func:`_explain` walks the histories again to name the first problem."""
    players = t.players
    if t.columns is None:
        if any(len(p.history) != t.rounds for p in players):
            _explain(t)
        index, opps, codes, colours = history_columns(players)
    else:
        opps, codes, colours = t.columns.opponents, t.columns.codes, t.columns.colours
        if not len(opps) == len(codes) == len(colours) == len(players) or any(
            len(row) != t.rounds for rows in (opps, codes, colours) for row in rows
        ):
            raise TieBreakError(f"the rounds given as columns are not {len(players)} players x {t.rounds} rounds")
        index = {p.id: i for i, p in enumerate(players)}
    if len(index) != len(players):
        _explain(t)
    # a bye against nobody; a game against someone else whose line has this game too:
    # checked a round at a time, on the rounds' columns (zip(*rows) transposes in C)
    for col_opp, col_code in zip(zip(*opps, strict=True), zip(*codes, strict=True), strict=True):
        for k, j in enumerate(col_opp):
            if j is None:  # an unknown opponent
                _explain(t)
            if j < 0:
                if col_code[k] not in _BYE:
                    _explain(t)
            elif j == k or col_opp[j] != k or (col_code[k], col_code[j]) not in _MIRRORED:
                _explain(t)
    return index, codes, opps, colours


def _entries(t: TBTournament) -> list[tuple[RoundEntry, ...]]:
    """Each player's history: his own, or made from the columns given (for the rare
    readers that want the entries: an error's message, FB's last round)."""
    if t.columns is None:
        return [p.history for p in t.players]
    ids = [p.id for p in t.players]
    return [
        tuple(RoundEntry(ids[j] if j >= 0 else None, colour, Result(code))
              for j, code, colour in zip(opps, codes, colours, strict=True))
        for opps, codes, colours in zip(t.columns.opponents, t.columns.codes, t.columns.colours, strict=True)
    ]


def _explain(t: TBTournament) -> None:
    """Raise :class:`TieBreakError` naming the first problem :func:`_facts` found."""
    index: dict[int, int] = {}
    for i, p in enumerate(t.players):
        if p.id in index:
            raise TieBreakError(f"player id {p.id} appears twice")
        index[p.id] = i
    histories = _entries(t)
    for p, history in zip(t.players, histories, strict=True):
        if len(history) != t.rounds:
            raise TieBreakError(f"player {p.id} has {len(history)} rounds of history, expected {t.rounds}")
        for r, e in enumerate(history, start=1):
            if e.result._value_ in _BYE:
                if e.opponent is not None:
                    raise TieBreakError(f"player {p.id}, round {r}: a bye ({e.result.value}) has an opponent")
                continue
            if e.opponent is None:
                raise TieBreakError(f"player {p.id}, round {r}: result {e.result.value!r} needs an opponent")
            if e.opponent not in index:
                raise TieBreakError(f"player {p.id}, round {r}: unknown opponent {e.opponent}")
            if e.opponent == p.id:
                raise TieBreakError(f"player {p.id}, round {r}: paired with themself")
    for p, history in zip(t.players, histories, strict=True):
        for r, e in enumerate(history, start=1):
            if e.opponent is None:
                continue
            back = histories[index[e.opponent]][r - 1]
            if back.opponent != p.id or back.result._value_ not in _MIRROR[e.result._value_]:
                raise TieBreakError(
                    f"round {r}: player {p.id} has {e.result.value!r} against {e.opponent}, "
                    f"whose history does not match ({back.result.value!r} against {back.opponent})"
                )
    raise AssertionError("_facts found a problem that _explain does not")  # pragma: no cover
