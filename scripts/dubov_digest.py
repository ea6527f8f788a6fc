"""A digest of the Dubov engine's pairings on generated tournaments, to show that a change
leaves them as they were (run it before and after; the digests must be equal).

    PYTHONPATH=<checkout> python scripts/dubov_digest.py --start 0 --count 500 [--rules 1997] [--switch NAME]

Each seed gives a tournament (players, rounds, draw, forfeit, bye, withdrawal and late-entry
rates, forbidden pairs, Baku acceleration, 3-1-0 scoring drawn from the seed) played round
by round by ``pair_round``; every round's boards, colours and bye, and the text of every
round's explanation, go into two SHA-256 digests.  Output: one line per seed and a total.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from decimal import Decimal


def config_for(seed: int):
    from pairing.engine.generator import GeneratorConfig
    from pairing.engine.model import PointSystem

    rng = random.Random(seed * 7919 + 1)
    players = rng.randint(4, 36)
    rounds = rng.randint(2, 11)
    points = PointSystem()
    if rng.random() < 0.15:
        points = PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3), pairing_bye=Decimal(3),
                             full_bye=Decimal(3), half_bye=Decimal(1))
    return GeneratorConfig(
        players=players,
        rounds=rounds,
        seed=seed,
        draw_rate=rng.choice((0.1, 0.3, 0.5)),
        forfeit_rate=rng.choice((0.0, 0.02, 0.08)),
        bye_rate=rng.choice((0.0, 0.03, 0.1)),
        withdrawal_rate=rng.choice((0.0, 0.01, 0.04)),
        late_entry_rate=rng.choice((0.0, 0.0, 0.1)),
        rating_min=rng.choice((1000, 1400, 2000)),
        rating_max=rng.choice((2000, 2300, 2700)),
        rating_step=rng.choice((None, None, 0, 10)),
        forbidden_pairs=rng.choice((0, 0, 2, 5)),
        baku=points == PointSystem() and rng.random() < 0.15,
        points=points,
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--rules", type=int, default=None, help="pair by DubovRules(year=...) (absent: the default)")
    ap.add_argument("--switch", action="append", default=[], help="a switch of DubovRules to turn on (repeatable)")
    args = ap.parse_args(argv)
    from dataclasses import replace

    from pairing.engine import pair_round
    from pairing.engine.__main__ import format_explanation
    from pairing.engine.generator import generate

    pairer = pair_round
    if args.rules is not None or args.switch:
        from pairing.engine.model import DubovRules

        rules = DubovRules(year=args.rules or 2025, **{name: True for name in args.switch})

        def pairer(snapshot):
            return pair_round(replace(snapshot, dubov_rules=rules))

    total_p, total_e = hashlib.sha256(), hashlib.sha256()
    rounds = 0
    began = time.process_time()
    for seed in range(args.start, args.start + args.count):
        hp, he = hashlib.sha256(), hashlib.sha256()
        seen = []

        def recording(snapshot, seen=seen):
            p = pairer(snapshot)
            seen.append(p)
            return p

        generate(config_for(seed), recording)
        for p in seen:
            hp.update(repr((p.round_number, [(b.white, b.black) for b in p.boards], p.bye)).encode())
            he.update(format_explanation(p.explanation, p.round_number).encode())
        rounds += len(seen)
        total_p.update(hp.digest())
        total_e.update(he.digest())
        print(f"seed {seed}: {len(seen)} rounds {hp.hexdigest()[:16]} {he.hexdigest()[:16]}")
    print(f"TOTAL seeds {args.start}..{args.start + args.count - 1}: {rounds} rounds "
          f"pairings {total_p.hexdigest()} explanations {total_e.hexdigest()} "
          f"({time.process_time() - began:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
