"""Reading the fields and records of a TRF file, one kind of line at a time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..model import (
    Colour,
    PointSystem,
    Result,
    RoundEntry,
)
from .data import ROUND_START, ROUND_WIDTH, TrfPlayer, TrfProblem

_162_CODES = {
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss",),
    "A": ("zero_bye", "forfeit_loss"),
    "P": ("pairing_bye",),
    "X": (),
}


_HEADER_FIELDS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start_date",
    "052": "end_date",
    "102": "chief_arbiter",
    "122": "time_control",
}


_RESULT_CODES = {r.value: r for r in Result}


_PAIRED_RESULTS = frozenset(
    {
        Result.WIN,
        Result.DRAW,
        Result.LOSS,
        Result.WIN_UNRATED,
        Result.DRAW_UNRATED,
        Result.ADJOURNED,
        Result.LOSS_UNRATED,
        Result.FORFEIT_WIN,
        Result.FORFEIT_LOSS,
    }
)


_XXS_KEYS = {
    "WW": ("win",),
    "BW": ("win",),
    "W": ("win",),
    "WD": ("draw",),
    "BD": ("draw",),
    "D": ("draw",),
    "WL": ("loss",),
    "BL": ("loss",),
    "L": ("loss",),
    "FW": ("forfeit_win",),
    "FL": ("forfeit_loss",),
    "PAB": ("pairing_bye",),
    "FPB": ("full_bye",),
    "HPB": ("half_bye",),
    "ZPB": ("zero_bye",),
}


_POINTS_RE = re.compile(r"^[0-9]{1,4}(\.[0-9]{1,2})?$")


def is_digits(text: str) -> bool:
    """Only 0-9: ``str.isdigit`` also accepts '²', '٣' and '３', which ``int`` refuses
    or reads as another number."""
    return text.isascii() and text.isdigit()


class _Reader:
    def __init__(self, unknown_as_adjourned: bool = False) -> None:
        self.problems: list[TrfProblem] = []
        # a result symbol TRF does not know, on a board with an opponent and a colour, read
        # as an adjourned game (VCL4THP Q166): (line, column, symbol), for the caller to show
        self.unknown_as_adjourned = unknown_as_adjourned
        self.unknown_results: list[tuple[int, int, str]] = []

    def err(self, line: int, column: int, message: str) -> None:
        self.problems.append(TrfProblem(line, column, message))


def _field(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive); short lines give blanks."""
    return line[first - 1 : last]


def _parse_int_tokens(
    text: str,
    line_no: int,
    start_col: int,
    rd: _Reader,
    what: str,
    refs: list[tuple[int, int, int]] | None = None,
) -> list[int] | None:
    """Whitespace-separated positive integers after a keyword; ``refs`` collects
    (value, line, column) of each, for the later check that the players exist."""
    out: list[int] = []
    ok = True
    for m in re.finditer(r"\S+", text):
        tok = m.group()
        if not is_digits(tok) or int(tok) < 1:
            rd.err(
                line_no, start_col + m.start(), f"expected {what} (a positive whole number), found {tok!r}"
            )
            ok = False
        else:
            out.append(int(tok))
            if refs is not None:
                refs.append((int(tok), line_no, start_col + m.start()))
    return out if ok else None


def _parse_xxe(line: str, line_no: int, rd: _Reader | None = None,
               refs: list[tuple[int, int, int]] | None = None) -> tuple[int, list[int]] | None:
    """``XXE r id ...``: the players ``id`` entered the tournament in round ``r`` (late
    entries, r >= 2): (round, ids), or None when malformed (with ``rd``: said)."""
    quiet = rd if rd is not None else _Reader(False)
    rest = line[4:] if len(line) > 4 else ""
    tokens = _parse_int_tokens(rest, line_no, 5, quiet, "a round or a player id")
    if tokens is None:
        return None
    if len(tokens) < 2 or tokens[0] < 2:
        quiet.err(line_no, 5, "expected the round of entry (2 or later) and the starting ranks of the players who "
                              f"entered in it after XXE, found {rest.strip()!r}")
        return None
    if refs is not None:
        for m, tok in zip(list(re.finditer(r"\S+", rest))[1:], tokens[1:], strict=True):
            refs.append((tok, line_no, 5 + m.start()))
    return tokens[0], tokens[1:]


def _parse_240(line: str, line_no: int, rd: _Reader | None = None) -> tuple[str, int, list[int]] | None:
    """TRF-2026 ``240 T RRR id id ...``: (type, round, ids), or None if malformed."""
    kind = _field(line, 5, 5).upper()
    good = True

    def err(col: int, msg: str) -> None:
        nonlocal good
        good = False
        if rd is not None:
            rd.err(line_no, col, msg)

    if kind not in ("F", "H", "Z"):
        err(5, f"expected the bye type F, H or Z, found {kind or 'a blank'!r}")
    rnd = _field(line, 7, 9).strip()
    if not is_digits(rnd) or int(rnd) < 1:
        err(7, f"expected a round number in columns 7-9, found {rnd!r}")
    ids: list[int] = []
    rest = line[10:]
    for m in re.finditer(r"\S+", rest):
        tok = m.group()
        if not is_digits(tok) or int(tok) < 1:
            err(11 + m.start(), f"expected a player id, found {tok!r}")
        else:
            ids.append(int(tok))
    if not ids:
        err(11, "expected at least one player id from column 11")
    if not good:
        return None
    return kind, int(rnd), ids


def _parse_260(line: str, line_no: int, rd: _Reader | None = None) -> tuple[int, int, list[int]] | None:
    """TRF-2026 ``260 R1 R2 id id ...``: (first round, last round, ids), or None."""
    good = True

    def err(col: int, msg: str) -> None:
        nonlocal good
        good = False
        if rd is not None:
            rd.err(line_no, col, msg)

    r1 = _field(line, 5, 7).strip()
    r2 = _field(line, 9, 11).strip()
    if not is_digits(r1):
        err(5, f"expected the first round number in columns 5-7, found {r1!r}")
    if not is_digits(r2):
        err(9, f"expected the last round number in columns 9-11, found {r2!r}")
    ids: list[int] = []
    for m in re.finditer(r"\S+", line[11:]):
        tok = m.group()
        if not is_digits(tok) or int(tok) < 1:
            err(12 + m.start(), f"expected a player id, found {tok!r}")
        else:
            ids.append(int(tok))
    if len(ids) < 2:
        err(13, "expected at least two player ids from column 13")
    if not good:
        return None
    return int(r1), int(r2), ids


def _parse_250(
    line: str, line_no: int, rd: _Reader | None = None
) -> tuple[Decimal, int, int, int, int] | None:
    """TRF-2026 ``250 MMMM GGGG RRF RRL PPPF PPPL`` (accelerated rounds): (virtual
    game points, first round, last round, first player id, last player id), or None.
    Match points (columns 5-8) are for team events: blank or zero here."""
    good = True

    def err(col: int, msg: str) -> None:
        nonlocal good
        good = False
        if rd is not None:
            rd.err(line_no, col, msg)

    match_points = _field(line, 5, 8).strip()
    if match_points and _parse_decimal(match_points) != 0:
        err(5, f"expected blank match points (columns 5-8) in an individual tournament, found {match_points!r}")
    points = _parse_decimal(_field(line, 10, 13))
    if points is None or points <= 0:
        err(10, f"expected the virtual points in columns 10-13 (e.g. ' 1.0'), found {_field(line, 10, 13)!r}")
    values = []
    for first, last, what in ((15, 17, "first round"), (19, 21, "last round"),
                              (23, 26, "first player id"), (28, 31, "last player id")):
        text = _field(line, first, last).strip()
        if not is_digits(text) or int(text) < 1:
            err(first, f"expected the {what} in columns {first}-{last}, found {text!r}")
            values.append(0)
        else:
            values.append(int(text))
    if good and values[0] > values[1]:
        err(15, f"the first round {values[0]} comes after the last round {values[1]}")
    if good and values[2] > values[3]:
        err(23, f"the first player id {values[2]} comes after the last player id {values[3]}")
    if not good or points is None:
        return None
    return points, values[0], values[1], values[2], values[3]


def _parse_decimal(text: str) -> Decimal | None:
    text = text.strip()
    if not _POINTS_RE.match(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - the regex already guards
        return None


@dataclass
class _EntryPos:
    line: int
    start: int  # column of the opponent field


def _parse_round(block: str, line_no: int, col: int, rd: _Reader) -> RoundEntry | None:
    """One 10-column round block starting at column ``col`` (the opponent field)."""
    block = block.ljust(ROUND_WIDTH)
    opp_txt = block[0:4]
    colour_txt = block[5]
    result_txt = block[7]
    for off in (4, 6, 8, 9):
        if block[off] != " ":
            rd.err(
                line_no,
                col + off,
                f"expected a blank in column {col + off}, between the fields of round "
                f"{(col - ROUND_START) // ROUND_WIDTH + 1}, found {block[off]!r} (round blocks are 10 columns "
                "wide from column 92: opponent, colour, result)",
            )
            return None
    opponent: int | None
    if opp_txt.strip() == "":
        opponent = None
    elif is_digits(opp_txt.strip()):
        opponent = int(opp_txt) or None
    else:
        rd.err(
            line_no,
            col,
            f"expected an opponent's starting rank or 0000 in columns {col}-{col + 3}, found {opp_txt!r}",
        )
        return None
    c = colour_txt.lower()
    if c == "w":
        colour: Colour | None = Colour.WHITE
    elif c == "b":
        colour = Colour.BLACK
    elif c in ("-", " "):
        colour = None
    else:
        rd.err(
            line_no, col + 5, f"expected a colour w, b, - or blank in column {col + 5}, found {colour_txt!r}"
        )
        return None
    r = result_txt.upper()
    if r == " ":
        result = Result.ZERO_BYE
    elif r in _RESULT_CODES:
        result = _RESULT_CODES[r]
    elif rd.unknown_as_adjourned and opponent is not None and colour is not None and result_txt.isprintable():
        rd.unknown_results.append((line_no, col + 7, result_txt))
        result = Result.ADJOURNED
    else:
        rd.err(
            line_no,
            col + 7,
            f"expected a result code (1 = 0 W D L + - ? U F H Z or blank) in column {col + 7}, found {result_txt!r}",
        )
        return None
    if opponent is None:
        if result is Result.FORFEIT_WIN:
            result = Result.PAIRING_BYE  # "0000 - +": a pairing-allocated bye
        elif result is Result.FORFEIT_LOSS:
            result = Result.ZERO_BYE  # "0000 - -": absent
        elif not result.is_bye:
            rd.err(
                line_no,
                col + 7,
                f"expected a bye code (U F H Z, blank, or + for a pairing-allocated bye) in column {col + 7}: "
                f"result {result_txt!r} needs an opponent",
            )
            return None
        if colour is not None:
            rd.err(
                line_no, col + 5, f"expected '-' or blank in column {col + 5} for a round without an opponent"
            )
            return None
    else:
        if result not in _PAIRED_RESULTS:
            if result_txt == " ":
                msg = f"expected the result of the game against {opponent} in column {col + 7}, found a blank"
            else:
                msg = (
                    f"expected a game or forfeit result (1 = 0 W D L + - ?) in column {col + 7}, found "
                    f"{result_txt!r}, which is a bye code but the round names opponent {opponent}"
                )
            rd.err(line_no, col + 7, msg)
            return None
        if result.is_played and colour is None:
            rd.err(line_no, col + 5, f"expected the colour w or b in column {col + 5} for a played game")
            return None
    return RoundEntry(opponent, colour, result)


def _parse_player(
    line: str, line_no: int, rd: _Reader, pos: dict[tuple[int, int], _EntryPos]
) -> tuple[int, TrfPlayer | None]:
    """A 001 record: (starting rank or 0 if unreadable, the player or None on problems)."""
    n_before = len(rd.problems)
    id_txt = _field(line, 5, 8)
    pid = 0
    if not is_digits(id_txt.strip()) or not 1 <= int(id_txt) <= 9999:
        rd.err(line_no, 5, f"expected the starting rank (1-9999) in columns 5-8, found {id_txt!r}")
    else:
        pid = int(id_txt)
    if _field(line, 4, 4) not in ("", " "):
        rd.err(line_no, 4, "expected a blank in column 4")
    rating_txt = _field(line, 49, 52).strip()
    rating: int | None = None
    if rating_txt:
        if is_digits(rating_txt):
            rating = int(rating_txt)
        else:
            rd.err(
                line_no,
                49,
                f"expected a rating (digits or blank) in columns 49-52, found {_field(line, 49, 52)!r}",
            )
    points_txt = _field(line, 81, 84)
    points: Decimal | None = None
    if points_txt.strip():
        points = _parse_decimal(points_txt)
        if points is None:
            rd.err(
                line_no, 81, f"expected points like 11.5 (or blank) in columns 81-84, found {points_txt!r}"
            )
    rank_txt = _field(line, 86, 89).strip()
    rank: int | None = None
    if rank_txt:
        if is_digits(rank_txt):
            rank = int(rank_txt)
        else:
            rd.err(
                line_no,
                86,
                f"expected a rank (digits or blank) in columns 86-89, found {_field(line, 86, 89)!r}",
            )
    if _field(line, 90, 91).strip():
        rd.err(line_no, 90, f"expected blanks in columns 90-91, found {_field(line, 90, 91)!r}")
    history: list[RoundEntry] = []
    rounds_txt = line[ROUND_START - 1 :].rstrip()
    k = 0
    while k * ROUND_WIDTH < len(rounds_txt):
        col = ROUND_START + k * ROUND_WIDTH
        block = rounds_txt[k * ROUND_WIDTH : (k + 1) * ROUND_WIDTH]
        entry = _parse_round(block, line_no, col, rd)
        if entry is None:
            break  # the rest of the line is not reliable once a block is malformed
        history.append(entry)
        pos[(pid, k + 1)] = _EntryPos(line_no, col)
        k += 1
    if len(rd.problems) != n_before:
        return pid, None
    return pid, TrfPlayer(
        id=pid,
        sex=_field(line, 10, 10).strip(),
        title=_field(line, 11, 13).strip(),
        name=_field(line, 15, 47).strip(),
        rating=rating,
        federation=_field(line, 54, 56).strip(),
        fide_id=_field(line, 58, 68).strip(),
        birth_date=_field(line, 70, 79).strip(),
        points=points,
        rank=rank,
        history=tuple(history),
    )


def _set_once(
    store: dict[str, tuple[object, int]], key: str, value: object, line_no: int, rd: _Reader, what: str
) -> None:
    if key in store and store[key][0] != value:
        rd.err(
            line_no,
            5,
            f"{what} given twice with different values (line {store[key][1]} says {store[key][0]})",
        )
    else:
        store[key] = (value, line_no)


def _parse_xxs(rest: str, line_no: int, rd: _Reader, values: dict[str, tuple[Decimal, int]]) -> None:
    for m in re.finditer(r"\S+", rest):
        tok = m.group()
        col = 5 + m.start()
        key, sep, val = tok.partition("=")
        key = key.upper()
        if not sep or key not in _XXS_KEYS:
            rd.err(
                line_no,
                col,
                f"expected KEY=value with KEY one of {' '.join(sorted(_XXS_KEYS))}, found {tok!r}",
            )
            continue
        amount = _parse_decimal(val)
        if amount is None:
            rd.err(
                line_no,
                col + len(key) + 1,
                f"expected a number of points like 0.5 after {key}=, found {val!r}",
            )
            continue
        for attr in _XXS_KEYS[key]:
            if attr in values and values[attr][0] != amount:
                rd.err(
                    line_no,
                    col,
                    f"{key}={val} contradicts an earlier value {values[attr][0]} for the {attr.replace('_', ' ')}",
                )
            else:
                values[attr] = (amount, line_no)


def _parse_162(line: str, line_no: int, rd: _Reader, values: dict[str, tuple[Decimal, int]]) -> None:
    col = 6
    found = False
    while col <= len(line.rstrip()):
        code = _field(line, col, col).upper()
        val_txt = _field(line, col + 1, col + 4)
        if code == " " and not val_txt.strip():
            col += 9
            continue
        found = True
        if code not in _162_CODES:
            rd.err(line_no, col, f"expected a result code W, D, L, A, P or X in column {col}, found {code!r}")
        else:
            amount = _parse_decimal(val_txt)
            if amount is None:
                rd.err(
                    line_no,
                    col + 1,
                    f"expected points like 1.0 in columns {col + 1}-{col + 4}, found {val_txt!r}",
                )
            else:
                for attr in _162_CODES[code]:
                    if attr in values and values[attr][0] != amount:
                        rd.err(
                            line_no, col, f"{code} {amount} contradicts an earlier value {values[attr][0]}"
                        )
                    else:
                        values[attr] = (amount, line_no)
        col += 9
    if not found:
        rd.err(line_no, 6, "expected a result code and its points from column 6")


def _point_system(given: dict[str, Decimal]) -> PointSystem:
    """Values left out follow TRF-2026 162: forfeit win, full-point bye and the
    pairing-allocated bye as the win, the half-point bye as the draw; the others keep
    the defaults (draw 0.5, loss, zero-point bye and forfeit loss 0, win 1)."""
    base = PointSystem()
    win = given.get("win", base.win)
    draw = given.get("draw", base.draw)
    derived = {"forfeit_win": win, "full_bye": win, "pairing_bye": win, "half_bye": draw}
    values = {
        name: given.get(name, derived.get(name, getattr(base, name))) for name in base.__dataclass_fields__
    }
    return PointSystem(**values)

