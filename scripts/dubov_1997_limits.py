"""How often the rules of 1997 act where they differ most from the 2025 frame
(docs/dubov-1997.md, sections 3 and 6): the score groups that float players down (6.4, 8,
switch ``floaters_down``), the islands (7.1) and 6.3's last paragraph; and how often the
1997 procedure taken literally, each choice at once with no look-ahead, meets a dead end
(9: the referee) where the engine's C4 passes a choice over.  The tournaments are
scripts/dubov_digest.py's, paired throughout by the rules of 1997.

    PYTHONPATH=<checkout> python scripts/dubov_1997_limits.py --start 0 --count 3000 [--without-floaters]

Each round is paired three ways on the same snapshot: by the rules of 1997 (what the
tournament goes on with), by them without ``floaters_down`` (the option before the switch:
more upfloaters where 6.4 floats players down) and by them without the look-ahead (the
text's own procedure; ``_Round.look_ahead`` off).  ``--without-floaters`` plays the
tournaments without the switch and counts what the earlier version measured (the brackets
that take more upfloaters than 7.2's one).
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
    ap.add_argument("--without-floaters", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from dubov_digest import config_for

    from pairing.engine import pair_round
    from pairing.engine.dubov.floaters import DeadEnd
    from pairing.engine.dubov.pairer import _Round
    from pairing.engine.dubov.state import player_states
    from pairing.engine.generator import generate
    from pairing.engine.model import DubovRules

    record: list[tuple[int, int, bool]] = []
    choose = _Round.choose_upfloaters

    def counting(self, score, residents, pool, max_k=None):
        got = choose(self, score, residents, pool, max_k)
        if got is None:
            return got
        ups = got[0]
        own = True
        if len(ups) > len(residents) % 2:  # could the group be paired with at most 7.2's one?
            if len(residents) % 2 == 0:
                own = self.colour_cost(residents) is not None
            else:
                own = any(self.colour_cost(residents + [j]) is not None for j in pool)
        record.append((len(residents), len(ups), own))
        return got

    _Round.choose_upfloaters = counting
    rules = DubovRules(year=1997, floaters_down=not args.without_floaters)
    before = DubovRules(year=1997, floaters_down=False)
    c = dict(rounds=0, brackets=0, more=0, c4_only=0, islands=0, wmw=0, floating=0, floated=0, f82=0,
             differ=0, dead=0, dead_bye=0, literal_differs=0)
    sets: dict[str, set] = {k: set() for k in ("more", "more_rounds", "islands", "wmw", "floating",
                                               "floating_rounds", "differ", "dead", "dead_rounds")}
    for seed in range(args.start, args.start + args.count):
        def pairer(snapshot, seed=seed):
            record.clear()
            snap = replace(snapshot, dubov_rules=rules)
            pairing = pair_round(snap)
            c["rounds"] += 1
            for residents, ups, own in record:
                c["brackets"] += 1
                if ups > residents % 2:
                    c["more"] += 1
                    c["c4_only"] += own
                    sets["more_rounds"].add((seed, snapshot.round_number))
                    sets["more"].add(seed)
            for b in pairing.explanation.brackets:
                n = sum(note.startswith("7.1 (rules of 1997)") for note in b.notes)
                c["islands"] += n
                if n:
                    sets["islands"].add(seed)
                if any(note.startswith("6.3 (rules of 1997)") for note in b.notes):
                    c["wmw"] += 1
                    sets["wmw"].add(seed)
                c["f82"] += sum(note.startswith("8.2 (rules of 1997): the floater") and " plays " in note
                                for note in b.notes)
                if b.upfloater_reason.startswith("6.4 (rules of 1997)"):
                    c["floating"] += 1
                    c["floated"] += len(b.downfloaters)
                    sets["floating"].add(seed)
                    sets["floating_rounds"].add((seed, snapshot.round_number))
            if not args.without_floaters:
                other = pair_round(replace(snapshot, dubov_rules=before))
                if (other.boards, other.bye) != (pairing.boards, pairing.bye):
                    c["differ"] += 1
                    sets["differ"].add(seed)
                # the text's own procedure: each choice at once, no look-ahead
                literal = _Round(snap, player_states(snap))
                literal.look_ahead = False
                try:
                    plain = literal.run()
                except DeadEnd:
                    c["dead"] += 1
                    sets["dead"].add(seed)
                    sets["dead_rounds"].add((seed, snapshot.round_number))
                else:
                    if (plain.boards, plain.bye) != (pairing.boards, pairing.bye):
                        c["literal_differs"] += 1
                if pairing.explanation.bye.rejected_incomplete:  # 4's lowest R would leave a dead end
                    c["dead_bye"] += 1
                    sets["dead"].add(seed)
                    sets["dead_rounds"].add((seed, snapshot.round_number))
            return pairing

        generate(config_for(seed), pairer)
    print(f"seeds {args.start}..{args.start + args.count - 1}: {c['rounds']} rounds, {c['brackets']} brackets "
          f"after 7.1 (and 8.2)")
    print(f"more upfloaters than 7.2's one: {c['more']} brackets in {len(sets['more_rounds'])} rounds of "
          f"{len(sets['more'])} tournaments; the group pairable with at most one from below "
          f"(only C4 asked more): {c['c4_only']}; the group itself unpairable: {c['more'] - c['c4_only']}")
    print(f"7.1: {c['islands']} islands given their own opponent, in {len(sets['islands'])} tournaments")
    print(f"6.3, last paragraph: {c['wmw']} brackets, in {len(sets['wmw'])} tournaments")
    if not args.without_floaters:
        print(f"6.4: {c['floating']} score groups floated {c['floated']} players down, in "
              f"{len(sets['floating_rounds'])} rounds of {len(sets['floating'])} tournaments; 8.2 paired "
              f"{c['f82']} floaters in the group below")
        print(f"rounds paired otherwise than without floaters_down (same snapshot): {c['differ']}, in "
              f"{len(sets['differ'])} tournaments")
        print(f"the text without look-ahead: a dead end (9) in {len(sets['dead_rounds'])} rounds of "
              f"{len(sets['dead'])} tournaments ({c['dead']} in the score groups, {c['dead_bye']} at the bye of 4); "
              f"in every other round the same pairing as the engine's: {c['literal_differs'] == 0} "
              f"({c['literal_differs']} differ)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
