"""Seeded, reproducible random tournaments, for cross-checks and benchmarks.

Two modes:

* :func:`generate` plays a tournament round by round with a real pairer
  (``pairing.engine.pair_round`` by default), so the histories are what a Dubov
  tournament really produces.  Used by the tests (small fields) and by ``-g``.
* :func:`generate_fast` builds a *plausible* history for large fields without
  running the Dubov pairer: each round players are sorted by score and paired
  greedily with a nearby opponent they have not met, colours mostly alternating.
  Used by the benchmarks to obtain a late-round snapshot of 9,999 players in a
  few seconds.  Its pairings are not Dubov pairings; only the snapshot is valid.

Choices (documented here because other code relies on them):

* ids = TPNs.  The players present from round 1 get ids 1..M by rating
  descending (ties broken by the draw order); late entries get ids M+1..N in
  arrival order and keep them as TPNs (appended to the initial ranking list,
  no re-sort).  Before their arrival late entries have ``Z`` rounds and are in
  that round's absences.
* ``reslot_late`` (C.04.2 2026, Art. 2.4: a late entry gets "an appropriate TPN", at
  any time): from the round a late entry arrives, the TPNs of the players who have
  arrived are their places by rating (descending; equal ratings by id, standing in
  for title and name), the players yet to arrive after them by id; ids stay put, so
  a snapshot's ``tpn`` differs from its ``id`` (the TRF writers need them equal:
  write such a round with the players renumbered by TPN).
* ``system``: the pairing system every snapshot names (Dubov by default; the default
  pairer, ``pairing.engine.pair_round``, pairs with it).
* ``points``: the point system (3-1-0, a PAB worth less than a win ...), used for the
  scores and given to every snapshot.
* Withdrawals: from round 2 on, every active player withdraws with probability
  ``withdrawal_rate`` per round; a withdrawn player has ``Z`` from then on and
  stays in the snapshot.
* Requested byes: every active player requests one with probability
  ``bye_rate`` per round, of the kind ``bye_kinds`` says: ``H`` below its first
  share, ``Z`` below its second, else ``F`` (default 60 %, 30 %, 10 %; ``F``
  exercises D8).  Requested byes are absences of that round.  The
  pairing-allocated bye has no rate: it follows from an odd number present.
* Results: a board is forfeited with probability ``forfeit_rate``
  (``double_forfeit_share`` of those, default one in ten, is a double forfeit,
  ``-``/``-``; the rest a forfeit win for either side alike); otherwise, with
  probability ``odd_result_rate``, an odd score over the board (½-0, 0-½ or
  0-0 alike); otherwise it is a draw with
  probability ``draw_rate`` and else decided by the Elo expectation of White
  (``results="fide"``: FIDE's rating table).
* Ratings: drawn uniformly in [``rating_min``, ``rating_max``], or given one per
  player (``ratings``), or a ladder (``rating_step``): ``rating_max`` for the
  first, ``rating_step`` less for each next, plus a normal spread of standard
  deviation ``rating_spread``, never below ``rating_min``.
* Baku acceleration (``baku``): as the app reads C.04.5.1 (docs/fide-mode.md readings
  20-21): once round 1's absences are known, the last GA player is the 2*ceil(N/4)-th of
  the N players paired in round 1 in pairing-number order; GA is everyone at or above
  him by pairing number (a round-1 absentee or a re-slotted late entry ranked above him
  included).  The virtual points go into every snapshot and, by
  :func:`~pairing.engine.trf.from_generated`, into ``250`` records.
* When the pairer raises :class:`NoLegalPairing` the simulated arbiter
  (1.8.3) excuses one of the players named in the error (else a random one)
  with a ``Z`` for that round and pairs again.

Same seed and config => identical output: one ``random.Random(seed)``, never
the global generator, and no iteration over unordered containers that feeds
the generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from pairing.tiebreak_data import expected_hundredths  # FIDE's rating table: pure data

from .acceleration import baku_acceleration, group_a, group_a_last
from .model import (
    Acceleration,
    Colour,
    NoLegalPairing,
    Player,
    PointSystem,
    Result,
    RoundEntry,
    Snapshot,
    System,
)

__all__ = ["GeneratorConfig", "GeneratedTournament", "generate", "generate_fast"]


@dataclass(frozen=True)
class GeneratorConfig:
    players: int
    rounds: int
    seed: int = 0
    draw_rate: float = 0.3
    forfeit_rate: float = 0.02
    bye_rate: float = 0.03  # requested H/Z/F byes per player-round
    bye_kinds: tuple[float, float] = (0.6, 0.9)  # cumulative shares of H, then H+Z (the rest F)
    double_forfeit_share: float = 0.1  # of the forfeited boards
    odd_result_rate: float = 0.0  # per board played: ½-0, 0-½ or 0-0
    rating_step: int | None = None  # a ladder from rating_max instead of uniform ratings
    rating_spread: float = 0.0  # standard deviation added to the ladder
    withdrawal_rate: float = 0.01  # per player-round, from round 2
    late_entry_rate: float = 0.0  # share of players who join after round 1
    rating_min: int = 1000
    rating_max: int = 2700
    initial_colour: Colour | None = None  # None: drawn from the seed
    forbidden_pairs: int = 0
    ratings: tuple[int, ...] | None = None  # one per player, instead of drawing them
    results: str = "elo"  # "elo": logistic expectation; "fide": FIDE's rating table (B.02 8.1.2)
    baku: bool = False  # Baku acceleration (C.04.5.1): GA from the N players paired in round 1 (reading 20)
    points: PointSystem = field(default_factory=PointSystem)
    reslot_late: bool = False  # late entries take their TPN by rating (C.04.2 2.4), see the module's note
    system: System = System.DUBOV  # the system every snapshot names (pair_round dispatches on it)


@dataclass(frozen=True)
class GeneratedTournament:
    players: tuple[Player, ...]  # full histories of every round played
    total_rounds: int
    initial_colour: Colour
    points: PointSystem
    forbidden: frozenset[frozenset[int]]
    absences: tuple[frozenset[int], ...]  # per round: ids not paired in that round
    rounds_played: int = field(default=0)
    acceleration: tuple[Acceleration, ...] = ()
    tpns: tuple[tuple[tuple[int, int], ...], ...] = ()  # per round: (id, TPN) pairs; empty: TPN = id
    system: System = System.DUBOV
    group_a_last: int | None = None  # Baku: the last GA player's id, fixed with round 1

    def tpn_map(self, round_number: int) -> dict[int, int]:
        """id -> TPN when ``round_number`` is paired."""
        if not self.tpns:
            return {p.id: p.tpn for p in self.players}
        return dict(self.tpns[min(round_number, len(self.tpns)) - 1])

    def snapshot(self, round_number: int) -> Snapshot:
        """The tournament before ``round_number`` is paired (histories truncated)."""
        if not 1 <= round_number <= min(self.total_rounds, len(self.absences)):
            raise ValueError(
                f"round {round_number} is not available (absences known for "
                f"{len(self.absences)} rounds of {self.total_rounds})"
            )
        if round_number - 1 > self.rounds_played:
            raise ValueError(f"round {round_number - 1} was not played")
        tpn = self.tpn_map(round_number)
        players = tuple(
            Player(id=p.id, tpn=tpn[p.id], rating=p.rating, name=p.name, history=p.history[: round_number - 1])
            for p in self.players
        )
        return Snapshot(
            players=players,
            round_number=round_number,
            total_rounds=self.total_rounds,
            initial_colour=self.initial_colour,
            points=self.points,
            absent=self.absences[round_number - 1],
            forbidden=self.forbidden,
            acceleration=self._acceleration_in(tpn) if self.tpns else self.acceleration,
            system=self.system,
        )

    def _acceleration_in(self, tpn: dict[int, int]) -> tuple[Acceleration, ...]:
        """Reading 21 with re-slotted numbers: GA is everyone at or above the last GA
        player in this round's numbering."""
        if self.group_a_last is None:
            return self.acceleration
        order = sorted(tpn, key=tpn.__getitem__)
        return baku_acceleration(self.total_rounds, group_a(order, self.group_a_last))


Pairer = Callable[[Snapshot], object]


# ---------------------------------------------------------------- shared set-up


@dataclass
class _Sim:
    """Mutable simulation state shared by both modes."""

    config: GeneratorConfig
    rng: random.Random
    ratings: dict[int, int]
    arrival: dict[int, int]  # id -> first round present
    initial_colour: Colour
    forbidden: frozenset[frozenset[int]]
    histories: dict[int, list[RoundEntry]]
    withdrawn: set[int] = field(default_factory=set)
    absences: list[frozenset[int]] = field(default_factory=list)
    requested: dict[int, Result] = field(default_factory=dict)  # this round's requested byes
    tpns: list[tuple[tuple[int, int], ...]] = field(default_factory=list)  # per round, when re-slotting
    group_a_last: int | None = None  # Baku: fixed by fix_group_a when round 1's absences are known

    @property
    def ids(self) -> list[int]:
        return sorted(self.ratings)

    def tpn_of(self, round_number: int) -> dict[int, int]:
        """id -> TPN for ``round_number``: the id, or (``reslot_late``) the rating order of
        the players who have arrived, those yet to arrive after them."""
        if not self.config.reslot_late:
            return {pid: pid for pid in self.ids}
        here = sorted((p for p in self.ids if self.arrival[p] <= round_number), key=lambda p: (-self.ratings[p], p))
        later = [p for p in self.ids if self.arrival[p] > round_number]
        return {pid: i for i, pid in enumerate(here + later, start=1)}

    def fix_group_a(self, absent: frozenset[int] | set[int]) -> None:
        """Baku (readings 20-21): the last GA player from the players paired in round 1
        (everyone not ``absent``), in round 1's pairing-number order."""
        if self.config.baku:
            tpn = self.tpn_of(1)
            order = sorted(self.ids, key=tpn.__getitem__)
            self.group_a_last = group_a_last(order, set(self.ids) - set(absent))

    def acceleration_in(self, round_number: int) -> tuple[Acceleration, ...]:
        """The virtual points when ``round_number`` is paired: GA is everyone at or above
        the last GA player in that round's pairing-number order (reading 21)."""
        if self.group_a_last is None:
            return ()
        tpn = self.tpn_of(round_number)
        order = sorted(self.ids, key=tpn.__getitem__)
        return baku_acceleration(self.config.rounds, group_a(order, self.group_a_last))

    def decide_absences(self, round_number: int) -> frozenset[int]:
        """Withdrawals and requested byes for ``round_number``; appends to absences."""
        c, rng = self.config, self.rng
        self.requested = {}
        absent: set[int] = set()
        for pid in self.ids:
            if self.arrival[pid] > round_number or pid in self.withdrawn:
                absent.add(pid)
                continue
            if round_number >= 2 and rng.random() < c.withdrawal_rate:
                self.withdrawn.add(pid)
                absent.add(pid)
                continue
            if rng.random() < c.bye_rate:
                x = rng.random()
                half, zero = c.bye_kinds
                self.requested[pid] = (
                    Result.HALF_BYE if x < half else Result.ZERO_BYE if x < zero else Result.FULL_BYE
                )
                absent.add(pid)
        fs = frozenset(absent)
        self.absences.append(fs)
        return fs

    def play(self, white: int, black: int) -> None:
        """Append one board's result to both histories."""
        c, rng = self.config, self.rng
        hw, hb = self.histories[white], self.histories[black]
        if rng.random() < c.forfeit_rate:
            x = rng.random()
            double = c.double_forfeit_share
            if x < double:
                rw, rb = Result.FORFEIT_LOSS, Result.FORFEIT_LOSS
            elif x < double + (1 - double) / 2:
                rw, rb = Result.FORFEIT_WIN, Result.FORFEIT_LOSS
            else:
                rw, rb = Result.FORFEIT_LOSS, Result.FORFEIT_WIN
        elif c.odd_result_rate and rng.random() < c.odd_result_rate:  # no draw at all when 0
            rw, rb = rng.choice([(Result.DRAW, Result.LOSS), (Result.LOSS, Result.DRAW), (Result.LOSS, Result.LOSS)])
        elif c.results == "fide":
            rw, rb = self._fide_result(white, black)
        elif rng.random() < c.draw_rate:
            rw, rb = Result.DRAW, Result.DRAW
        else:
            expected = 1.0 / (1.0 + 10.0 ** ((self.ratings[black] - self.ratings[white]) / 400.0))
            if rng.random() < expected:
                rw, rb = Result.WIN, Result.LOSS
            else:
                rw, rb = Result.LOSS, Result.WIN
        hw.append(RoundEntry(black, Colour.WHITE, rw))
        hb.append(RoundEntry(white, Colour.BLACK, rb))

    def _fide_result(self, white: int, black: int) -> tuple[Result, Result]:
        """A result whose expectation for White is FIDE's rating table (the difference
        capped at 400, B.02 8.1.2): draws at ``draw_rate`` where the expectation allows
        (at most twice the weaker side's share), the rest wins and losses."""
        diff = max(-400, min(400, self.ratings[white] - self.ratings[black]))
        expected = expected_hundredths(diff) / 100
        draw = min(self.config.draw_rate, 2 * min(expected, 1 - expected))
        x = self.rng.random()
        if x < expected - draw / 2:
            return Result.WIN, Result.LOSS
        if x < expected + draw / 2:
            return Result.DRAW, Result.DRAW
        return Result.LOSS, Result.WIN

    def close_round(self, round_number: int, bye: int | None) -> None:
        """Byes and absences of the round just paired."""
        for pid in self.ids:
            h = self.histories[pid]
            if len(h) == round_number:
                continue
            if pid == bye:
                h.append(RoundEntry(None, None, Result.PAIRING_BYE))
            else:
                h.append(RoundEntry(None, None, self.requested.get(pid, Result.ZERO_BYE)))

    def players(self, round_number: int | None = None) -> tuple[Player, ...]:
        tpn = self.tpn_of(round_number or len(self.absences) or 1)
        return tuple(
            Player(
                id=pid,
                tpn=tpn[pid],
                rating=self.ratings[pid],
                name=f"Player {pid}",
                history=tuple(self.histories[pid]),
            )
            for pid in self.ids
        )

    def snapshot(self, round_number: int, absent: frozenset[int]) -> Snapshot:
        if self.config.reslot_late:
            while len(self.tpns) < round_number:
                self.tpns.append(tuple(sorted(self.tpn_of(len(self.tpns) + 1).items())))
        return Snapshot(
            players=self.players(round_number),
            round_number=round_number,
            total_rounds=self.config.rounds,
            initial_colour=self.initial_colour,
            points=self.config.points,
            absent=absent,
            forbidden=self.forbidden,
            acceleration=self.acceleration_in(round_number),
            system=self.config.system,
        )

    def result(self, rounds_played: int) -> GeneratedTournament:
        return GeneratedTournament(
            players=self.players(),
            total_rounds=self.config.rounds,
            initial_colour=self.initial_colour,
            points=self.config.points,
            forbidden=self.forbidden,
            absences=tuple(self.absences),
            rounds_played=rounds_played,
            acceleration=self.acceleration_in(len(self.absences) or 1),
            tpns=tuple(tuple(sorted(self.tpn_of(k).items())) for k in range(1, len(self.absences) + 1))
            if self.config.reslot_late
            else (),
            system=self.config.system,
            group_a_last=self.group_a_last,
        )


def _setup(config: GeneratorConfig) -> _Sim:
    if config.players < 1 or config.rounds < 1:
        raise ValueError("a tournament needs at least one player and one round")
    if config.rating_min < 1 or config.rating_max < config.rating_min:
        raise ValueError("ratings must satisfy 1 <= rating_min <= rating_max")
    rng = random.Random(config.seed)
    n = config.players
    late = round(config.late_entry_rate * n) if config.rounds >= 2 else 0
    late = min(late, n - 1)
    start = n - late
    given = list(config.ratings) if config.ratings is not None else None
    if given is not None and (len(given) != n or min(given) < 1):
        raise ValueError(f"{len(given)} ratings given for {n} players (each at least 1)")
    if config.rating_step is not None and (config.rating_step < 0 or config.rating_spread < 0):
        raise ValueError("the rating step and spread cannot be negative")

    def ladder(k: int) -> int:
        """The k-th rating of the ladder (k from 0)."""
        spread = rng.gauss(0, config.rating_spread) if config.rating_spread else 0.0
        return max(config.rating_min, round(config.rating_max - config.rating_step * k + spread))

    if given is not None:
        drawn = sorted(given[:start], reverse=True)
    elif config.rating_step is not None:
        drawn = sorted((ladder(k) for k in range(start)), reverse=True)
    else:
        drawn = [rng.randint(config.rating_min, config.rating_max) for _ in range(start)]
        drawn.sort(reverse=True)
    ratings = {i + 1: r for i, r in enumerate(drawn)}
    arrival = {i + 1: 1 for i in range(start)}
    late_rounds = sorted(rng.randint(2, config.rounds) for _ in range(late))
    for k, rnd in enumerate(late_rounds):
        pid = start + k + 1
        if given is not None:
            ratings[pid] = given[start + k]
        elif config.rating_step is not None:
            ratings[pid] = ladder(start + k)
        else:
            ratings[pid] = rng.randint(config.rating_min, config.rating_max)
        arrival[pid] = rnd
    colour = config.initial_colour
    if colour is None:
        colour = rng.choice([Colour.WHITE, Colour.BLACK])
    forbidden: set[frozenset[int]] = set()
    if n >= 2:
        tries = 0
        while len(forbidden) < config.forbidden_pairs and tries < 100 * (config.forbidden_pairs + 1):
            tries += 1
            a, b = rng.sample(range(1, n + 1), 2)
            forbidden.add(frozenset((a, b)))
    return _Sim(
        config=config,
        rng=rng,
        ratings=ratings,
        arrival=arrival,
        initial_colour=colour,
        forbidden=frozenset(forbidden),
        histories={pid: [] for pid in ratings},
    )


def _rounds(config: GeneratorConfig, rounds_to_play: int | None) -> int:
    r = config.rounds if rounds_to_play is None else rounds_to_play
    if not 0 <= r <= config.rounds:
        raise ValueError(f"rounds_to_play must be between 0 and {config.rounds}")
    return r


# ---------------------------------------------------------------- Dubov mode


def generate(
    config: GeneratorConfig, pairer: Pairer | None = None, rounds_to_play: int | None = None
) -> GeneratedTournament:
    """Play ``rounds_to_play`` rounds (default: all) with ``pairer``.

    ``pairer(snapshot)`` returns an object with ``.boards`` (each with ``.white``
    and ``.black`` ids) and ``.bye``; default ``pairing.engine.pair_round``.
    The absences of the next round (if any) are decided too, so that
    ``snapshot(rounds_to_play + 1)`` is available.  O(rounds x pairer).
    """
    if pairer is None:
        from . import pair_round

        pairer = pair_round
    sim = _setup(config)
    todo = _rounds(config, rounds_to_play)
    for rnd in range(1, todo + 1):
        absent = set(sim.decide_absences(rnd))
        while True:
            if rnd == 1:
                sim.fix_group_a(absent)  # again if the arbiter excused a player (1.8.3)
            try:
                pairing = pairer(sim.snapshot(rnd, frozenset(absent)))
                break
            except NoLegalPairing as exc:
                # 1.8.3: the arbiter decides; ours excuses one named player.
                present = [p for p in sim.ids if p not in absent]
                named = sorted(p for p in getattr(exc, "players", ()) if p in present)
                if not present:  # pragma: no cover - nobody left to excuse
                    raise
                absent.add(sim.rng.choice(named or present))
        sim.absences[-1] = frozenset(absent)
        for board in pairing.boards:
            sim.play(board.white, board.black)
        sim.close_round(rnd, pairing.bye)
    if todo < config.rounds:
        upcoming = sim.decide_absences(todo + 1)
        if todo == 0:
            sim.fix_group_a(upcoming)  # as it would be fixed when round 1 is paired
    return sim.result(todo)


# ---------------------------------------------------------------- fast mode


def generate_fast(config: GeneratorConfig, rounds_to_play: int | None = None) -> GeneratedTournament:
    """A plausible history for large fields without the Dubov pairer (benchmarks).

    Each round the present players are sorted by score (descending, random
    order within a score) and paired greedily: each unpaired player takes the
    first unpaired player further down the list that is neither a previous
    opponent nor a forbidden partner (almost always a few places away).
    Colours: the player with the lower colour difference gets White, ties
    alternate from the last colour, else random.  A leftover player gets the
    PAB.  About O(rounds x N) in practice.
    """
    sim = _setup(config)
    rng = sim.rng
    todo = _rounds(config, rounds_to_play)
    pts = config.points
    score = {pid: Decimal(0) for pid in sim.ids}
    cd = {pid: 0 for pid in sim.ids}
    last: dict[int, Colour | None] = {pid: None for pid in sim.ids}
    met: dict[int, set[int]] = {pid: set() for pid in sim.ids}
    forbidden = {pid: set() for pid in sim.ids}
    for pair in sim.forbidden:
        a, b = sorted(pair)
        forbidden[a].add(b)
        forbidden[b].add(a)
    for rnd in range(1, todo + 1):
        absent = sim.decide_absences(rnd)
        if rnd == 1:
            sim.fix_group_a(absent)
        present = [pid for pid in sim.ids if pid not in absent]
        keys = {pid: rng.random() for pid in present}
        present.sort(key=lambda p: (-score[p], keys[p]))
        taken = [False] * len(present)
        bye = None
        for i, p in enumerate(present):
            if taken[i]:
                continue
            taken[i] = True
            partner = None
            for j in range(i + 1, len(present)):
                if taken[j]:
                    continue
                q = present[j]
                if q not in met[p] and q not in forbidden[p]:
                    partner = j
                    break
            if partner is None:
                bye = p if bye is None else bye
                if bye != p:
                    absent = absent | {p}
                continue
            taken[partner] = True
            q = present[partner]
            if cd[p] != cd[q]:
                white, black = (p, q) if cd[p] < cd[q] else (q, p)
            elif last[p] is not None and last[p] is not last[q]:
                white, black = (p, q) if last[p] is Colour.BLACK else (q, p)
            else:
                white, black = (p, q) if rng.random() < 0.5 else (q, p)
            sim.play(white, black)
            met[p].add(q)
            met[q].add(p)
            for pid in (white, black):
                e = sim.histories[pid][-1]
                if e.played:
                    cd[pid] += 1 if e.colour is Colour.WHITE else -1
                    last[pid] = e.colour
        sim.absences[-1] = frozenset(absent)
        sim.close_round(rnd, bye)
        for pid in sim.ids:
            score[pid] += pts.points(sim.histories[pid][-1].result)
    if todo < config.rounds:
        upcoming = sim.decide_absences(todo + 1)
        if todo == 0:
            sim.fix_group_a(upcoming)  # as it would be fixed when round 1 is paired
    return sim.result(todo)
