"""parse_trf: a whole file, every problem listed."""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from ..model import (
    Colour,
    Result,
)
from .data import ROUND_START, ROUND_WIDTH, TrfError, TrfPlayer, TrfTournament
from .fields import (
    _HEADER_FIELDS,
    _EntryPos,
    _parse_162,
    _parse_240,
    _parse_250,
    _parse_260,
    _parse_int_tokens,
    _parse_player,
    _parse_xxe,
    _parse_xxs,
    _point_system,
    _Reader,
    _set_once,
    is_digits,
)
from .ratings import method_of
from .writer import _CONTROL


def parse_trf(text: str, unknown_as_adjourned: bool = False) -> TrfTournament:
    """Read a TRF-16 file (see the module docstring for what is accepted).

    Raises :class:`TrfError` listing every malformed line, with line, column and
    what was expected there, and every inconsistency between players' records.
    Nothing is guessed -- except with ``unknown_as_adjourned``: a result symbol TRF does
    not define, on a board with an opponent and a colour, is read as an adjourned game
    (``?``) and listed in ``TrfTournament.unknown_results`` for the caller to confirm
    (the app's import, VCL4THP Q166).  Both players' symbols must then be unknown or
    ``?``: an unknown symbol facing a known result is still refused.
    """
    rd = _Reader(unknown_as_adjourned)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if text.startswith("\ufeff"):
        lines[0] = lines[0][1:]
    header: dict[str, str] = {}
    deputies: list[str] = []
    players: list[TrfPlayer] = []
    player_lines: dict[int, int] = {}
    pos: dict[tuple[int, int], _EntryPos] = {}
    extra: list[str] = []
    once: dict[str, tuple[object, int]] = {}
    absent: set[int] = set()
    forbidden: set[frozenset[int]] = set()
    point_values: dict[str, tuple[Decimal, int]] = {}
    broken: set[int] = set()  # starting ranks of player lines with problems
    refs: list[tuple[int, int, int]] = []  # player ids named by XXZ/BYE/XXP/FOR lines
    for line_no, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line:
            continue
        control = _CONTROL.search(line)
        if control:
            rd.err(
                line_no,
                control.start() + 1,
                f"expected plain text in fixed columns, found the control character {control.group()!r}",
            )
            continue
        code = line[:3]
        upper = code.upper()
        rest = line[4:] if len(line) > 4 else ""
        if upper == "001":
            pid, p = _parse_player(line, line_no, rd, pos)
            if p is None:
                broken.add(pid)
            else:
                if p.id in player_lines:
                    rd.err(
                        line_no,
                        5,
                        f"expected a new starting rank: {p.id} is already used on line {player_lines[p.id]}",
                    )
                else:
                    player_lines[p.id] = line_no
                    players.append(p)
        elif code in _HEADER_FIELDS:
            _set_once(once, code, rest.strip(), line_no, rd, f"tag {code}")
            header[_HEADER_FIELDS[code]] = rest.strip()
        elif code == "112":
            if rest.strip():
                deputies.append(rest.strip())
        elif upper in ("XXR", "TNR", "142"):
            val = rest.strip()
            if not is_digits(val) or int(val) < 1:
                rd.err(
                    line_no,
                    5,
                    f"expected the number of rounds (a positive whole number) after {code}, found {val!r}",
                )
            else:
                _set_once(once, "rounds", int(val), line_no, rd, "the number of rounds")
        elif upper in ("XXC", "152"):
            val = rest.strip().lower()
            if val in ("white1", "white", "w"):
                _set_once(once, "colour", Colour.WHITE, line_no, rd, "the initial colour")
            elif val in ("black1", "black", "b"):
                _set_once(once, "colour", Colour.BLACK, line_no, rd, "the initial colour")
            else:
                rd.err(
                    line_no,
                    5,
                    f"expected the initial colour (white1 or black1; W or B after 152), found {rest.strip()!r}",
                )
        elif upper in ("XXZ", "BYE"):
            ids = _parse_int_tokens(rest, line_no, 5, rd, "a player id", refs)
            if ids is not None:
                if not ids:
                    rd.err(line_no, 5, f"expected player ids after {code}")
                absent.update(ids)
        elif upper in ("XXP", "FOR"):
            ids = _parse_int_tokens(rest, line_no, 5, rd, "a player id", refs)
            if ids is not None:
                if len(ids) < 2:
                    rd.err(line_no, 5, f"expected at least two player ids after {code}")
                for a, b in combinations(ids, 2):
                    if a == b:
                        rd.err(line_no, 5, f"expected two different players, found {a} twice")
                    else:
                        forbidden.add(frozenset((a, b)))
        elif upper == "XXS":
            _parse_xxs(rest, line_no, rd, point_values)
        elif code == "162":
            _parse_162(line, line_no, rd, point_values)
        elif code == "240":
            _parse_240(line, line_no, rd)
            extra.append(line)
        elif code == "250":
            _parse_250(line, line_no, rd)
            extra.append(line)
        elif code == "260":
            _parse_260(line, line_no, rd)
            extra.append(line)
        elif upper == "XXE":
            _parse_xxe(line, line_no, rd, refs)
            extra.append(line)
        elif code == "172":
            if method_of(line) is None:
                rd.err(line_no, 5, "expected the federation and a rating method (FIDE, NRO, FIDON, NIDOF, HBFN, LBFN "
                                   f"or OTHER) after 172, found {rest.strip()!r}")
            extra.append(line)
        else:
            extra.append(line)

    # consistency between records
    by_id = {p.id: p for p in players}
    known = set(by_id)

    def where(pid: int, rnd: int) -> _EntryPos:
        return pos.get((pid, rnd), _EntryPos(player_lines.get(pid, 0), ROUND_START + (rnd - 1) * ROUND_WIDTH))

    max_rounds = max((len(p.history) for p in players), default=0)
    for rnd in range(1, max_rounds + 1):
        pab = [
            p.id for p in players if len(p.history) >= rnd and p.history[rnd - 1].result is Result.PAIRING_BYE
        ]
        if len(pab) > 1:
            w = where(pab[1], rnd)
            rd.err(
                w.line,
                w.start + 7,
                f"expected at most one pairing-allocated bye in round {rnd}, found players {pab}",
            )
    for p in players:
        for rnd, e in enumerate(p.history, start=1):
            if e.opponent is None:
                continue
            w = where(p.id, rnd)
            if e.opponent == p.id:
                rd.err(
                    w.line,
                    w.start,
                    f"expected an opponent, found the player's own starting rank {p.id} (round {rnd})",
                )
                continue
            opp = by_id.get(e.opponent)
            if opp is None:
                if e.opponent not in broken:
                    rd.err(
                        w.line,
                        w.start,
                        f"expected the starting rank of a player in the file, found {e.opponent} (round {rnd})",
                    )
                continue
            if len(opp.history) < rnd or opp.history[rnd - 1].opponent != p.id:
                back = opp.history[rnd - 1].opponent if len(opp.history) >= rnd else None
                named = f"names {back}" if back is not None else "names no opponent"
                rd.err(
                    w.line,
                    w.start,
                    f"round {rnd}: player {p.id} meets {opp.id}, but {opp.id}'s record (line {player_lines[opp.id]}) {named}",
                )
                continue
            if p.id > opp.id:
                continue  # each pair checked once, from the lower id
            oe = opp.history[rnd - 1]
            unknown = {(line, col): sym for line, col, sym in rd.unknown_results}
            mine, theirs = (w.line, w.start + 7), (where(opp.id, rnd).line, where(opp.id, rnd).start + 7)
            lone = [(at, unknown[at]) for at in (mine, theirs) if at in unknown]
            if oe.result not in e.result.opponent_results and len(lone) == 1:
                (line, col), sym = lone[0]
                other = oe.result.value if lone[0][0] == mine else e.result.value
                rd.err(line, col, f"round {rnd}: expected a result code (1 = 0 W D L + - ? U F H Z) in column {col}, "
                                  f"found {sym!r}; the other player's line says {other!r}")
            elif oe.result not in e.result.opponent_results:
                rd.err(
                    w.line,
                    w.start + 7,
                    f"round {rnd}: results {e.result.value} ({p.id}) and {oe.result.value} ({opp.id}) do not match",
                )
            elif e.colour is not None and oe.colour is not None and e.colour is oe.colour:
                rd.err(
                    w.line,
                    w.start + 5,
                    f"round {rnd}: players {p.id} and {opp.id} both have colour {e.colour.value}",
                )
            elif e.result.is_played and (e.colour is None or oe.colour is None):
                rd.err(w.line, w.start + 5, f"round {rnd}: the game {p.id}-{opp.id} needs colours w and b")
    known |= broken
    for pid, line_no, col in refs:
        if pid not in known:
            rd.err(line_no, col, f"expected the starting rank of a player in the file, found {pid}")
    if rd.problems:
        # the file is refused anyway: every unknown result symbol is listed too
        at = {(pr.line, pr.column) for pr in rd.problems}
        for line, col, sym in rd.unknown_results:
            if (line, col) not in at:
                rd.err(line, col, f"expected a result code (1 = 0 W D L + - ? U F H Z) in column {col}, found {sym!r} "
                                  "(a game with an unknown result on both lines is imported as adjourned)")
        rd.problems.sort(key=lambda pr: (pr.line, pr.column))
        raise TrfError(rd.problems)

    points = _point_system({k: v for k, (v, _) in point_values.items()})
    return TrfTournament(
        name=header.get("name", ""),
        city=header.get("city", ""),
        federation=header.get("federation", ""),
        start_date=header.get("start_date", ""),
        end_date=header.get("end_date", ""),
        chief_arbiter=header.get("chief_arbiter", ""),
        deputies=tuple(deputies),
        time_control=header.get("time_control", ""),
        total_rounds=once["rounds"][0] if "rounds" in once else None,  # type: ignore[arg-type]
        initial_colour=once["colour"][0] if "colour" in once else None,  # type: ignore[arg-type]
        points=points,
        players=tuple(players),
        absent_next=frozenset(absent),
        forbidden=frozenset(forbidden),
        extra_lines=tuple(extra),
        unknown_results=tuple(rd.unknown_results),
    )

