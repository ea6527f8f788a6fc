"""The engine doc, step 7: with the shifts of 2.2.4 read as in steps 5(a)/(b), every
legal T2 reaches the bracket's optimal C7 - asserted here on played random
tournaments instead of being searched for.  Also checks, per bracket, the claim of
step 3 that in a minimal upfloater set every upfloater can play a resident."""

from itertools import combinations

import pytest

from pairing.engine import Colour, pair_round, player_states
from pairing.engine.generator import GeneratorConfig, generate


def legal_pairings(vs, legal):
    if not vs:
        yield []
        return
    a = vs[0]
    for j in range(1, len(vs)):
        if legal(a, vs[j]):
            for rest in legal_pairings(vs[1:j] + vs[j + 1 :], legal):
                yield [(a, vs[j])] + rest


@pytest.mark.parametrize("seed", range(12))
def test_every_bracket_reaches_its_optimal_c7(seed):
    """For every bracket of every round: the number of pairs whose players share a
    colour preference (players not getting their preference, C7) equals the
    minimum over all legal pairings of the bracket (brute force)."""
    tour = generate(GeneratorConfig(players=10 + seed % 5, rounds=7, seed=seed, forbidden_pairs=seed % 3))
    for rnd in range(1, tour.rounds_played + 1):
        snap = tour.snapshot(rnd)
        try:
            pairing = pair_round(snap)
        except Exception:  # NoLegalPairing: the generator excused someone
            continue
        st = player_states(snap)
        met = {p.id: {e.opponent for e in p.history if e.played} for p in snap.players}

        def legal(a, b, st=st, met=met, snap=snap):
            if b in met[a] or frozenset((a, b)) in snap.forbidden:
                return False
            pa, pb = st[a].preference, st[b].preference
            return not (pa.strength == pb.strength == 3 and pa.colour is pb.colour)

        white = {i: st[i].preference.colour is Colour.WHITE for i in st}
        for trace in pairing.explanation.brackets:
            bracket = list(trace.residents) + list(trace.upfloaters)
            got = sum(white[a] == white[b] for a, b in zip(trace.s1, trace.t2, strict=True))
            best = min(sum(white[a] == white[b] for a, b in m) for m in legal_pairings(bracket, legal))
            assert got == best, (rnd, trace)
            # minimal upfloater sets: some legal pairing pairs every upfloater with a resident
            ups = set(trace.upfloaters)
            if ups:
                assert any(
                    all(not (a in ups and b in ups) for a, b in m) for m in legal_pairings(bracket, legal)
                )


@pytest.mark.parametrize("seed", range(6))
def test_no_smaller_upfloater_set_exists(seed):
    """2.2.1 (C5) on played tournaments: for every bracket with k upfloaters, no set of
    k - 2 pool players makes the residents pairable while the rest of the pool stays
    completable (C4)."""
    tour = generate(GeneratorConfig(players=12, rounds=7, seed=100 + seed, forbidden_pairs=2))
    for rnd in range(2, tour.rounds_played + 1):
        snap = tour.snapshot(rnd)
        try:
            pairing = pair_round(snap)
        except Exception:
            continue
        st = player_states(snap)
        met = {p.id: {e.opponent for e in p.history if e.played} for p in snap.players}

        def legal(a, b, st=st, met=met, snap=snap):
            if b in met[a] or frozenset((a, b)) in snap.forbidden:
                return False
            pa, pb = st[a].preference, st[b].preference
            return not (pa.strength == pb.strength == 3 and pa.colour is pb.colour)

        done = {pairing.bye} | set(snap.absent)
        for trace in pairing.explanation.brackets:
            done.update(trace.residents)
            k = len(trace.upfloaters)
            pool = [i for i in st if st[i].score < trace.score and i not in done]
            if k >= 2:
                for smaller in combinations(pool, k - 2):
                    rest = [i for i in pool if i not in smaller]
                    ok_bracket = any(True for _ in legal_pairings(list(trace.residents) + list(smaller), legal))
                    ok_rest = any(True for _ in legal_pairings(rest, legal))
                    assert not (ok_bracket and ok_rest), (rnd, trace, smaller)
            done.update(trace.upfloaters)
