"""The generator options the Dutch campaigns need (issue 34): another point system and
late entries that take their TPN by rating (C.04.2 2026, Art. 2.4)."""

from __future__ import annotations

from decimal import Decimal

from pairing.engine.generator import GeneratorConfig, generate, generate_fast
from pairing.engine.model import PointSystem, Result, System

from .literal import literal_pair_round

THREE_ONE = PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3), pairing_bye=Decimal(3),
                        full_bye=Decimal(3), half_bye=Decimal(1))


def test_point_system_reaches_every_snapshot():
    """3-1-0: the snapshots carry the system, so the engine scores 3 for a win."""
    t = generate(GeneratorConfig(players=9, rounds=4, seed=3, points=THREE_ONE), pairer=literal_pair_round)
    snap = t.snapshot(4)
    assert snap.points == THREE_ONE
    wins = [e for p in snap.players for e in p.history if e.result is Result.WIN]
    assert wins and all(snap.points.points(e.result) == 3 for e in wins)


def test_fast_mode_scores_with_the_point_system():
    """generate_fast sorts by score: with a PAB worth half a point, the PAB counts 0.5."""
    pab_half = PointSystem(pairing_bye=Decimal("0.5"))
    t = generate_fast(GeneratorConfig(players=11, rounds=3, seed=5, points=pab_half))
    assert t.points == pab_half
    assert t.snapshot(3).points.points(Result.PAIRING_BYE) == Decimal("0.5")


def _late_config(reslot: bool) -> GeneratorConfig:
    return GeneratorConfig(players=14, rounds=5, seed=11, late_entry_rate=0.3, withdrawal_rate=0.0, bye_rate=0.0,
                           reslot_late=reslot)


def test_late_entries_keep_appended_tpns_without_reslotting():
    t = generate(_late_config(False), pairer=literal_pair_round)
    for k in range(1, 6):
        assert all(p.tpn == p.id for p in t.snapshot(k).players)


def test_reslotted_late_entry_takes_its_place_by_rating():
    """From its arrival a late entry's TPN is its place by rating among those who have
    arrived; before it, every late entry comes after the players present; ids stay."""
    t = generate(_late_config(True), pairer=literal_pair_round)
    arrival = {p.id: _arrival(p) + 1 for p in t.players}  # from the whole history
    late = {i for i, k in arrival.items() if k > 1}
    assert late
    moved = False
    for k in range(1, 6):
        snap = t.snapshot(k)
        assert sorted(p.tpn for p in snap.players) == list(range(1, 15))
        arrived = [p for p in snap.players if arrival[p.id] <= k]
        waiting = [p for p in snap.players if p not in arrived]
        by_rating = sorted(arrived, key=lambda p: (-p.rating, p.id))
        assert [p.tpn for p in by_rating] == list(range(1, len(arrived) + 1))
        assert all(p.tpn > len(arrived) for p in waiting)
        moved = moved or any(p.tpn != p.id for p in snap.players)
    assert moved, "a late entry stronger than someone present must move the TPNs"


def _arrival(p) -> int:
    """The rounds missed before the first round played (Z before arriving; this config
    has no requested byes, and its players present from round 1 all play round 1)."""
    k = 0
    while k < len(p.history) and p.history[k].result is Result.ZERO_BYE:
        k += 1
    return k


def test_system_option_names_dutch_in_every_snapshot():
    """The system is an option of the one generator: a Dutch tournament, paired here by
    the literal Dutch enumerator, names the system in every snapshot it hands out."""
    from .dutch_literal import literal_pair_round as dutch_literal  # noqa: PLC0415

    seen = []

    def pairer(snapshot):
        seen.append(snapshot.system)
        return dutch_literal(snapshot)

    t = generate(GeneratorConfig(players=7, rounds=4, seed=2, system=System.DUTCH), pairer=pairer)
    assert seen == [System.DUTCH] * 4
    assert t.snapshot(3).system is System.DUTCH
    assert GeneratorConfig(players=7, rounds=4).system is System.DUBOV
