"""Reports only read: every public function of ``pairing.reports`` runs under a
connection that refuses INSERT, UPDATE and DELETE (docs/architecture.md) -- but in the
cache's table, when the cache is the database: what a report computed once is kept there
for the next request (pairing/computed.py), which is no state of any tournament."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection

import pairing.reports
from pairing.models import Bye, ByeKind, GameResult, Player
from pairing.services.results import record_result
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import play_round

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.IGNORECASE)


class WriteRefused(Exception):
    pass


@contextmanager
def writes_refused():
    def refuse(execute, sql, params, many, context):
        if WRITE.match(sql) and settings.CACHE_TABLE not in sql:
            raise WriteRefused(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield


def report_functions():
    """(module, name, function) of every public function of the reports package."""
    found = []
    for info in pkgutil.iter_modules(pairing.reports.__path__):
        module = importlib.import_module(f"pairing.reports.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == module.__name__ and not name.startswith("_"):
                found.append((info.name, name, fn))
    return found


@pytest.fixture
def tournament_in_play(chief, tournament, players):
    """Two complete rounds, round 3 in play (one result in), a requested bye ahead."""
    play_round(tournament, chief, {0: GameResult.DRAW})
    play_round(tournament, chief, {1: GameResult.BLACK_FORFEIT_WIN})
    rnd = pair_next_round(tournament, chief)
    publish(rnd, chief)
    record_result(rnd.games().first(), GameResult.BLACK_WINS, chief)
    Bye.objects.create(tournament=tournament, player=players[3], round_number=4, kind=ByeKind.HALF)
    tournament.refresh_from_db()
    return tournament


def _arguments(fn, t):
    """Arguments for a report: the tournament, a player, a chart's input..."""
    from pairing.reports import aro

    args = []
    for name, param in inspect.signature(fn).parameters.items():
        if param.default is not inspect.Parameter.empty:
            break  # optional (the round): the default
        if name == "t":
            args.append(t)
        elif name == "player":
            args.append(Player.objects.filter(tournament=t).order_by("tpn").first())
        elif name == "spread":
            args.append(aro.aro_spread(t))
        else:
            return None
    return args


def test_every_report_runs_without_writing(tournament_in_play):
    ran = []
    for module, name, fn in report_functions():
        args = _arguments(fn, tournament_in_play)
        if args is None:
            continue  # pure helpers on plain data (figures, histories): no database at all
        with writes_refused():
            fn(*args)
        ran.append(f"{module}.{name}")
    for expected in ("standings.standings", "crosstable.crosstable", "aro.aro_list", "aro.aro_rounds",
                     "aro.aro_spread", "player_card.player_card", "standings.complete_rounds"):
        assert expected in ran


def test_reports_run_without_writing_while_a_draft_is_open(chief, tournament, players):
    """A draft round exists (paired, not published): the ARO list of that round and the
    standings are read without touching it."""
    play_round(tournament, chief)
    pair_next_round(tournament, chief)
    from pairing.reports import aro, standings

    with writes_refused():
        number, groups = aro.aro_list(tournament)
        standings.standings(tournament)
    assert number == 2 and groups


def test_the_guard_refuses_a_write(tournament):
    """The test above proves something: a write under the guard is refused."""
    with pytest.raises(WriteRefused), writes_refused():
        Player.objects.create(tournament=tournament, name="Late, Entry", rating=1500)
