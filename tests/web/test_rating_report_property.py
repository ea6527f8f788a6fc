"""Issue 32, defect 1, as a property: the rating report the app writes is re-paired
identically, every round, by the engine's checker (``python -m pairing.engine --dubov -c``,
``--dutch`` for a tournament of the Dutch system, issue 34, and ``--burstein`` for one of
the Burstein system, issue 40), over events run through
the services: unrated players with provisional ratings, late entries, withdrawals,
requested byes, forfeits and Baku acceleration.

The suite draws a few events (the same ones every run: the hypothesis profile is
derandomised); ``REPORT_EVENTS=500`` draws that many, and ``REPORT_TALLY=FILE`` writes
one JSON line per event checked (docs/validation.md, "Rating reports re-paired", has the
figures of such a run)."""

from __future__ import annotations

import io
import json
import os
import random
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.engine.__main__ import main as engine_main
from pairing.models import AccelerationMethod, Game, GameResult, Player, Tournament
from pairing.services import interchange, rounds
from pairing.services.numbering import renumber
from pairing.services.players import add_players, set_byes, withdraw
from pairing.services.results import record_result

EVENTS = int(os.environ.get("REPORT_EVENTS", "6"))
TALLY = os.environ.get("REPORT_TALLY", "")  # a file: one JSON line per event checked
RESULTS = [GameResult.WHITE_WINS] * 5 + [GameResult.BLACK_WINS] * 4 + [GameResult.DRAW] * 4 + [
    GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN, GameResult.DOUBLE_FORFEIT]


@dataclass(frozen=True)
class Event:
    """What an event of a seed had, for the failure message and the tallies."""

    seed: int
    players: int
    rounds: int
    played: int
    unrated: int
    late: int
    withdrawn: int
    baku: bool
    system: str = "dubov"


def _add(t: Tournament, rng: random.Random, name: str, unrated: bool) -> None:
    Player.objects.create(tournament=t, name=name, rating=rng.randint(1100, 2600), rating_provisional=unrated)


def run_event(owner, seed: int, *, late_entries: bool = True, system: str = "dubov") -> tuple[Tournament, Event]:
    """An event of ``seed`` played through the services, round by round, to its last
    round or to a round the engine cannot pair."""
    rng = random.Random(seed)
    n = rng.randint(8, 22)
    total = rng.randint(4, min(9, n - 1))
    baku = rng.random() < 0.5
    t = Tournament.objects.create(slug=f"e{seed}", name=f"Event {seed}", rounds=total, owner=owner, system=system,
                                  acceleration=AccelerationMethod.BAKU if baku else AccelerationMethod.NONE)
    unrated = rng.randint(1, 3)
    for i in range(n):
        _add(t, rng, f"Player {i + 1:02d}", unrated=i < unrated)
    renumber(t)
    late = withdrawn = played = 0
    for number in range(1, total + 1):
        t = Tournament.objects.get(pk=t.pk)  # as a request would find it
        if number > 1 and late_entries and rng.random() < 0.35:
            late += 1
            add_players(t, [{"name": f"Late {late:02d}", "rating": rng.randint(1100, 2600),
                             "rating_provisional": rng.random() < 0.3}], how="late")
        active = list(t.player_set.filter(withdrawn_from_round__isnull=True).order_by("pk"))
        if number > 1:
            for p in active:
                if rng.random() < 0.04:
                    withdraw(p, number)
                    withdrawn += 1
        byes = {p.pk: rng.choice("HZ") for p in active if p.withdrawn_from_round is None and rng.random() < 0.06}
        if byes:
            set_byes(t, number, byes, confirmations=1)
        try:
            rnd = rounds.pair_next_round(t)
        except rounds.PairingRefused:
            break
        rounds.publish(rnd)
        for g in rnd.games():
            record_result(g, rng.choice(RESULTS))
        played = number
    return Tournament.objects.get(pk=t.pk), Event(seed, n, total, played, unrated, late, withdrawn, baku, system)


def check(text: str, path: Path, system: str = "dubov") -> tuple[int, str]:
    path.write_text(text)
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = engine_main([f"--{system}", str(path), "-c"])
    return code, out.getvalue()


class _Undo(Exception):
    pass


def _event_checked(owner, tmp_path, seed: int, system: str) -> None:
    try:
        with transaction.atomic():
            t, event = run_event(owner, seed, late_entries=True, system=system)
            if event.played:
                assert not Game.objects.filter(round__tournament=t, result="").exists()
                code, out = check(interchange.export_trf(t), tmp_path / f"r{seed}.trf", system)
                if TALLY:
                    with open(TALLY, "a", encoding="utf-8") as f:
                        f.write(json.dumps({**asdict(event), "identical": code == 0}) + "\n")
                assert code == 0, f"{event}\n{out}"
            raise _Undo
    except _Undo:
        pass


@settings(max_examples=EVENTS, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6))
@pytest.mark.django_db
def test_issue_32_1_every_rating_report_re_pairs_itself_round_by_round(chief, tmp_path, seed):
    _event_checked(chief, tmp_path, seed, "dubov")


@settings(max_examples=EVENTS, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6))
@pytest.mark.django_db
def test_issue_34_every_dutch_rating_report_re_pairs_itself_round_by_round(chief, tmp_path, seed):
    """The same events paired with the FIDE Dutch system: the report says FIDE_DUTCH and
    ``--dutch -c`` re-pairs every round of it as the app paired it."""
    _event_checked(chief, tmp_path, seed, "dutch")


@settings(max_examples=max(2, EVENTS // 2), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6))
@pytest.mark.django_db
def test_issue_40_every_burstein_rating_report_re_pairs_itself_round_by_round(chief, tmp_path, seed):
    """The same events paired with the FIDE Burstein system: the report says FIDE_BURSTEIN
    and ``--burstein -c`` re-pairs every round of it (the seeding rounds by the Dutch rules,
    the rest by the Index) as the app paired it.  Half the events in the suite (its time);
    ``REPORT_EVENTS`` draws more."""
    _event_checked(chief, tmp_path, seed, "burstein")
