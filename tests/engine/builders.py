"""Small builders for engine snapshots in tests (and for other test helpers).

Two ways to write a history:

* per player, compact strings: ``"3w1 5b= U"`` = round 1 vs player 3 with White, won;
  round 2 vs 5 with Black, drawn; round 3 a pairing-allocated bye.  A token is
  ``<opponent id><w|b><result code>`` for games (result codes of TRF-16: ``1 = 0 W D L
  + -``) and a single letter ``U F H Z`` for a round without opponent.
  :func:`snapshot` takes ``{id: history string}``.

* per round, games: :func:`from_rounds` takes a list of rounds, each a list of
  ``(white, black, "1-0" | "0-1" | "1/2" | "+-" | "-+" | "--")`` tuples and
  ``(player, "U" | "F" | "H" | "Z")`` byes; players not mentioned in a round get ``Z``.

Ids equal TPNs unless ``tpns`` says otherwise; ratings default to 2500 - 10 * id.
"""

from __future__ import annotations

from decimal import Decimal

from pairing.engine.model import (
    Colour,
    Player,
    PointSystem,
    Result,
    RoundEntry,
    Snapshot,
)

_RES = {r.value: r for r in Result}


def parse_history(text: str) -> tuple[RoundEntry, ...]:
    out = []
    for tok in text.split():
        if tok in ("U", "F", "H", "Z"):
            out.append(RoundEntry(None, None, _RES[tok]))
            continue
        opp, col, res = int(tok[:-2]), tok[-2], tok[-1]
        out.append(RoundEntry(opp, Colour.WHITE if col == "w" else Colour.BLACK, _RES[res]))
    return tuple(out)


def snapshot(
    histories: dict[int, str],
    *,
    total_rounds: int = 9,
    ratings: dict[int, int] | None = None,
    tpns: dict[int, int] | None = None,
    absent: set[int] | frozenset[int] = frozenset(),
    forbidden: list[tuple[int, int]] = (),
    initial_colour: Colour = Colour.WHITE,
    points: PointSystem | None = None,
) -> Snapshot:
    """A Snapshot for the round after the given histories (all of equal length)."""
    ratings = ratings or {}
    tpns = tpns or {}
    players = []
    lengths = set()
    for pid, text in histories.items():
        hist = parse_history(text)
        lengths.add(len(hist))
        players.append(
            Player(id=pid, tpn=tpns.get(pid, pid), rating=ratings.get(pid, 2500 - 10 * pid), name=f"P{pid}", history=hist)
        )
    assert len(lengths) <= 1, "all histories must have the same length"
    played = lengths.pop() if lengths else 0
    return Snapshot(
        players=tuple(players),
        round_number=played + 1,
        total_rounds=total_rounds,
        initial_colour=initial_colour,
        points=points or PointSystem(),
        absent=frozenset(absent),
        forbidden=frozenset(frozenset(p) for p in forbidden),
    )


_GAME = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
}


def from_rounds(n: int, rounds: list[list[tuple]], **kwargs) -> Snapshot:
    """Players 1..n; ``rounds`` as described in the module docstring."""
    hist: dict[int, list[str]] = {i: [] for i in range(1, n + 1)}
    for games in rounds:
        seen = set()
        for g in games:
            if len(g) == 2:
                pid, code = g
                hist[pid].append(code)
                seen.add(pid)
                continue
            w, b, res = g
            rw, rb = _GAME[res]
            hist[w].append(f"{b}w{rw}")
            hist[b].append(f"{w}b{rb}")
            seen.update((w, b))
        for pid in hist:
            if pid not in seen:
                hist[pid].append("Z")
    return snapshot({pid: " ".join(h) for pid, h in hist.items()}, **kwargs)


def fresh(n: int, **kwargs) -> Snapshot:
    """Round 1 with players 1..n."""
    return snapshot({i: "" for i in range(1, n + 1)}, **kwargs)


def boards(pairing) -> list[tuple[int, int]]:
    """The boards as (white, black) tuples, in board order."""
    return [(b.white, b.black) for b in pairing.boards]


def D(x) -> Decimal:
    return Decimal(str(x))


def pair_with(snap: Snapshot, changes: dict[int, dict]):
    """Pair ``snap`` with some player figures replaced (e.g. upfloat counts), to test
    a criterion without writing the long history that would produce the figures.
    ``changes`` maps a player id to PlayerState fields to replace."""
    from dataclasses import replace

    from pairing.engine.dubov.pairer import _Round
    from pairing.engine.dubov.state import player_states

    states = player_states(snap)
    for pid, fields in changes.items():
        states[pid] = replace(states[pid], **fields)
    return _Round(snap, states).run()
