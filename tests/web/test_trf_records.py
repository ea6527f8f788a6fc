"""The TRF-2026 tournament records of the report (VCL4THP Q217; C.04 Annex 2, 2026):
062, 072, 092, 132 (round dates, mandatory for rating), 142, 152, 162, 182, 192, 202, 212,
222; a file with them imports back unchanged."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from pairing.engine import PointSystem
from pairing.engine.trf.writer import scoring_record as scoring
from pairing.models import Player, Round, Tournament, bump_revision
from pairing.services import interchange
from pairing.services.trf_records import time_control
from tests.web.helpers import add_players, play_round


def test_vcl_q217_the_report_carries_the_round_dates_and_the_tournament_records(chief, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(time_control="90+30", initial_colour="w")
    tournament.refresh_from_db()
    add_players(tournament, 6)
    Player.objects.filter(tpn=6).update(rating_provisional=True)
    play_round(tournament)
    play_round(tournament)
    Round.objects.filter(tournament=tournament, number=1).update(
        published_at=timezone.make_aware(datetime.datetime(2026, 11, 20, 15, 0)))
    Round.objects.filter(tournament=tournament, number=2).update(
        published_at=timezone.make_aware(datetime.datetime(2026, 11, 21, 9, 30)))
    text = interchange.export_trf(tournament)
    lines = text.splitlines()
    dates = next(line for line in lines if line.startswith("132"))
    assert dates[91:99] == "26/11/20" and dates[101:109] == "26/11/21"  # columns 92-99, 102-109
    for record in ("062 6", "072 5", "092 Individual: Swiss system (FIDE Dubov)", "142 5", "152 W",
                   "192 FIDE_DUBOV", "202 BH/C1, BH, SB", "212 PTS, BH/C1, BH, SB", "222 5400+30"):
        assert record in lines, record
    assert any(line.startswith("182 Dubov arbiter") for line in lines)
    assert not any(line.startswith("162") for line in lines)  # the default scoring needs none
    fresh = Tournament.objects.create(slug="again", name="Again", owner=chief)
    assert interchange.import_trf(fresh, text) == 6
    assert fresh.round_set.count() == 2
    assert interchange.export_trf(fresh).count("\n001 ") == text.count("\n001 ")


def test_vcl_q217_the_encoded_tournament_type_follows_the_acceleration_and_the_system(tournament):
    """192 from TRF-2026's Tournament-Type Code Table: FIDE_DUBOV, FIDE_DUBOV_BAKU with Baku
    acceleration, FIDE_ROUNDROBIN for a round robin."""
    from pairing.models import AccelerationMethod, PairingSystem

    add_players(tournament, 8)
    assert "192 FIDE_DUBOV" in interchange.export_trf(tournament).splitlines()
    Tournament.objects.filter(pk=tournament.pk).update(acceleration=AccelerationMethod.BAKU)
    bump_revision(tournament.pk)  # as the settings form's change does (the file is kept per state)
    tournament.refresh_from_db()
    assert "192 FIDE_DUBOV_BAKU" in interchange.export_trf(tournament).splitlines()
    Tournament.objects.filter(pk=tournament.pk).update(acceleration=AccelerationMethod.NONE,
                                                       system=PairingSystem.ROUND_ROBIN)
    bump_revision(tournament.pk)
    tournament.refresh_from_db()
    assert "192 FIDE_ROUNDROBIN" in interchange.export_trf(tournament).splitlines()


@pytest.mark.parametrize("text, code", [
    ("90+30", "5400+30"), ("90'+30\"", "5400+30"), ("90 min + 30 s", "5400+30"), ("60", "3600"),
    ("40/90+30:30+30", ""), ("", ""), ("blitz", ""),
])
def test_the_time_control_is_encoded_when_it_is_a_simple_one(text, code):
    assert time_control(text) == code


def test_scoring_is_written_only_when_trf_2026_can_say_it():
    assert scoring(PointSystem()) == "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0"
    assert scoring(PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3), full_bye=Decimal(3),
                               half_bye=Decimal(1), pairing_bye=Decimal(3))) == \
        "162  W 3.0    D 1.0    L 0.0    A 0.0    P 3.0"
    assert scoring(PointSystem(half_bye=Decimal(0))) == ""  # H and D cannot differ in 162


def test_vcl_q217_forbidden_pairs_are_written_as_260_records_for_the_rounds_to_come(chief, tournament):
    from pairing.models import ForbiddenPair

    players = add_players(tournament, 6)
    play_round(tournament)
    ForbiddenPair.objects.create(tournament=tournament, player_a=players[0], player_b=players[5])
    text = interchange.export_trf(tournament)
    assert "260   2   5    1    6" in text.splitlines()
    assert "XXP 1 6" in text.splitlines()  # the engines' spelling too
    fresh = Tournament.objects.create(slug="again", name="Again", owner=chief)
    interchange.import_trf(fresh, text)
    assert ForbiddenPair.objects.filter(tournament=fresh).count() == 1


def test_issue_17_the_report_names_the_arbiters_with_titles_and_fide_ids(chief_client, chief, tournament):
    """The settings take the arbiters as the report writes them (102, 112): title, name,
    FIDE id; without them the accounts' names are written as before.  A line that is not
    a name is refused, and an import into a tournament without them takes the file's."""
    from tests.web.helpers import add_players
    from tests.web.test_tournament_setup import GOOD

    add_players(tournament, 4)
    assert "102 chief" in interchange.export_trf(tournament).splitlines()
    url = reverse("pairing:settings", args=[tournament.slug])
    bad = chief_client.post(url, {**GOOD, "slug": tournament.slug, "seen": Tournament.objects.get(pk=tournament.pk).version(),
                                  "rounds": "5", "chief_arbiter": "IA 1234567 Jane"})
    assert "write the title (IA, FA, NA, or none), the name and the FIDE id" in bad.content.decode()
    chief_client.post(url, {**GOOD, "slug": tournament.slug, "seen": Tournament.objects.get(pk=tournament.pk).version(),
                            "rounds": "5", "chief_arbiter": "IA Jane  Doe 1234567",
                            "deputy_arbiters": "FA Ivo Novak 7654321\n\nNA Ana Kos"})
    lines = interchange.export_trf(Tournament.objects.get(pk=tournament.pk)).splitlines()
    assert "102 IA Jane Doe 1234567" in lines
    assert ["112 FA Ivo Novak 7654321", "112 NA Ana Kos"] == [line for line in lines if line.startswith("112")]
    fresh = Tournament.objects.create(slug="fresh", name="Fresh", owner=chief)
    interchange.import_trf(fresh, "\n".join(lines) + "\n", chief, confirmations=1)
    fresh.refresh_from_db()
    assert (fresh.chief_arbiter, fresh.deputy_arbiters) == ("IA Jane Doe 1234567", "FA Ivo Novak 7654321\nNA Ana Kos")
