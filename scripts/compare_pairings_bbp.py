"""Compare our Dutch pairings with bbpPairings v6.0.0 (the reference for the 2026 text),
round by round, both ways; where the two differ, Gacrux's Dutch engine says which one it
agrees with.  Issue 34's campaign: the figures go into docs/validation.md.

Not part of the test suite.  The programs are fetched and built outside the repository
and named on the command line (paths in the helper's notes)::

    # (a) bbpPairings' generator through ours: tournaments n = 0..499 of seed 1
    nice -n 10 python scripts/compare_pairings_bbp.py --bbp BBP --gacrux DIR --gacrux-python PY \\
        --way theirs --seed 1 --start 0 --count 500 --json theirs-1-0.json --keep /tmp/bbp-diff
    # (b) our generator's tournaments through bbpPairings
    ... --way ours --seed 1 --start 0 --count 500 --json ours-1-0.json
    # runs over ranges add up
    python scripts/compare_pairings_bbp.py --merge theirs-1-*.json

``--way theirs``: bbpPairings' generator (``--dutch -g CFG -s SEED``), its options drawn
from (seed, n): 9-200 players (half of the tournaments 9-60), 5-11 rounds, draw
percentage 10-40, forfeit and half-point bye rates (1 in 5-40, or none), retirements,
sometimes 3-1-0 scoring or a PAB worth less than a win.  For every round k the file is
cut before round k (scripts/dutch_oracles.py: ``cut``) and paired by the subject; the
file's own round k is bbpPairings' pairing (its generator pairs with ``-p``'s engine:
``--recheck`` runs ``-p`` on every cut file and counts the rounds where the two differ,
otherwise ``-p`` runs only where the subject differs from the file).

``--way ours``: our generator (pairing/engine/generator.py) with what bbpPairings'
generator lacks: forbidden pairs, late entries (TPNs re-slotted by rating in half of
the tournaments), withdrawals, requested H/Z/F byes, Baku acceleration, 3-1-0 scoring, a
PAB worth less than a win, fields of 2-8 players (a quarter of the tournaments, with
as many rounds as can be paired: near-unpairable last rounds), up to 200 players.  The
subject pairs every round as the generator plays it (where it fails, bbpPairings' round is
played instead, so that no tournament degenerates); each round's file (players numbered
by that round's TPNs) is paired by bbpPairings too.

``--subject``: the program under test: ``ours`` (our engine's ``--dutch -p``), or, to
test this harness, ``gacrux`` (bbpPairings against Gacrux) or ``bbp`` (against itself),
or ``literal`` (tests/engine/dutch_literal.py, fields of up to 12 players: ``--small``
gives 2-12 players with our generator and 9-12 with bbpPairings').

Every round counts as identical, or as a difference of one kind (pairs, or colours
only), classified by Gacrux: "bbp and Gacrux agree against the subject" (with our
engine: our error, to fix), "Gacrux agrees with the subject" (bbpPairings and Gacrux
disagree: a reading to argue from the articles; a PAB that bbpPairings gives to a
player [C2] bars is named so), "all three differ".  ``--keep DIR`` keeps each differing
round's file; ``--json`` writes the tallies and every differing round (file, kind, the
pairings) so that runs over ranges add up (``--merge``).  Tournament n is drawn from
(seed, n) alone, whatever ``--start``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine.generator import GeneratorConfig, generate  # noqa: E402
from pairing.engine.model import Board, NoLegalPairing, Player, PointSystem, Snapshot  # noqa: E402
from pairing.engine.trf.writer import dump_trf, tournament_from_snapshot  # noqa: E402
from scripts.dutch_oracles import (  # noqa: E402
    Bbp,
    Gacrux,
    LiteralEnumerator,
    NoPairing,
    OracleFailed,
    Ours,
    Round,
    cut,
    file_round,
    points_of,
    records,
    rounds_in,
)

# ---------------------------------------------------------------- the tournaments


def bbp_options(rng: random.Random) -> dict[str, object]:
    """bbpPairings' generator options for one tournament (a fixed number of draws)."""
    small = rng.random() < 0.5
    players = rng.randint(9, 60) if small else rng.randint(61, 200)
    cfg: dict[str, object] = {
        "PlayersNumber": players,
        "RoundsNumber": rng.randint(5, 11),
        "DrawPercentage": rng.randint(10, 40),
    }
    forfeit, half, retired, scoring = rng.random(), rng.random(), rng.random(), rng.random()
    rates = rng.randint(5, 40), rng.randint(5, 40), rng.randint(10, 60)
    if forfeit < 0.7:
        cfg["ForfeitRate"] = rates[0]
    if half < 0.7:
        cfg["HalfPointByeRate"] = rates[1]
    if retired < 0.3:
        cfg["RetiredRate"] = rates[2]
    if scoring < 0.1:
        cfg.update(PointsForWin="3.0", PointsForDraw="1.0")
    elif scoring < 0.2:
        cfg["PointsForPAB"] = "0.5"
    return cfg


THREE_ONE = PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3), pairing_bye=Decimal(3),
                        full_bye=Decimal(3), half_bye=Decimal(1))
HALF_PAB = PointSystem(pairing_bye=Decimal("0.5"))


def our_options(rng: random.Random, n: int) -> GeneratorConfig:
    """Our generator's options for tournament ``n`` (a fixed number of draws)."""
    draws = [rng.random() for _ in range(8)]
    seed = rng.randrange(1, 10**9)
    if draws[0] < 0.25:  # tiny fields, every round that can be paired
        players = rng.randint(2, 8)
        rounds = max(1, players - 1 - (draws[1] < 0.5))
    else:
        players = rng.randint(9, 60) if draws[1] < 0.6 else rng.randint(61, 200)
        rounds = rng.randint(5, 11)
    points = THREE_ONE if draws[2] < 0.15 else HALF_PAB if draws[2] < 0.25 else PointSystem()
    return GeneratorConfig(
        players=players,
        rounds=rounds,
        seed=seed,
        draw_rate=0.1 + 0.3 * draws[3],
        forfeit_rate=0.04 * draws[4],
        bye_rate=0.06 * draws[5],
        withdrawal_rate=0.02 * draws[6],
        late_entry_rate=0.15 if draws[7] < 0.4 else 0.0,
        reslot_late=draws[7] < 0.2,
        forbidden_pairs=rng.randint(0, max(1, players // 10)) if rng.random() < 0.5 else 0,
        baku=players >= 8 and rng.random() < 0.2,
        points=points,
    )


def snapshot_trf(snapshot: Snapshot) -> tuple[str, dict[int, int]]:
    """The file before ``snapshot.round_number`` with the players numbered by their TPNs
    (TRF has one number per player), and the map back from that number to the id."""
    to_tpn = {p.id: p.tpn for p in snapshot.players}

    def entry(e):
        return replace(e, opponent=to_tpn[e.opponent]) if e.opponent is not None else e

    renumbered = replace(
        snapshot,
        players=tuple(Player(id=p.tpn, tpn=p.tpn, rating=p.rating, name=p.name or f"Player {p.id}",
                             history=tuple(entry(e) for e in p.history)) for p in snapshot.players),
        absent=frozenset(to_tpn[i] for i in snapshot.absent),
        forbidden=frozenset(frozenset(to_tpn[i] for i in pair) for pair in snapshot.forbidden),
        acceleration=tuple(replace(a, players=frozenset(to_tpn[i] for i in a.players if i in to_tpn))
                           for a in snapshot.acceleration),
    )
    text = dump_trf(tournament_from_snapshot(renumbered))
    return cut(text, snapshot.round_number, snapshot.total_rounds), {t: i for i, t in to_tpn.items()}


# ---------------------------------------------------------------- one round


def c2_barred(text: str, player: int | None) -> bool:
    """Whether [C2] (Basic Rules 4, 2026) bars ``player`` from the PAB in the cut file:
    a PAB before, or a round scored as a win without playing (forfeit win, F bye)."""
    if player is None:
        return False
    pts = points_of(text)
    line = records(text).get(player, "")
    for k in range(1, rounds_in(text) + 1):
        b = line[91 + 10 * (k - 1):99 + 10 * (k - 1)].ljust(8)
        code = b[7].upper()
        if code == "U" or (code == "+" and b[0:4].strip() in ("", "0000")):
            return True
        if code in ("+", "F") and pts.of(b) >= pts.win:
            return True
    return False


def compare(cut_text: str, path: Path, reference: Round | None, subject, bbp: Bbp, gacrux: Gacrux | None,
            tally: Counter, recheck: bool) -> tuple[str, dict, Round | str, Round | str]:
    """One round: the kind of result, what the programs said, the subject's answer and
    bbpPairings'."""
    said: dict[str, str] = {}

    def ask(program, name) -> Round | str:
        try:
            answer = program.pair(path)
        except NoPairing:
            answer = "no pairing"
        except OracleFailed as exc:
            answer = f"failed: {exc}"
        said[name] = answer.text() if isinstance(answer, Round) else answer
        return answer

    mine = ask(subject, "subject")
    if reference is None or recheck or mine != reference:
        theirs = ask(bbp, "bbp")
        if reference is not None and theirs != reference:
            tally["bbp -p differs from its generator's round"] += 1
            said["bbp generator"] = reference.text()  # kept with the round, identical or not
        reference = theirs if isinstance(theirs, Round) or reference is None else reference
    said["bbp"] = reference.text() if isinstance(reference, Round) else str(reference)
    kind = _kind(cut_text, reference, mine, gacrux, ask, path)
    return kind, said, mine, reference


def _kind(cut_text: str, reference, mine, gacrux, ask, path) -> str:
    if mine == reference:
        return "identical"
    if not isinstance(reference, Round):
        return f"bbp: {reference}"
    if not isinstance(mine, Round):
        return f"subject: {mine.split(':')[0]}; bbp pairs"
    shape = "colours only" if mine.same_pairs(reference) else "pairs"
    if c2_barred(cut_text, reference.bye):
        return f"{shape}; bbp gives the PAB to a player [C2] bars"
    if gacrux is None:
        return f"{shape}; Gacrux not run"
    third = ask(gacrux, "gacrux")
    if third == reference:
        return f"{shape}; bbp and Gacrux agree against the subject"
    if third == mine:
        return f"{shape}; Gacrux agrees with the subject (bbp and Gacrux disagree)"
    return f"{shape}; all three differ"


# ---------------------------------------------------------------- one tournament


def one_of_theirs(n: int, args, programs) -> tuple[Counter, list[dict]]:
    subject, bbp, gacrux = programs
    rng = random.Random(args.seed * 1_000_003 + n)
    options = bbp_options(rng)
    if args.small:
        options["PlayersNumber"] = 9 + n % 4
        options["RoundsNumber"] = min(int(options["RoundsNumber"]), 7 + n % 4)  # its generator gives up beyond
    work = Path(tempfile.mkdtemp(prefix="bbp-"))
    tally, kept = Counter(), []
    try:
        path = work / f"t{n:06d}.trf"
        for attempt in range(5):  # its generator sometimes meets a round it cannot pair
            try:
                text = bbp.generate(options, rng.randrange(1, 2**31) if attempt else args.seed * 100_000 + n, path)
                break
            except OracleFailed:
                tally["bbp generator failed (another seed tried)"] += 1
        else:
            tally["bbp generator gave no tournament"] += 1
            return tally, kept
        total = int(options["RoundsNumber"])
        for k in range(1, rounds_in(text) + 1):
            cut_text = cut(text, k, total)
            view = work / f"t{n:06d}-r{k}.trf"
            view.write_text(cut_text)
            kind, said, _, _ = compare(cut_text, view, file_round(text, k), subject, bbp, gacrux, tally, args.recheck)
            _count(tally, kept, kind, said, view, args, n, k)
        tally["tournaments"] += 1
        return tally, kept
    finally:
        shutil.rmtree(work, ignore_errors=True)


def one_of_ours(n: int, args, programs) -> tuple[Counter, list[dict]]:
    subject, bbp, gacrux = programs
    rng = random.Random(args.seed * 1_000_003 + n)
    config = our_options(rng, n)
    if args.small:
        config = replace(config, players=2 + config.players % 11, rounds=min(config.rounds, 1 + config.players % 11))
    work = Path(tempfile.mkdtemp(prefix="ours-"))
    tally, kept = Counter(), []

    def pairer(snapshot: Snapshot):
        text, back = snapshot_trf(snapshot)
        k = snapshot.round_number
        view = work / f"o{n:06d}-r{k}.trf"
        view.write_text(text)
        kind, said, played, theirs = compare(text, view, None, subject, bbp, gacrux, tally, True)
        _count(tally, kept, kind, said, view, args, n, k)
        if not isinstance(played, Round):
            if played.startswith("failed") and isinstance(theirs, Round):
                played = theirs  # the subject crashed: the tournament goes on with bbpPairings' round
            else:  # 1.9.3: no legal pairing; the generator's arbiter excuses a player
                raise NoLegalPairing(f"the subject: {played}")
        return SimpleNamespace(
            boards=tuple(Board(i, back[w], back[b]) for i, (w, b) in enumerate(sorted(played.pairs), start=1)),
            bye=back[played.bye] if played.bye is not None else None)

    try:
        generate(config, pairer=pairer)
        tally["tournaments"] += 1
        return tally, kept
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _count(tally: Counter, kept: list[dict], kind: str, said: dict, view: Path, args, n: int, k: int) -> None:
    tally["rounds"] += 1
    if args.digest:  # every round's answers, to show that a change of the harness changes none
        args.digest.write(f"{args.way} {n} {k} | {kind} | subject {said.get('subject')} | bbp {said.get('bbp')}"
                          f" | gen {said.get('bbp generator', '-')}\n")
    tally[kind] += 1
    if kind == "identical" and "bbp generator" not in said:
        return
    entry = {"tournament": n, "round": k, "kind": kind, **said}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        target = args.keep / f"{args.way}-s{args.seed}-{n:06d}-r{k}.trf"
        shutil.copy(view, target)
        entry["file"] = str(target)
    kept.append(entry)


# ---------------------------------------------------------------- the run


def merge(paths: list[Path]) -> dict:
    total, rounds, runs = Counter(), [], []
    for path in paths:
        data = json.loads(path.read_text())
        total.update(data["tally"])
        rounds.extend(data["differences"])
        runs.extend(data.get("runs", [data.get("run")]))
    return {"tally": dict(total), "differences": rounds, "runs": runs}


def report(data: dict, limit: int = 40) -> None:
    tally = Counter(data["tally"])
    print(f"{tally['tournaments']} tournaments, {tally['rounds']} rounds, {tally['identical']} identical")
    for kind, count in sorted(tally.items(), key=lambda kv: -kv[1]):
        if kind not in ("tournaments", "rounds", "identical"):
            print(f"  {count:7d}  {kind}")
    for entry in data["differences"][:limit]:
        print(f"  t{entry['tournament']} r{entry['round']}: {entry['kind']}  {entry.get('file', '')}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--merge", nargs="+", type=Path, help="add up finished runs' --json files and stop")
    ap.add_argument("--bbp", help="the bbpPairings v6.0.0 binary")
    ap.add_argument("--gacrux", help="Gacrux's folder (TieBreakServer)")
    ap.add_argument("--gacrux-python", default=sys.executable, help="a Python with networkx, for Gacrux")
    ap.add_argument("--subject", choices=("ours", "gacrux", "bbp", "literal"), default="ours")
    ap.add_argument("--way", choices=("theirs", "ours"), default="theirs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--recheck", action="store_true", help="run bbpPairings -p on every round (--way theirs)")
    ap.add_argument("--small", action="store_true",
                    help="fields small enough for --subject literal: 2-12 players (--way ours), 9-12 (--way theirs)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--keep", type=Path, help="keep every differing round's file here")
    ap.add_argument("--digest", type=argparse.FileType("w"),
                    help="write every round's answers here (one line a round), to compare two versions of the harness")
    args = ap.parse_args(argv)
    if args.merge:
        data = merge(args.merge)
        report(data)
        if args.json:
            args.json.write_text(json.dumps(data, indent=1))
        return 0
    if not args.bbp:
        ap.error("--bbp is required")
    bbp = Bbp(args.bbp)
    gacrux = Gacrux(args.gacrux, args.gacrux_python) if args.gacrux else None
    subject = {"ours": lambda: Ours(), "bbp": lambda: bbp, "gacrux": lambda: gacrux,
               "literal": lambda: LiteralEnumerator()}[args.subject]()
    if subject is None:
        ap.error("--subject gacrux needs --gacrux")
    one = one_of_theirs if args.way == "theirs" else one_of_ours
    import subprocess  # noqa: PLC0415

    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parent).stdout.strip()
    total, differences, started, cpu_started = Counter(), [], time.time(), time.process_time()
    try:
        for i, n in enumerate(range(args.start, args.start + args.count), start=1):
            try:
                tally, kept = one(n, args, (subject, bbp, gacrux))
            except Exception as exc:  # noqa: BLE001 - counted and shown, the campaign goes on
                tally, kept = Counter({"harness error": 1}), [
                    {"tournament": n, "round": 0, "kind": f"harness error: {type(exc).__name__}: {exc}"}]
            total.update(tally)
            differences.extend(kept)
            if i % 50 == 0:
                print(f"... {i} tournaments, {total['rounds']} rounds, {len(differences)} kept, "
                      f"{time.time() - started:.0f} s", flush=True)
                if args.digest:
                    args.digest.flush()
    finally:
        if gacrux is not None:
            gacrux.close()
    run = {k: str(v) for k, v in vars(args).items() if k not in ("merge", "digest")}
    run["seconds"] = round(time.time() - started)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # bbpPairings (and Gacrux) runs
    run["cpu_seconds"] = round(time.process_time() - cpu_started + children.ru_utime + children.ru_stime)
    run["commit"] = commit  # the engine the run measured
    data = {"tally": dict(total), "differences": differences, "runs": [run]}
    report(data)
    if args.json:
        args.json.write_text(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
