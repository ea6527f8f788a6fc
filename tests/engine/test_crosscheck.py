"""Cross-check: the fast engine against the literal enumerator, round by round.

Random small tournaments (6-16 players, 5-9 rounds, draws, forfeits, requested
byes, absences, withdrawals, late entries, forbidden pairs) are played with the
literal enumerator as the pairer, so that every history is a Dubov history; at
every round ``pair_round`` must give exactly the same pairing (boards, colours,
board order, PAB), or both must raise NoLegalPairing.

Size of the run (environment):

* ``CROSSCHECK_TOURNAMENTS`` seeded tournaments (default 400), starting at
  ``CROSSCHECK_SEED`` (default 0);
* ``CROSSCHECK_EXAMPLES`` hypothesis examples (default 40);
* ``CROSSCHECK_CHAOS`` synthetic snapshots (default 4000): random, non-Dubov
  histories (ids != TPNs, unrated and forfeited games, 3/1/0 points, many
  absolute colour preferences and upfloats), one round compared per snapshot;
* ``CROSSCHECK_UNPLAYED`` snapshots (default 2000) in which nobody has played a
  game (round 1, or only byes and forfeits so far) and many pairs are forbidden:
  brackets where G1 is the top half (2.2.3) and step (a) shifts (D14);
* ``CROSSCHECK_ACCELERATED`` seeded tournaments (default 200) played with Baku
  acceleration (C.04.5.1): virtual points in the scoregroups, upfloats, PAB and board
  order of the first rounds;
* ``CROSSCHECK_REPORT``: a file to which the counts and every disagreement are
  appended as JSON lines.

Run ``pytest tests/engine/test_crosscheck.py -s`` to see the counts.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.engine import NoLegalPairing, pair_round
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import Colour, Player, PointSystem, Result, RoundEntry, Snapshot

from .literal import COVERAGE, literal_pair_round

TOURNAMENTS = int(os.environ.get("CROSSCHECK_TOURNAMENTS", "400"))
SEED = int(os.environ.get("CROSSCHECK_SEED", "0"))
EXAMPLES = int(os.environ.get("CROSSCHECK_EXAMPLES", "40"))
CHAOS = int(os.environ.get("CROSSCHECK_CHAOS", "4000"))
UNPLAYED = int(os.environ.get("CROSSCHECK_UNPLAYED", "2000"))
ACCELERATED = int(os.environ.get("CROSSCHECK_ACCELERATED", "200"))
REPORT = os.environ.get("CROSSCHECK_REPORT")
CHUNKS = 8


def random_config(seed: int) -> GeneratorConfig:
    """A varied small tournament drawn from ``seed``."""
    rng = random.Random(seed)
    players = rng.randint(6, 16)
    return GeneratorConfig(
        players=players,
        # small fields run out of opponents: keep most rounds pairable
        rounds=min(rng.randint(5, 9), max(5, players - 3)),
        seed=seed,
        draw_rate=rng.choice([0.0, 0.2, 0.35, 0.6, 0.9]),
        forfeit_rate=rng.choice([0.0, 0.03, 0.08]),
        bye_rate=rng.choice([0.0, 0.03, 0.08]),
        withdrawal_rate=rng.choice([0.0, 0.02, 0.05]),
        late_entry_rate=rng.choice([0.0, 0.0, 0.1, 0.2]),
        rating_min=rng.choice([1000, 1800]),
        rating_max=rng.choice([2000, 2700]),
        forbidden_pairs=rng.choice([0, 0, 1, 2, 4, 8]),
    )


FOOTBALL = PointSystem(
    win=Decimal(3),
    draw=Decimal(1),
    loss=Decimal(0),
    forfeit_win=Decimal(3),
    forfeit_loss=Decimal(0),
    pairing_bye=Decimal(3),
    full_bye=Decimal(3),
    half_bye=Decimal(1),
    zero_bye=Decimal(0),
)
HALF_PAB = PointSystem(pairing_bye=Decimal("0.5"))  # D8: a U blocks whatever its value
GENEROUS_BYES = PointSystem(half_bye=Decimal(1), zero_bye=Decimal("0.5"))  # D8: H worth a win blocks
_PLAYED = [
    (Result.WIN, Result.LOSS),
    (Result.DRAW, Result.DRAW),
    (Result.LOSS, Result.WIN),
    (Result.WIN_UNRATED, Result.LOSS_UNRATED),
    (Result.DRAW_UNRATED, Result.DRAW_UNRATED),
    (Result.LOSS_UNRATED, Result.WIN_UNRATED),
    # issue 16: an adjourned game (a played draw for colours, meetings and scores until
    # its result comes) and the odd scores ½-0, 0-½, 0-0
    (Result.ADJOURNED, Result.ADJOURNED),
    (Result.DRAW, Result.LOSS),
    (Result.LOSS, Result.DRAW),
    (Result.LOSS, Result.LOSS),
]
_FORFEITS = [
    (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
    (Result.FORFEIT_LOSS, Result.FORFEIT_WIN),
    (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS),
]
_BYES = [Result.PAIRING_BYE, Result.FULL_BYE, Result.HALF_BYE, Result.ZERO_BYE]


def chaotic_snapshot(seed: int) -> Snapshot:
    """A valid snapshot with a random (not Dubov) history, drawn from ``seed``.

    Ids and TPNs differ (TPN a random permutation), ratings may tie, rounds are
    paired at random or roughly by score, colours alternate or are random, some
    games are unrated or forfeited, some rounds are byes; 3/1/0 points one time
    in five, a half-point PAB or byes worth a win one time in five each.  The
    engines must agree on any valid snapshot.
    """
    rng = random.Random(seed)
    # fold: top half v bottom half, many upfloats; ladder: fold where the top
    # always wins, so the bottom keeps the same score and upfloats every round,
    # late in a long tournament (maximum upfloaters tied on C6-C8: C9 decides)
    mode = rng.choice(["random", "score", "score", "fold", "ladder", "ladder"])
    n = rng.randint(6, 16)
    if mode == "ladder":
        total = rng.randint(7, 9)
        rnd = rng.randint(6, total - 1)
    else:
        total = rng.randint(3, 9)  # MaxT = 2 below five rounds
        rnd = rng.randint(2, total)
    ids = rng.sample(range(1, 100), n)
    tpns = rng.sample(range(1, n + 1), n)
    ratings = {i: rng.choice([rng.randint(1000, 2700), 1500]) for i in ids}
    points = rng.choice([FOOTBALL, HALF_PAB, GENEROUS_BYES, PointSystem(), PointSystem()])
    hist: dict[int, list[RoundEntry]] = {i: [] for i in ids}
    met: dict[int, set[int]] = {i: set() for i in ids}
    random_colours = rng.random() < 0.5
    drawish = rng.random() < 0.4  # scores cluster: more upfloater sets tie on C6
    for _ in range(rnd - 1):
        score = {i: sum(points.points(e.result) for e in hist[i]) for i in ids}
        playing = [i for i in ids if rng.random() > 0.12]
        for i in ids:
            if i not in playing:
                bye = Result.ZERO_BYE if mode == "ladder" else rng.choice(_BYES)
                hist[i].append(RoundEntry(None, None, bye))
        if mode == "random":
            rng.shuffle(playing)
        else:
            playing.sort(key=lambda i: -float(score[i]) + rng.random() * 2)
        if mode in ("fold", "ladder"):
            half = len(playing) // 2
            top, bottom = playing[:half], playing[half:][::-1]
            playing = [x for pair in zip(top, bottom, strict=False) for x in pair] + bottom[len(top) :]
        while playing:
            a = playing.pop(0)
            partner = next((b for b in playing if b not in met[a]), None)
            if partner is None:
                hist[a].append(RoundEntry(None, None, rng.choice(_BYES)))
                continue
            playing.remove(partner)
            b = partner
            last_a = next((e.colour for e in reversed(hist[a]) if e.played), None)
            if random_colours or last_a is None:
                white, black = (a, b) if rng.random() < 0.5 else (b, a)
            else:
                white, black = (b, a) if last_a is Colour.WHITE else (a, b)
            if mode == "ladder":
                rw, rb = (Result.WIN, Result.LOSS) if white == a else (Result.LOSS, Result.WIN)
            elif rng.random() < 0.1:
                rw, rb = rng.choice(_FORFEITS)
            elif drawish and rng.random() < 0.7:
                rw, rb = Result.DRAW, Result.DRAW
            else:
                rw, rb = rng.choice(_PLAYED)
            hist[white].append(RoundEntry(black, Colour.WHITE, rw))
            hist[black].append(RoundEntry(white, Colour.BLACK, rb))
            if rw not in (Result.FORFEIT_WIN, Result.FORFEIT_LOSS):
                met[a].add(b)
                met[b].add(a)
    players = tuple(
        Player(id=i, tpn=t, rating=ratings[i], name=f"P{i}", history=tuple(hist[i]))
        for i, t in zip(ids, tpns, strict=True)
    )
    absent = frozenset(i for i in ids if rng.random() < 0.1)
    forbidden = frozenset(frozenset(rng.sample(ids, 2)) for _ in range(rng.choice([0, 0, 1, 3])))
    return Snapshot(
        players=players,
        round_number=rnd,
        total_rounds=total,
        initial_colour=rng.choice([Colour.WHITE, Colour.BLACK]),
        points=points,
        absent=absent,
        forbidden=forbidden,
    )


def unplayed_snapshot(seed: int) -> Snapshot:
    """A valid snapshot in which nobody has played a game, drawn from ``seed``.

    Half of them are round 1; the others have earlier rounds of byes (U F H Z) and
    forfeits (+/-, -/+, -/-) only, so scores differ, brackets take upfloaters and
    every bracket is one where nobody has played (2.2.3: G1 = top half).  Each pair
    is forbidden with a probability of 10-45 %, so that step (a) of 2.2.4 often has
    to shift (u > 0) and D14 (the step-(b) pool after step (a)) decides.  Ids differ
    from TPNs one time in three; some players are absent; any point system.
    """
    rng = random.Random(seed)
    n = rng.randint(4, 14)
    total = rng.randint(3, 9)
    rnd = 1 if rng.random() < 0.5 else rng.randint(2, min(total, 4))
    ids = rng.sample(range(1, 100), n) if rng.random() < 1 / 3 else list(range(1, n + 1))
    tpns = rng.sample(range(1, n + 1), n) if ids[0] != 1 or rng.random() < 0.2 else list(range(1, n + 1))
    points = rng.choice([FOOTBALL, HALF_PAB, GENEROUS_BYES, PointSystem(), PointSystem()])
    hist: dict[int, list[RoundEntry]] = {i: [] for i in ids}
    for _ in range(rnd - 1):
        order = list(ids)
        rng.shuffle(order)
        pab_given = False
        while order:
            a = order.pop()
            if order and rng.random() < 0.6:
                b = order.pop()
                rw, rb = rng.choice(_FORFEITS)
                hist[a].append(RoundEntry(b, Colour.WHITE, rw))
                hist[b].append(RoundEntry(a, Colour.BLACK, rb))
                continue
            bye = rng.choice(_BYES)
            if bye is Result.PAIRING_BYE:
                if pab_given:
                    bye = Result.ZERO_BYE
                pab_given = True
            hist[a].append(RoundEntry(None, None, bye))
    players = tuple(
        Player(id=i, tpn=t, rating=rng.randint(1000, 2700), name=f"P{i}", history=tuple(hist[i]))
        for i, t in zip(ids, tpns, strict=True)
    )
    density = rng.choice([0.1, 0.2, 0.3, 0.45])
    forbidden = frozenset(frozenset((a, b)) for a, b in combinations(ids, 2) if rng.random() < density)
    absent = frozenset(i for i in ids if rng.random() < 0.08)
    return Snapshot(
        players=players,
        round_number=rnd,
        total_rounds=total,
        initial_colour=rng.choice([Colour.WHITE, Colour.BLACK]),
        points=points,
        absent=absent,
        forbidden=forbidden,
    )


def outcome(pairer, snapshot: Snapshot):
    """("pairs", ((white, black), ...), bye) or ("impossible",) or ("error", repr)."""
    try:
        p = pairer(snapshot)
    except NoLegalPairing:
        return ("impossible",)
    except Exception as exc:  # noqa: BLE001 - a crash is a disagreement too
        return ("error", repr(exc))
    return ("pairs", tuple((b.white, b.black) for b in p.boards), p.bye)


def describe(snapshot: Snapshot) -> str:
    """A compact, human-readable dump of a snapshot (enough to rebuild it)."""
    lines = [
        f"round {snapshot.round_number}/{snapshot.total_rounds} initial {snapshot.initial_colour.name}"
        f" absent {sorted(snapshot.absent)} forbidden {sorted(sorted(p) for p in snapshot.forbidden)}"
    ]
    for p in snapshot.players:
        h = " ".join(
            f"{e.opponent or 0}{e.colour.value if e.colour else '-'}{e.result.value}" for e in p.history
        )
        lines.append(f"  {p.id:>3} tpn {p.tpn:>3} {p.rating}  {h}")
    return "\n".join(lines)


@dataclass
class Tally:
    rounds: int = 0
    agreed: int = 0
    impossible: int = 0
    disagreements: list[dict] = field(default_factory=list)

    def pairer(self, label: str):
        """A pairer for the generator that compares both engines and plays the
        literal enumerator's pairing."""

        def pair(snapshot: Snapshot):
            literal = compare_once(self, snapshot, label)
            if literal == ("impossible",):
                raise NoLegalPairing("both engines: no legal pairing")
            return literal_pair_round(snapshot)

        return pair

    def report(self, name: str, quiet: bool = False) -> str:
        TOTAL.rounds += self.rounds
        TOTAL.agreed += self.agreed
        TOTAL.impossible += self.impossible
        TOTAL.disagreements += self.disagreements
        text = (
            f"{name}: {self.rounds} rounds compared, {self.agreed} agreed "
            f"({self.impossible} both NoLegalPairing), {len(self.disagreements)} disagreed"
        )
        if not quiet:
            print(text)
        if REPORT:
            with open(REPORT, "a", encoding="utf-8") as f:
                f.write(
                    json.dumps({"test": name, "rounds": self.rounds, "agreed": self.agreed}, default=str)
                    + "\n"
                )
                for d in self.disagreements:
                    f.write(json.dumps(d, default=str) + "\n")
        return text

    def assert_agreed(self) -> None:
        if self.disagreements:
            d = self.disagreements[0]
            raise AssertionError(
                f"{len(self.disagreements)} of {self.rounds} rounds disagree; first: {d['case']}\n"
                f"literal: {d['literal']}\nfast:    {d['fast']}\n{d['snapshot']}"
            )


TOTAL = Tally()  # every comparison of this test session


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_engine_agrees_with_the_literal_enumerator(chunk: int):
    """Seeded tournaments SEED + i for i = chunk, chunk + CHUNKS, ... < TOURNAMENTS."""
    tally = Tally()
    for i in range(chunk, TOURNAMENTS, CHUNKS):
        config = random_config(SEED + i)
        generate(config, pairer=tally.pairer(f"seed {SEED + i}: {config}"))
    tally.report(f"seeded chunk {chunk}")
    assert tally.rounds > 0 or TOURNAMENTS <= chunk
    tally.assert_agreed()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_engine_agrees_on_accelerated_tournaments(chunk: int):
    """Baku-accelerated tournaments (seeds from 1,000,000 up, so not the ones above):
    both engines read the virtual points only through ``player_states``, so this checks
    that the brackets, upfloaters, PAB and board order built on pairing scores agree."""
    from dataclasses import replace

    tally = Tally()
    for i in range(chunk, ACCELERATED, CHUNKS):
        config = replace(random_config(1_000_000 + SEED + i), baku=True)
        generate(config, pairer=tally.pairer(f"accelerated seed {1_000_000 + SEED + i}: {config}"))
    tally.report(f"accelerated chunk {chunk}")
    assert tally.rounds > 0 or ACCELERATED <= chunk
    tally.assert_agreed()


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(6, 16),
    rounds=st.integers(5, 9),
    seed=st.integers(0, 2**31),
    draw_rate=st.sampled_from([0.0, 0.3, 0.6]),
    bye_rate=st.sampled_from([0.0, 0.05, 0.1]),
    withdrawal_rate=st.sampled_from([0.0, 0.03]),
    late_entry_rate=st.sampled_from([0.0, 0.15]),
    forfeit_rate=st.sampled_from([0.0, 0.05]),
    forbidden_pairs=st.integers(0, 3),
)
def test_fast_engine_agrees_on_hypothesis_tournaments(players, rounds, seed, **rates):
    """The same comparison with hypothesis drawing (and shrinking) the config."""
    tally = Tally()
    config = GeneratorConfig(players=players, rounds=rounds, seed=seed, **rates)
    generate(config, pairer=tally.pairer(str(config)))
    tally.report(f"hypothesis {config}", quiet=True)
    tally.assert_agreed()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_engine_agrees_on_chaotic_snapshots(chunk: int):
    """Synthetic histories reach corners Dubov histories rarely do (maximum
    upfloaters for C8/C9, WWWWBB-like colour runs, ids unlike TPNs, 3/1/0)."""
    tally = Tally()
    for i in range(chunk, CHAOS, CHUNKS):
        snapshot = chaotic_snapshot(SEED + i)
        compare_once(tally, snapshot, f"chaotic_snapshot({SEED + i})")
    tally.report(f"chaotic chunk {chunk}")
    tally.assert_agreed()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_engine_agrees_where_nobody_has_played(chunk: int):
    """Brackets where nobody has played, with many forbidden pairs: G1 is the top
    half (2.2.3), u > 0 is common and the step-(b) pool includes the players moved
    by step (a) (D14); the coverage counts how often that pool changed the result."""
    tally = Tally()
    for i in range(chunk, UNPLAYED, CHUNKS):
        snapshot = unplayed_snapshot(SEED + i)
        compare_once(tally, snapshot, f"unplayed_snapshot({SEED + i})")
    tally.report(f"unplayed chunk {chunk}")
    tally.assert_agreed()


def compare_once(tally: Tally, snapshot: Snapshot, label: str) -> tuple:
    """Pair ``snapshot`` with both engines, record the comparison in ``tally``
    and return the literal enumerator's outcome."""
    literal = outcome(literal_pair_round, snapshot)
    fast = outcome(pair_round, snapshot)
    tally.rounds += 1
    if literal[0] == "error":  # pragma: no cover - the enumerator itself broke
        raise AssertionError(f"literal enumerator failed: {literal[1]}\n{describe(snapshot)}")
    if literal == fast:
        tally.agreed += 1
        tally.impossible += literal == ("impossible",)
    else:
        tally.disagreements.append(
            {"case": label, "literal": literal, "fast": fast, "snapshot": describe(snapshot)}
        )
    return literal


def test_zz_coverage_of_the_rules_exercised():
    """Print the totals and which rules and branches the enumerator exercised."""
    print(
        f"TOTAL: {TOTAL.rounds} rounds compared, {TOTAL.agreed} agreed "
        f"({TOTAL.impossible} both NoLegalPairing), {len(TOTAL.disagreements)} disagreed"
    )
    for name, count in sorted(COVERAGE.items()):
        print(f"{count:9d}  {name}")
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as f:
            f.write(json.dumps({"coverage": dict(COVERAGE)}) + "\n")
