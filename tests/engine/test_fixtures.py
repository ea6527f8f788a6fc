"""Fixture files of other Dubov engines (tests/engine/fixtures/dubov, copied from the shared fixture folder): read them and
replay them.

Replay: for every round k of every file, keep rounds < k and pair round k with our
engine (byes and absences as recorded in round k).  Those engines are *not* ground
truth, so the tests here do not ask for agreement: they check that our engine pairs
every round (or says clearly that it cannot) and that its pairing is a valid one
(everyone present paired once, no rematch, no two players with the same absolute
colour preference, the PAB to an eligible player).  The differences, and which
pairing the rules support, are written up in docs/fixture-replay.md; the clearest
cases are regression tests in test_fixture_cases.py.

Run ``python -m tests.engine.test_fixtures`` for the replay summary (Markdown).
Files without ratings (engine-b) are replayed with one stand-in rating for every
player, so every ARO is equal; only these files need it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pairing.engine.dubov.state import player_states
from pairing.engine.model import (
    Colour,
    InvalidSnapshot,
    NoLegalPairing,
    Pairing,
    PreferenceStrength,
    Result,
    Snapshot,
)
from pairing.engine.trf import TrfError, TrfTournament, parse_trf

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "dubov"
needs_fixtures = pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"fixture folder {FIXTURES} is absent")
STAND_IN_RATING = 1000


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.rglob("*.trf")) if FIXTURES.is_dir() else []


def load(path: Path) -> TrfTournament | None:
    """The tournament, or None for a file that is not valid TRF-16 (see test_trf)."""
    try:
        return parse_trf(path.read_text())
    except TrfError:
        return None


def snapshot_for(t: TrfTournament, k: int) -> Snapshot:
    rated = all(p.rating for p in t.players)
    return t.snapshot(k, default_rating=None if rated else STAND_IN_RATING)


def recorded(t: TrfTournament, k: int) -> tuple[frozenset[tuple[int, int]], int | None]:
    """Round k as the file records it: {(white, black)} (forfeits included; a forfeit
    without colours as (lower id, higher id)), and the PAB player."""
    boards: set[tuple[int, int]] = set()
    pab = None
    for p in t.players:
        if len(p.history) < k:
            continue
        e = p.history[k - 1]
        if e.result is Result.PAIRING_BYE:
            pab = p.id
        if e.opponent is None:
            continue
        if e.colour is Colour.WHITE:
            boards.add((p.id, e.opponent))
        elif e.colour is None and p.id < e.opponent:
            boards.add((p.id, e.opponent))
    return frozenset(boards), pab


@dataclass(frozen=True)
class RoundReplay:
    file: str
    round: int
    theirs: frozenset[tuple[int, int]]
    their_bye: int | None
    ours: tuple[tuple[int, int], ...] | None  # None: we found no legal pairing
    our_bye: int | None
    error: str = ""

    @property
    def identical(self) -> bool:
        return (
            self.ours is not None and frozenset(self.ours) == self.theirs and self.our_bye == self.their_bye
        )

    @property
    def same_pairs(self) -> bool:
        """Same pairs and bye, colours aside."""
        if self.ours is None:
            return False
        return {frozenset(b) for b in self.ours} == {frozenset(b) for b in self.theirs} and (
            self.our_bye == self.their_bye
        )


def replay(path: Path, pair=None) -> list[RoundReplay]:
    """Pair every recorded round of ``path`` from the rounds before it."""
    if pair is None:
        from pairing.engine import pair_round as pair
    t = load(path)
    if t is None:
        return []
    name = path.relative_to(FIXTURES).as_posix()
    out = []
    for k in range(1, t.rounds_played() + 1):
        theirs, their_bye = recorded(t, k)
        try:
            pairing: Pairing = pair(snapshot_for(t, k))
        except NoLegalPairing as exc:
            out.append(RoundReplay(name, k, theirs, their_bye, None, None, f"no legal pairing: {exc}"))
            continue
        ours = tuple((b.white, b.black) for b in pairing.boards)
        out.append(RoundReplay(name, k, theirs, their_bye, ours, pairing.bye))
    return out


def check_valid(snapshot: Snapshot, pairing: Pairing) -> None:
    """Everyone present paired once, no rematch, C3 and C2 hold (style 8)."""
    st = player_states(snapshot)
    present = sorted(p.id for p in snapshot.players if p.id not in snapshot.absent)
    seen = sorted(
        [x for b in pairing.boards for x in (b.white, b.black)] + ([pairing.bye] if pairing.bye else [])
    )
    assert seen == present, "everyone present is paired exactly once"
    met = {
        frozenset((p.id, e.opponent))
        for p in snapshot.players
        for e in p.history
        if e.played and e.opponent is not None
    }
    for b in pairing.boards:
        pair = frozenset((b.white, b.black))
        assert pair not in met, f"{b.white}-{b.black} is a rematch (C1)"
        assert pair not in snapshot.forbidden, f"{b.white}-{b.black} is forbidden"
        pw, pb = st[b.white].preference, st[b.black].preference
        assert not (pw.strength == pb.strength == PreferenceStrength.ABSOLUTE and pw.colour is pb.colour), (
            f"{b.white}-{b.black} breaks C3"
        )
    if pairing.bye is not None:
        assert st[pairing.bye].pab_eligible, f"PAB to {pairing.bye}, who is not eligible (C2)"


# ---------------------------------------------------------------- tests


@needs_fixtures
@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_every_round_of_every_fixture_is_paired_validly(path: Path) -> None:
    """Our engine pairs every recorded round validly, or says clearly that it cannot;
    a file that is not TRF-16 (deleted_v1/random.trf) is reported, not read."""
    from pairing.engine import pair_round

    t = load(path)
    if t is None:
        with pytest.raises(TrfError):
            parse_trf(path.read_text())
        return
    for k in range(1, t.rounds_played() + 1):
        snap = snapshot_for(t, k)
        try:
            pairing = pair_round(snap)
        except NoLegalPairing as exc:
            assert exc.players, f"round {k}: NoLegalPairing must name players"
            continue
        check_valid(snap, pairing)


@needs_fixtures
@pytest.mark.parametrize("name", ["no_legal_pairings.trf", "no_legal_pairings_odd.trf"])
def test_engine_b_next_round_has_no_legal_pairing(name: str) -> None:
    """Round 4 of these files cannot be completed (1.8.3).  no_legal_pairings.trf: the
    four players have all met.  no_legal_pairings_odd.trf: 1, 2 and 5 have had the PAB,
    so it goes to 3 or 4 (C2); without 3, the others 1, 2, 4, 5 need 1-2 with 4-5 or
    1-5 with 2-4 or 1-4 with 2-5, and 4-5, 2-4, 1-4 have been played; without 4, the
    pairs 1-2/3-5, 1-5/2-3, 1-3/2-5 all contain a played game."""
    from pairing.engine import pair_round

    t = parse_trf((FIXTURES / "engine-b" / name).read_text())
    with pytest.raises(NoLegalPairing) as info:
        pair_round(snapshot_for(t, 4))
    assert info.value.players


@needs_fixtures
def test_fixture_snapshots_need_ratings() -> None:
    """Dubov 1.1: engine-b's files carry no ratings; the snapshot says so."""
    t = parse_trf((FIXTURES / "engine-b" / "dubov_bye_for_high_tpn.trf").read_text())
    with pytest.raises(InvalidSnapshot, match="no rating"):
        t.snapshot()


# ---------------------------------------------------------------- summary


def _fmt(boards, bye) -> str:
    text = ", ".join(f"{w}-{b}" for w, b in boards)
    return text + (f", bye {bye}" if bye is not None else "")


def summary(pair=None) -> str:
    rows = [r for path in fixture_files() for r in replay(path, pair)]
    same = sum(r.identical for r in rows)
    colours_only = sum(r.same_pairs and not r.identical for r in rows)
    lines = [
        f"Rounds replayed: {len(rows)}; identical: {same}; same pairs, other colours: {colours_only}; "
        f"different pairs: {len(rows) - same - colours_only}",
        "",
        "| file | round | result |",
        "|---|---|---|",
    ]
    for r in rows:
        if r.identical:
            verdict = "identical"
        elif r.ours is None:
            verdict = r.error
        else:
            only_theirs = sorted(r.theirs - frozenset(r.ours))
            only_ours = [b for b in r.ours if b not in r.theirs]
            verdict = f"theirs: {_fmt(only_theirs, r.their_bye if r.their_bye != r.our_bye else None)}; "
            verdict += f"ours: {_fmt(only_ours, r.our_bye if r.their_bye != r.our_bye else None)}"
        lines.append(f"| {r.file} | {r.round} | {verdict} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - a report, not a test
    sys.stdout.write(summary())
