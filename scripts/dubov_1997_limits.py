"""How often the rules of 1997 meet what the option does not reproduce (docs/dubov-1997.md,
section 3): the brackets that take more upfloaters than 7.2's one after 7.1's islands, where
the 1997 text would float players down (6.4, 8); and how often 7.1 and 6.3's last paragraph
act.  The tournaments are scripts/dubov_digest.py's, paired throughout by the rules of 1997.

    PYTHONPATH=<checkout> python scripts/dubov_1997_limits.py --start 0 --count 3000
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=200)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from dubov_digest import config_for

    from pairing.engine import pair_round
    from pairing.engine.dubov.pairer import _Round
    from pairing.engine.generator import generate
    from pairing.engine.model import DubovRules

    record: list[tuple[int, int, bool]] = []
    choose = _Round.choose_upfloaters

    def counting(self, score, residents, pool):
        ups, reason, ev = choose(self, score, residents, pool)
        own = True
        if len(ups) > len(residents) % 2:  # could the group be paired with at most 7.2's one?
            if len(residents) % 2 == 0:
                own = self.colour_cost(residents) is not None
            else:
                own = any(self.colour_cost(residents + [j]) is not None for j in pool)
        record.append((len(residents), len(ups), own))
        return ups, reason, ev

    _Round.choose_upfloaters = counting
    rules = DubovRules(year=1997)
    rounds = brackets = more = c4_only = islands = white_meets_white = 0
    more_rounds: set[tuple[int, int]] = set()
    more_tournaments: set[int] = set()
    island_tournaments: set[int] = set()
    wmw_tournaments: set[int] = set()
    for seed in range(args.start, args.start + args.count):
        def pairer(snapshot, seed=seed):
            nonlocal rounds, brackets, more, c4_only, islands, white_meets_white
            record.clear()
            pairing = pair_round(replace(snapshot, dubov_rules=rules))
            rounds += 1
            for residents, ups, own in record:
                brackets += 1
                if ups > residents % 2:
                    more += 1
                    c4_only += own
                    more_rounds.add((seed, snapshot.round_number))
                    more_tournaments.add(seed)
            for b in pairing.explanation.brackets:
                n = sum(note.startswith("7.1 (rules of 1997)") for note in b.notes)
                islands += n
                if n:
                    island_tournaments.add(seed)
                if any(note.startswith("6.3 (rules of 1997)") for note in b.notes):
                    white_meets_white += 1
                    wmw_tournaments.add(seed)
            return pairing

        generate(config_for(seed), pairer)
    print(f"seeds {args.start}..{args.start + args.count - 1}: {rounds} rounds, {brackets} brackets after 7.1")
    print(f"more upfloaters than 7.2's one: {more} brackets in {len(more_rounds)} rounds of "
          f"{len(more_tournaments)} tournaments; the group pairable with at most one from below "
          f"(only C4 asked more): {c4_only}; the group itself unpairable: {more - c4_only}")
    print(f"7.1: {islands} islands given their own opponent, in {len(island_tournaments)} tournaments")
    print(f"6.3, last paragraph: {white_meets_white} brackets, in {len(wmw_tournaments)} tournaments")
    return 0


if __name__ == "__main__":
    sys.exit(main())
