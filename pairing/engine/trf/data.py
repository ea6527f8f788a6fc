"""The data a TRF file holds: players, tournament, problems found."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations
from typing import TYPE_CHECKING

from ..model import (
    DUBOV_RULES_YEARS,
    Acceleration,
    Colour,
    DubovRules,
    EngineError,
    InvalidSnapshot,
    Player,
    PointSystem,
    Result,
    RoundEntry,
    Snapshot,
    System,
)

if TYPE_CHECKING:
    from ..acceleration import GroupA

ROUND_START = 92  # column of round 1's opponent field

# TRF-2026 has no record for the text of the tie-break regulations (C.07) the standings
# follow, and the texts rank differently (the 2026 text caps the dummy opponent's score):
# a comment line carries it, written by the app's export and the generator, read by the
# checker and the import.  "### Tie-break regulations (C.07): 2026 text"
TIEBREAK_TEXT_LINE = "### Tie-break regulations (C.07): {year} text"
TIEBREAK_TEXTS = (2023, 2026)

# Who paired which rounds: TRF-2026's 182 names one program for the whole file, so the app's
# export adds one comment line per way the rounds were paired, "### Paired by: Dubov arbiter
# 1.0.0 (FIDE Dubov system, C.04.4.1): rounds 1-4, 6"; the checker shows them and the
# import keeps them.
PAIRED_BY_LINE = "### Paired by: "

# FIDE's Tournament-Type Code Table (192) has one code for the Dubov system, FIDE_DUBOV
# (_BAKU), and no year-versioned one as FIDE_DUTCH_2017 / _2025 / _2026 are: the text of the
# Dubov rules a file was paired by goes in a comment line beside it, written by the app's
# export and the generator, read by the pairing, the checker and the import
# (docs/dubov-1997.md).  "### Dubov system rules (C.04.4.1): 1997 text"; without it, 2025.
DUBOV_RULES_LINE = "### Dubov system rules (C.04.4.1): {year} text"


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
    # (line, column, symbol) of result symbols read as adjourned games (parse_trf's
    # unknown_as_adjourned); empty otherwise
    unknown_results: tuple[tuple[int, int, str], ...] = ()

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
        from .fields import _parse_240  # the record parsers read lines into this module's classes

        return [rec for line in self.extra_lines if line[:3] == "240" and (rec := _parse_240(line, 0))]

    def round_forbidden(self) -> list[tuple[int, int, list[int]]]:
        """TRF-2026 ``260`` records: (first round, last round, player ids), in file order;
        every pair among the ids is forbidden in those rounds."""
        from .fields import _parse_260

        return [rec for line in self.extra_lines if line[:3] == "260" and (rec := _parse_260(line, 0))]

    def acceleration(self) -> tuple[Acceleration, ...]:
        """TRF-2026 ``250`` records as virtual points of the file's players (a record's
        id range covers the starting ranks present in it), in file order."""
        from .fields import _parse_250

        ids = [p.id for p in self.players]
        out = []
        for line in self.extra_lines:
            if line[:3] == "250" and (rec := _parse_250(line, 0)):
                points, r1, r2, p1, p2 = rec
                out.append(Acceleration(points, r1, r2, frozenset(i for i in ids if p1 <= i <= p2)))
        return tuple(out)

    def paired_by(self) -> dict[int, str]:
        """{round: who paired it} from the file's :data:`PAIRED_BY_LINE` lines (the text
        before ``: round(s) ...``); rounds no such line names are left out."""
        out: dict[int, str] = {}
        for line in self.extra_lines:
            if not line.startswith(PAIRED_BY_LINE):
                continue
            who, sep, rounds = line[len(PAIRED_BY_LINE):].rpartition(": round")
            if not sep:
                continue
            for part in rounds.lstrip("s").split(","):
                first, _, last = part.strip().partition("-")
                if first.isdigit() and (not last or last.isdigit()):
                    for k in range(int(first), int(last or first) + 1):
                        out.setdefault(k, who.strip())
        return out

    def tiebreak_text(self) -> int | None:
        """The C.07 text (2023 or 2026) a ``###`` line of the file names
        (:data:`TIEBREAK_TEXT_LINE`), or None without one."""
        head = TIEBREAK_TEXT_LINE.split("{")[0]
        for line in self.extra_lines:
            if line.startswith(head):
                year = line[len(head):].split()[0] if line[len(head):].split() else ""
                if year.isdigit() and int(year) in TIEBREAK_TEXTS:
                    return int(year)
        return None

    def dubov_rules_year(self) -> int | None:
        """The text of the Dubov rules (1997 or 2025) a ``###`` line of the file names
        (:data:`DUBOV_RULES_LINE`), or None without one."""
        head = DUBOV_RULES_LINE.split("{")[0]
        for line in self.extra_lines:
            if line.startswith(head):
                word = line[len(head):].split()[0] if line[len(head):].split() else ""
                if word.isdigit() and int(word) in DUBOV_RULES_YEARS:
                    return int(word)
        return None

    def with_dubov_rules(self, year: int) -> TrfTournament:
        """The same tournament declaring the Dubov rules of ``year`` (its line replaced, or
        added first)."""
        from dataclasses import replace

        head = DUBOV_RULES_LINE.split("{")[0]
        kept = tuple(line for line in self.extra_lines if not line.startswith(head))
        return replace(self, extra_lines=(DUBOV_RULES_LINE.format(year=year), *kept))

    def baku_coded(self) -> bool:
        """Whether the encoded type (192) names Baku acceleration (FIDE_DUBOV_BAKU,
        FIDE_DUTCH_BAKU, ...)."""
        return any(line[:3] == "192" and line[3:].strip().upper().endswith("_BAKU") for line in self.extra_lines)

    def group_a_by_the_rules(self) -> GroupA:
        """Baku's GA as the rules give it from the file (docs/fide-mode.md readings 20-21):
        N counts the players paired in round 1 (as recorded, or for a round 1 still to
        pair, everyone not absent in it); the last GA player is the 2*ceil(N/4)-th of
        them by starting rank, and GA is every starting rank up to his.  O(players)."""
        from ..acceleration import baku_group_a

        order = sorted(p.id for p in self.players)
        return baku_group_a(order, set(order) - self.absent_in(1))

    def rules_acceleration(self) -> tuple[Acceleration, ...]:
        """The ``250`` records the rules give a Baku-accelerated tournament (empty
        without the number of rounds or anyone paired in round 1)."""
        from ..acceleration import baku_acceleration

        if self.total_rounds is None:
            return ()
        return baku_acceleration(self.total_rounds, self.group_a_by_the_rules().players)

    def entry_rounds(self) -> dict[int, int]:
        """{starting rank: round of entry} of the late entries (``XXE`` records): before
        that round the player was not in the tournament and had no pairing number."""
        from .fields import _parse_xxe

        out: dict[int, int] = {}
        for line in self.extra_lines:
            if line[:3].upper() == "XXE" and (rec := _parse_xxe(line, 0)):
                for pid in rec[1]:
                    out.setdefault(pid, rec[0])
        return out

    def numbers_in(self, round_number: int) -> dict[int, int]:
        """{starting rank: pairing number in ``round_number``}: the players in the
        tournament then, in starting-rank order, numbered from 1; the late entries still to
        come after them.  The starting ranks are the pairing numbers at the end; a late
        entry re-slotted among them (C.04.2 2.4) was not there before its round."""
        entered = self.entry_rounds()
        order = sorted(self.players, key=lambda p: (entered.get(p.id, 1) > round_number, p.id))
        return {p.id: i for i, p in enumerate(order, start=1)}

    def rating_method(self) -> str | None:
        """The method of the TRF-2026 ``172`` record (FIDE, NRO, FIDON ...), or None."""
        from .ratings import method_of

        return next((method_of(line) for line in self.extra_lines if line[:3] == "172"), None)

    def national_ratings(self) -> dict[int, int]:
        """{starting rank: national rating} of the NRS records (the first for a player)."""
        from .ratings import is_nrs, nrs_fields

        out: dict[int, int] = {}
        for line in self.extra_lines:
            if is_nrs(line):
                rank, rating, _ident = nrs_fields(line)
                if rating is not None:
                    out.setdefault(rank, rating)
        return out

    def pairing_ratings(self) -> dict[int, int | None]:
        """{starting rank: the rating the pairing uses}: the FIDE rating of the 001 record
        and the NRS rating, combined as the ``172`` record says (see :mod:`.ratings`); None
        for a player without either."""
        from .ratings import rating_by_method

        method, national = self.rating_method(), self.national_ratings()
        return {p.id: rating_by_method(method, p.rating if p.rating and p.rating > 0 else None, national.get(p.id))
                for p in self.players}

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

    def system(self) -> System | None:
        """The pairing system the file names in its encoded type (TRF-2026 ``192``):
        FIDE_DUTCH / FIDE_DUTCH_BAKU (also the bbpPairings spellings FIDE_DUTCH_2025 and
        FIDE_DUTCH_2026), FIDE_DUBOV / FIDE_DUBOV_BAKU or FIDE_BURSTEIN / FIDE_BURSTEIN_BAKU
        (FIDE's Tournament-Type Code Table); None for anything else."""
        for line in self.extra_lines:
            if line[:3] == "192":
                code = line[3:].strip().upper()
                if code.startswith("FIDE_DUTCH"):
                    return System.DUTCH
                if code.startswith("FIDE_DUBOV"):
                    return System.DUBOV
                if code.startswith("FIDE_BURSTEIN"):
                    return System.BURSTEIN
        return None

    def snapshot(self, round_number: int | None = None, *, default_rating: int | None = None,
                 system: System = System.DUBOV, dubov_rules: DubovRules | None = None) -> Snapshot:
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
        ``forbidden`` plus ``260`` records covering the round.  Acceleration: the ``250``
        records; without any, a 192 code naming Baku acceleration (``..._BAKU``) gives the
        virtual points the rules give (:meth:`rules_acceleration`), never none.

        Pairing numbers: :meth:`numbers_in` (a late entry, ``XXE``, has none before its
        round; the numbers below it are those of the rounds it was not in).
        Ratings: :meth:`pairing_ratings` (the 001 FIDE rating, or the NRS rating as tag
        172 says: an unrated player's provisional rating is there).
        ``default_rating`` replaces missing ratings (only for questions that do not
        depend on ratings, such as whether any legal pairing exists); without it a
        missing rating raises :class:`InvalidSnapshot` (Dubov 1.1).  The Dutch system
        pairs without ratings (``system``): a missing one is 0 there.
        ``dubov_rules``: the text of the Dubov rules; default the one the file's ``###``
        line names (:meth:`dubov_rules_year`), else 2025.
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
        absent = self._absent_in(round_number, played)
        players: list[Player] = []
        ratings = self.pairing_ratings()
        numbers = self.numbers_in(round_number)
        for p in self.players:
            rating = ratings[p.id]
            if rating is None and system is not System.DUBOV:
                rating = 0
            elif rating is None:
                if default_rating is None:
                    raise InvalidSnapshot(
                        f"player {p.id} ({p.name or 'no name'}) has no rating; Dubov 1.1 requires "
                        "a (provisional) rating for every player"
                    )
                rating = default_rating
            hist = p.history[: round_number - 1]
            hist = hist + (zero,) * (round_number - 1 - len(hist))
            players.append(Player(id=p.id, tpn=numbers[p.id], rating=rating, name=p.name, history=hist))
        forbidden = set(self.forbidden)
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
            acceleration=self.acceleration() or (self.rules_acceleration() if self.baku_coded() else ()),
            system=system,
            dubov_rules=dubov_rules or DubovRules(year=self.dubov_rules_year() or 2025),
        )

    def absent_in(self, round_number: int) -> frozenset[int]:
        """Ids not paired in ``round_number`` (see :meth:`snapshot`)."""
        return frozenset(self._absent_in(round_number, self.rounds_played()))

    def _absent_in(self, round_number: int, played: int) -> set[int]:
        """Ids not paired in ``round_number``: an ``H``, ``F``, ``Z`` or blank entry
        recorded in it, a missing entry in a played round, a late entry yet to come,
        ``240`` records, and for the next round ``absent_next``."""
        absent: set[int] = set()
        entered = self.entry_rounds()
        for p in self.players:
            if len(p.history) >= round_number:
                e = p.history[round_number - 1]
                if e.opponent is None and e.result in (Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE):
                    absent.add(p.id)
            elif round_number <= played:
                absent.add(p.id)
            if entered.get(p.id, 1) > round_number:
                absent.add(p.id)  # not in the tournament yet
        if round_number == played + 1:
            absent |= self.absent_next
        for _kind, rnd, ids in self.round_byes():
            if rnd == round_number:
                absent |= set(ids)
        return absent

