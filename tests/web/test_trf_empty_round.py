"""TRF import of a tournament whose last round had no game (issue 22).

Written against the URLs (import, pair, export) and ``apps.get_model``, not against the
module that implements the import, so that it holds wherever that code lives.  The file:
8 players, 8 rounds, round 7 without a game (everyone ``0000 - Z``), ``XXZ 2 3 6``; the
next round to pair is 8 and it pairs 5-4, 7-8 with the PAB to 1, as the engine's command
line pairs the same file (tests/engine/test_empty_round.py).
"""

from __future__ import annotations

from django.apps import apps
from django.urls import reverse

from pairing.engine.trf import parse_trf
from tests.engine.trf_samples import EMPTY_ROUND_7


def _model(name: str):
    return apps.get_model("pairing", name)


def _import(client, owner, slug: str = "empty-round"):
    t = _model("Tournament").objects.create(slug=slug, name="Empty round", owner=owner)
    response = client.post(reverse("pairing:trf_import", args=[slug]), {"text": EMPTY_ROUND_7})
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    return t


def test_import_counts_the_round_without_games_as_played(chief_client, chief):
    t = _import(chief_client, chief)
    Round, Game, Bye = _model("Round"), _model("Game"), _model("Bye")
    assert list(Round.objects.filter(tournament=t).order_by("number").values_list("number", "status")) == [
        (k, "complete") for k in range(1, 8)
    ]
    assert not Game.objects.filter(round__tournament=t, round__number=7).exists()
    assert Bye.objects.filter(tournament=t, round_number=7).count() == 8
    # the absences of the file's XXZ belong to round 8, not to round 7
    assert sorted(Bye.objects.filter(tournament=t, round_number=8).values_list("player__tpn", flat=True)) == [2, 3, 6]
    exported = parse_trf(chief_client.get(reverse("pairing:trf_export", args=[t.slug])).content.decode())
    assert exported.rounds_played() == 7
    ours = parse_trf(EMPTY_ROUND_7)
    assert [(p.id, p.history) for p in exported.players] == [(p.id, p.history) for p in ours.players]
    assert exported.snapshot() == ours.snapshot()
    # the round without a board shows like any other
    for url in (reverse("pairing:round", args=[t.slug, 7]), reverse("pairing:standings", args=[t.slug]) + "?round=7",
                reverse("pairing:crosstable", args=[t.slug])):
        assert chief_client.get(url).status_code == 200, url


def test_the_next_round_after_the_import_is_8_and_pairs_as_the_engine_does(chief_client, chief):
    t = _import(chief_client, chief)
    response = chief_client.post(reverse("pairing:pair_next", args=[t.slug]))
    assert response.status_code == 302
    rnd = _model("Round").objects.get(tournament=t, number=8)
    games = _model("Game").objects.filter(round=rnd).order_by("board")
    assert [(g.white.tpn, g.black.tpn) for g in games] == [(5, 4), (7, 8)]
    pab = _model("Bye").objects.get(tournament=t, round_number=8, kind="U")
    assert pab.player.tpn == 1
