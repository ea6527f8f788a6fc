"""TRF-16 reader and writer (FIDE C.04 Annex 2), with the extension lines that pairing
engines exchange.  Pure Python, no Django.

    parse_trf(text) -> TrfTournament      # raises TrfError listing every problem
    dump_trf(tournament) -> str           # parse_trf(dump_trf(t)) == t
    TrfTournament.snapshot(round) -> Snapshot

Columns are 1-based, as in the specification.  The player record (``001``):

    5-8 starting rank (our player id and TPN), 10 sex, 11-13 title, 15-47 name,
    49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points,
    86-89 rank, then one 10-column block per round from column 92: 92-95 opponent
    (``0000`` or four blanks: none), 97 colour (``w``/``b``; ``-`` or blank: none),
    99 result (``1 = 0 W D L + - U F H Z``; blank is ``Z``; letters in any case).

Tolerated: CRLF or CR line ends, trailing spaces, short lines (a player line that
stops early simply has fewer rounds; a missing round counts as ``Z`` in a round that
has been played), blank lines, ``###`` comment lines, a pairing-allocated bye written
``0000 - +`` (read as ``U``) and an absence written ``0000 - -`` (read as ``Z``).

Tournament lines kept in fields: 012 name, 022 city, 032 federation, 042/052 dates,
102 chief arbiter, 112 deputies (one per line), 122 time control.

Extension lines (other engines' conventions, and the TRF-2026 records):

- ``XXR n``, ``TNR n``, ``142 n``: total number of rounds.
- ``XXC white1`` / ``black1`` (also ``white``, ``black``, ``w``, ``b``), ``152 W`` /
  ``B``: initial colour.  Without one, :meth:`TrfTournament.effective_initial_colour`
  takes, as TRF-2026 (tag 152) says, the colour of the highest ranked player paired in
  round 1 (White before round 1).
- ``XXZ id ...``, ``BYE id ...``: players not to be paired in the next round.
- ``XXP a b``, ``FOR a b ...``: forbidden pairs (every pair among the ids), all rounds.
- ``XXS KEY=value ...``: point system, keys below; ``162``: TRF-2026 point system.
- ``240 T RRR id ...`` (TRF-2026 F/H/Z byes of round RRR) and ``260 R1 R2 id id ...``
  (TRF-2026 prohibited pairings for rounds R1..R2): validated, kept verbatim in
  ``extra_lines`` and applied by :meth:`TrfTournament.snapshot` to the round they name.

``XXS`` keys (values are decimals, e.g. ``0.5``): ``WW``/``BW`` win (must be equal:
the engine has one win value), ``WD``/``BD`` draw, ``WL``/``BL`` loss, ``FW``
forfeit win, ``FL`` forfeit loss, ``PAB`` pairing-allocated bye, ``FPB`` full-point
bye, ``HPB`` half-point bye, ``ZPB`` zero-point bye; also ``W``, ``D``, ``L`` for
both colours.  Keys left out: forfeit win, full-point bye and pairing-allocated bye
take the win value, the half-point bye the draw value, the rest the defaults (win 1,
draw 0.5, loss, forfeit loss and zero-point bye 0), as TRF-2026 162 does.
``162`` codes: ``W`` sets win, forfeit win and full-point bye; ``D`` draw and
half-point bye; ``L`` loss; ``A`` zero-point bye and forfeit loss; ``P`` the
pairing-allocated bye (default: as W); ``X`` (unknown result) is accepted and
ignored.

Every other line (062, 092, 132, ``ACC``, NRS records ...) is kept verbatim, in
order, in ``extra_lines`` and written back after the tournament header.

Consistency checked after reading: unique starting ranks, opponents exist and name
the player back in the same round, played games have opposite colours, the two
results agree (1/0, =/=, W/L, D/D, +/-, -/-), at most one ``U`` per round.

Complexity: O(size of the file).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from itertools import combinations

from .model import (
    Colour,
    EngineError,
    InvalidSnapshot,
    Player,
    PointSystem,
    Result,
    RoundEntry,
    Snapshot,
)

__all__ = [
    "TrfError",
    "TrfPlayer",
    "TrfProblem",
    "TrfTournament",
    "dump_trf",
    "from_generated",
    "parse_trf",
    "tournament_from_snapshot",
]

ROUND_START = 92  # column of round 1's opponent field
ROUND_WIDTH = 10


@dataclass(frozen=True)
class TrfProblem:
    """One malformed spot: 1-based line and column, and what was expected there."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class TrfError(EngineError):
    """The text is not a usable TRF file; ``problems`` lists every problem found."""

    def __init__(self, problems: tuple[TrfProblem, ...] | list[TrfProblem]):
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


@dataclass(frozen=True)
class TrfPlayer:
    id: int  # starting rank, columns 5-8
    sex: str = ""
    title: str = ""
    name: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    points: Decimal | None = None
    rank: int | None = None
    history: tuple[RoundEntry, ...] = ()  # rounds 1.. as written; may be shorter than others


@dataclass(frozen=True)
class TrfTournament:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: str = ""
    end_date: str = ""
    chief_arbiter: str = ""
    deputies: tuple[str, ...] = ()
    time_control: str = ""
    total_rounds: int | None = None
    initial_colour: Colour | None = None
    points: PointSystem = field(default_factory=PointSystem)
    players: tuple[TrfPlayer, ...] = ()
    absent_next: frozenset[int] = frozenset()
    forbidden: frozenset[frozenset[int]] = frozenset()
    extra_lines: tuple[str, ...] = ()

    def rounds_played(self) -> int:
        """The last round that has been played: the last round in which any player has an
        opponent (a game or a forfeit), or, if later, the last round for which every
        player's line has an entry.

        A round without games in which every player is recorded (absent, excused, given a
        bye: all ``0000``, as when the arbiter excused everyone) is a played round, and
        the next round to pair is the one after it.  A round in which only some players
        have an entry (byes written ahead of the pairing, e.g. a requested ``H``) is the
        round to pair: the others are still to be paired in it.
        """
        last = 0
        for p in self.players:
            for k, e in enumerate(p.history, start=1):
                if e.opponent is not None and k > last:
                    last = k
        recorded = min((len(p.history) for p in self.players), default=0)
        return max(last, recorded)

    def round_byes(self) -> list[tuple[str, int, list[int]]]:
        """TRF-2026 ``240`` records: (bye type F/H/Z, round, player ids), in file order."""
        return [rec for line in self.extra_lines if line[:3] == "240" and (rec := _parse_240(line, 0))]

    def round_forbidden(self) -> list[tuple[int, int, list[int]]]:
        """TRF-2026 ``260`` records: (first round, last round, player ids), in file order;
        every pair among the ids is forbidden in those rounds."""
        return [rec for line in self.extra_lines if line[:3] == "260" and (rec := _parse_260(line, 0))]

    def effective_initial_colour(self) -> Colour:
        """``initial_colour`` if the file gives it; otherwise, as TRF-2026 (tag 152)
        says, the colour of the highest ranked player paired in round 1; White when
        round 1 has not been paired."""
        if self.initial_colour is not None:
            return self.initial_colour
        for p in sorted(self.players, key=lambda q: q.id):
            if p.history and p.history[0].opponent is not None and p.history[0].colour is not None:
                return p.history[0].colour
        return Colour.WHITE

    def player(self, player_id: int) -> TrfPlayer:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    def snapshot(self, round_number: int | None = None, *, default_rating: int | None = None) -> Snapshot:
        """The tournament as it stands before ``round_number`` is paired.

        Default round: ``rounds_played() + 1`` (a round whose only entries are byes
        written for some players, e.g. requested half-point byes, is that round; a round
        without games in which every player has an entry has been played).  History = rounds before it;
        a player whose line stops early is ``Z`` (absent) in the missing rounds.
        Absent this round: players with an ``H``, ``F``, ``Z`` or blank entry
        recorded in ``round_number`` (a missing entry counts as ``Z`` only in a round
        that has been played), ``240`` records for that round, and, for the next
        round to pair, ``absent_next`` (``XXZ``/``BYE``).  A recorded ``U`` is
        ignored: the engine chooses the pairing-allocated bye.  Forbidden pairs:
        ``forbidden`` plus ``260`` records covering the round.

        ``default_rating`` replaces missing ratings (only for questions that do not
        depend on ratings, such as whether any legal pairing exists); without it a
        missing rating raises :class:`InvalidSnapshot` (Dubov 1.1).
        """
        played = self.rounds_played()
        if round_number is None:
            round_number = played + 1
        if round_number < 1:
            raise InvalidSnapshot(f"round to pair must be at least 1, got {round_number}")
        if self.total_rounds is None:
            raise InvalidSnapshot(
                "the file does not say how many rounds the tournament has (add 'XXR n' or a 142 line)"
            )
        if round_number > self.total_rounds:
            raise InvalidSnapshot(
                f"round {round_number} is beyond the tournament's {self.total_rounds} rounds"
            )
        if round_number > played + 1:
            raise InvalidSnapshot(
                f"round {round_number} cannot be paired: the file has rounds played up to round {played} only"
            )
        zero = RoundEntry(None, None, Result.ZERO_BYE)
        absent: set[int] = set()
        players: list[Player] = []
        for p in self.players:
            rating = p.rating
            if rating is None or rating <= 0:
                if default_rating is None:
                    raise InvalidSnapshot(
                        f"player {p.id} ({p.name or 'no name'}) has no rating; Dubov 1.1 requires "
                        "a (provisional) rating for every player"
                    )
                rating = default_rating
            hist = p.history[: round_number - 1]
            hist = hist + (zero,) * (round_number - 1 - len(hist))
            if len(p.history) >= round_number:
                e = p.history[round_number - 1]
                if e.opponent is None and e.result in (Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE):
                    absent.add(p.id)
            elif round_number <= played:
                absent.add(p.id)
            players.append(Player(id=p.id, tpn=p.id, rating=rating, name=p.name, history=hist))
        if round_number == played + 1:
            absent |= self.absent_next
        forbidden = set(self.forbidden)
        for _kind, rnd, ids in self.round_byes():
            if rnd == round_number:
                absent |= set(ids)
        for first, last, ids in self.round_forbidden():
            if first <= round_number <= last:
                forbidden |= {frozenset(c) for c in combinations(ids, 2)}
        return Snapshot(
            players=tuple(players),
            round_number=round_number,
            total_rounds=self.total_rounds,
            initial_colour=self.effective_initial_colour(),
            points=self.points,
            absent=frozenset(absent),
            forbidden=frozenset(forbidden),
        )


# ---------------------------------------------------------------- reading

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
_162_CODES = {
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss",),
    "A": ("zero_bye", "forfeit_loss"),
    "P": ("pairing_bye",),
    "X": (),
}
_POINTS_RE = re.compile(r"^\d{1,4}(\.\d{1,2})?$")


class _Reader:
    def __init__(self) -> None:
        self.problems: list[TrfProblem] = []

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
        if not tok.isdigit() or int(tok) < 1:
            rd.err(
                line_no, start_col + m.start(), f"expected {what} (a positive whole number), found {tok!r}"
            )
            ok = False
        else:
            out.append(int(tok))
            if refs is not None:
                refs.append((int(tok), line_no, start_col + m.start()))
    return out if ok else None


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
    if not rnd.isdigit() or int(rnd) < 1:
        err(7, f"expected a round number in columns 7-9, found {rnd!r}")
    ids: list[int] = []
    rest = line[10:]
    for m in re.finditer(r"\S+", rest):
        tok = m.group()
        if not tok.isdigit() or int(tok) < 1:
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
    if not r1.isdigit():
        err(5, f"expected the first round number in columns 5-7, found {r1!r}")
    if not r2.isdigit():
        err(9, f"expected the last round number in columns 9-11, found {r2!r}")
    ids: list[int] = []
    for m in re.finditer(r"\S+", line[11:]):
        tok = m.group()
        if not tok.isdigit() or int(tok) < 1:
            err(12 + m.start(), f"expected a player id, found {tok!r}")
        else:
            ids.append(int(tok))
    if len(ids) < 2:
        err(13, "expected at least two player ids from column 13")
    if not good:
        return None
    return int(r1), int(r2), ids


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
    elif opp_txt.strip().isdigit():
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
    else:
        rd.err(
            line_no,
            col + 7,
            f"expected a result code (1 = 0 W D L + - U F H Z or blank) in column {col + 7}, found {result_txt!r}",
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
                    f"expected a game or forfeit result (1 = 0 W D L + -) in column {col + 7}, found "
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
    if not id_txt.strip().isdigit() or not 1 <= int(id_txt) <= 9999:
        rd.err(line_no, 5, f"expected the starting rank (1-9999) in columns 5-8, found {id_txt!r}")
    else:
        pid = int(id_txt)
    if _field(line, 4, 4) not in ("", " "):
        rd.err(line_no, 4, "expected a blank in column 4")
    rating_txt = _field(line, 49, 52).strip()
    rating: int | None = None
    if rating_txt:
        if rating_txt.isdigit():
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
        if rank_txt.isdigit():
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


def parse_trf(text: str) -> TrfTournament:
    """Read a TRF-16 file (see the module docstring for what is accepted).

    Raises :class:`TrfError` listing every malformed line, with line, column and
    what was expected there, and every inconsistency between players' records.
    Nothing is guessed.
    """
    rd = _Reader()
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
            if not val.isdigit() or int(val) < 1:
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
        elif code == "260":
            _parse_260(line, line_no, rd)
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
            if oe.result not in e.result.opponent_results:
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
    )


# ---------------------------------------------------------------- writing


def _fmt_points(value: Decimal) -> str:
    """Points in the ``11.5`` style of columns 81-84; ``215`` rather than ``215.0`` when
    one decimal would not fit."""
    if value == value.quantize(Decimal("0.1")):
        text = format(value.quantize(Decimal("0.1")), "f")
        if len(text) <= 4:
            return text
    return format(value.normalize(), "f")


def _fmt_round(e: RoundEntry) -> str:
    opp = f"{e.opponent:4d}" if e.opponent is not None else "0000"
    colour = e.colour.value if e.colour is not None else "-"
    return f"{opp} {colour} {e.result.value}"


def _player_line(p: TrfPlayer) -> str:
    def put(buf: list[str], first: int, text: str, width: int, right: bool = False) -> None:
        text = text[:width]
        text = text.rjust(width) if right else text.ljust(width)
        buf[first - 1 : first - 1 + width] = list(text)

    buf = [" "] * 91
    put(buf, 1, "001", 3)
    put(buf, 5, str(p.id), 4, right=True)
    put(buf, 10, p.sex, 1)
    put(buf, 11, p.title, 3)
    put(buf, 15, p.name, 33)
    put(buf, 49, "" if p.rating is None else str(p.rating), 4, right=True)
    put(buf, 54, p.federation, 3)
    put(buf, 58, p.fide_id, 11, right=True)
    put(buf, 70, p.birth_date, 10)
    put(buf, 81, "" if p.points is None else _fmt_points(p.points), 4, right=True)
    put(buf, 86, "" if p.rank is None else str(p.rank), 4, right=True)
    line = "".join(buf)
    for e in p.history:
        line += _fmt_round(e) + "  "
    return line.rstrip()


def _fmt_decimal(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text


def bye_record(kind: str, round_number: int, ids: Iterable[int]) -> str:
    """A TRF-2026 ``240`` record: requested bye ``kind`` (F, H or Z) in ``round_number``
    for the players ``ids`` (for ``extra_lines``; read back by :meth:`TrfTournament.round_byes`)."""
    if kind not in ("F", "H", "Z"):
        raise ValueError(f"bye type must be F, H or Z, not {kind!r}")
    return f"240 {kind} {round_number:3d} " + " ".join(f"{i:4d}" for i in sorted(ids))


def dump_trf(t: TrfTournament) -> str:
    """Write ``t`` as TRF-16 text with ``\\n`` line ends (CR is optional in practice).

    Order: header tags, the other lines kept verbatim, players by starting rank, then
    ``XXR``, ``XXC``, ``XXS`` (always, all keys), ``XXP`` (one per pair), ``XXZ``.
    Text longer than its columns (a name over 33 characters) is cut to fit.
    """
    out: list[str] = []
    for code, attr in (
        ("012", "name"),
        ("022", "city"),
        ("032", "federation"),
        ("042", "start_date"),
        ("052", "end_date"),
        ("102", "chief_arbiter"),
    ):
        value = getattr(t, attr)
        if value:
            out.append(f"{code} {value}")
    for d in t.deputies:
        out.append(f"112 {d}")
    if t.time_control:
        out.append(f"122 {t.time_control}")
    out.extend(t.extra_lines)
    for p in sorted(t.players, key=lambda q: q.id):
        out.append(_player_line(p))
    if t.total_rounds is not None:
        out.append(f"XXR {t.total_rounds}")
    if t.initial_colour is not None:
        out.append("XXC " + ("white1" if t.initial_colour is Colour.WHITE else "black1"))
    ps = t.points
    out.append(
        "XXS "
        + " ".join(
            f"{k}={_fmt_decimal(v)}"
            for k, v in (
                ("WW", ps.win),
                ("BW", ps.win),
                ("WD", ps.draw),
                ("BD", ps.draw),
                ("WL", ps.loss),
                ("BL", ps.loss),
                ("ZPB", ps.zero_bye),
                ("HPB", ps.half_bye),
                ("FPB", ps.full_bye),
                ("PAB", ps.pairing_bye),
                ("FW", ps.forfeit_win),
                ("FL", ps.forfeit_loss),
            )
        )
    )
    for pair in sorted(tuple(sorted(x)) for x in t.forbidden):
        out.append(f"XXP {pair[0]} {pair[1]}")
    if t.absent_next:
        out.append("XXZ " + " ".join(str(i) for i in sorted(t.absent_next)))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- from engine data


def _standings(players: tuple[Player, ...], points: PointSystem) -> tuple[dict[int, Decimal], dict[int, int]]:
    """Scores, and a rank by score then starting rank (no tie-breaks: not the engine's job)."""
    scores = {p.id: sum((points.points(e.result) for e in p.history), Decimal(0)) for p in players}
    order = sorted(players, key=lambda p: (-scores[p.id], p.tpn))
    return scores, {p.id: i for i, p in enumerate(order, start=1)}


def tournament_from_snapshot(
    snapshot: Snapshot,
    *,
    name: str = "",
    include_absent: bool = True,
) -> TrfTournament:
    """A TRF view of ``snapshot``: history up to the round before ``round_number``,
    ``absent`` as ``XXZ``.  Starting ranks are the players' ids; the TPN must equal
    the id (TRF-16 has one number per player) or :class:`InvalidSnapshot` is raised."""
    for p in snapshot.players:
        if p.tpn != p.id:
            raise InvalidSnapshot(
                f"player {p.id} has TPN {p.tpn}; TRF-16 needs the starting rank to be the id"
            )
    scores, ranks = _standings(snapshot.players, snapshot.points)
    players = tuple(
        TrfPlayer(
            id=p.id,
            name=p.name,
            rating=p.rating,
            points=scores[p.id],
            rank=ranks[p.id],
            history=p.history,
        )
        for p in sorted(snapshot.players, key=lambda q: q.id)
    )
    return TrfTournament(
        name=name,
        total_rounds=snapshot.total_rounds,
        initial_colour=snapshot.initial_colour,
        points=snapshot.points,
        players=players,
        absent_next=snapshot.absent if include_absent else frozenset(),
        forbidden=snapshot.forbidden,
    )


def from_generated(generated, *, name: str = "") -> TrfTournament:
    """TRF for a :mod:`pairing.engine.generator` tournament: every round it played,
    with ``XXR``, ``XXC``, ``XXS``, forbidden pairs, and (when fewer rounds were played
    than declared) the next round's absences as ``XXZ``.  Works on anything with the
    GeneratedTournament attributes (players, total_rounds, initial_colour, points,
    forbidden, absences, rounds_played)."""
    players_src: tuple[Player, ...] = tuple(generated.players)
    for p in players_src:
        if p.tpn != p.id:
            raise InvalidSnapshot(
                f"player {p.id} has TPN {p.tpn}; TRF-16 needs the starting rank to be the id"
            )
    scores, ranks = _standings(players_src, generated.points)
    players = tuple(
        TrfPlayer(
            id=p.id,
            name=p.name,
            rating=p.rating,
            points=scores[p.id],
            rank=ranks[p.id],
            history=p.history,
        )
        for p in sorted(players_src, key=lambda q: q.id)
    )
    return TrfTournament(
        name=name,
        total_rounds=generated.total_rounds,
        initial_colour=generated.initial_colour,
        points=generated.points,
        players=players,
        forbidden=frozenset(generated.forbidden),
        absent_next=_next_absences(generated),
    )


def _next_absences(generated) -> frozenset[int]:
    played = getattr(generated, "rounds_played", None)
    absences = tuple(getattr(generated, "absences", ()))
    if played is None or played >= generated.total_rounds or len(absences) <= played:
        return frozenset()
    return frozenset(absences[played])
