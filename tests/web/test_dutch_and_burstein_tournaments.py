"""What a tournament paired with the FIDE Dutch system (C.04.3, issue 34) and one paired
with the FIDE Burstein system (C.04.4.2, issue 40) do alike: chosen at creation, locked
once round 1 is published, paired and published by their own engine, exported with their
192 code and re-imported, and named on every page instead of Dubov, per persona (chief
arbiter, deputy, another arbiter, anonymous visitor).  Each test runs for both systems;
what only one system does is in test_dutch_tournament.py or test_burstein_tournament.py.

A Burstein tournament of 5 rounds has two seeding rounds (1.6.2) paired by the Dutch
rules, so its first Burstein round is round 3: where a test needs a round of the system's
own engine, the Burstein case plays the seeding rounds first (a draw on board 1 of round
1, a Black win on board 2 of round 2)."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from django.urls import reverse

from pairing import engine
from pairing.engine.version import VERSION
from pairing.models import AuditEntry, GameResult, RoundStatus, Tournament
from pairing.services import interchange, manual
from pairing.services.rounds import pair_next_round, warnings_for
from pairing.services.snapshot import build_snapshot
from tests.web.helpers import add_players, confirm, play_round, shown_version
from tests.web.system_helpers import (
    draft,
    engine_pairs,
    pairs,
    play_rounds,
    played,
    visible_text,
    with_system,
)
from tests.web.test_tournament_setup import GOOD

DRAW, BLACK_WINS = GameResult.DRAW, GameResult.BLACK_WINS
SEEDING = [{0: DRAW}, {1: BLACK_WINS}]  # the Burstein tournament's two seeding rounds

class Facts(NamedTuple):
    """What a test reads of a system: its name, another system to try, its report code (192),
    the report's 092 and 182 lines, and the checker's option."""

    label: str
    other: str
    code: str
    line_092: str
    line_182: str
    option: str


SYSTEMS = {
    "dutch": Facts("FIDE Dutch system", "dubov", "FIDE_DUTCH", "Individual: Swiss system (FIDE Dutch)",
                   "(FIDE Dutch system, C.04.3)", "--dutch"),
    "burstein": Facts("FIDE Burstein system", "dutch", "FIDE_BURSTEIN", "Individual: Swiss system (FIDE Burstein)",
                      "(FIDE Burstein system, C.04.4.2)", "--burstein"),
}
IDS = list(SYSTEMS)


@pytest.fixture
def swiss(tournament, system):
    """The chief's tournament (deputy added, 5 rounds), paired with ``system``."""
    return with_system(tournament, system)


# -- creating -------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_chief_arbiter_creates_a_tournament_of_the_system(chief_client, chief, system):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": system})
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.owner, t.system, t.system_label) == (chief, system, SYSTEMS[system].label)
    assert AuditEntry.objects.get(tournament=t, action="create").after["system"] == system


@pytest.mark.parametrize("system", SYSTEMS)
def test_another_arbiter_creates_their_own_tournament_of_the_system_and_not_the_chiefs(
    stranger_client, stranger, swiss, system
):
    response = stranger_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": system})
    assert response.status_code == 302
    assert Tournament.objects.get(owner=stranger).system == system
    response = stranger_client.post(reverse("pairing:settings", args=[swiss.slug]), {
        **GOOD, "slug": swiss.slug, "system": SYSTEMS[system].other, "seen": shown_version(swiss)})
    assert response.status_code == 404  # a private tournament: as if it did not exist
    assert Tournament.objects.get(pk=swiss.pk).system == system


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_deputy_sets_up_the_chiefs_tournament_with_the_system_before_round_one(deputy_client, tournament, system):
    """The deputy of a tournament created with the default system switches it on the
    settings page (round 1 not yet published): saved, and in the audit trail."""
    response = deputy_client.post(reverse("pairing:settings", args=[tournament.slug]), {
        **GOOD, "slug": tournament.slug, "system": system, "seen": shown_version(tournament)})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.system == system
    change = AuditEntry.objects.filter(tournament=tournament, action="settings").latest("at")
    assert (change.before["system"], change.after["system"]) == ("dubov", system)


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_anonymous_visitor_creates_no_tournament_of_the_system(anon_client, system):
    response = anon_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": system})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("system", SYSTEMS)
def test_vcl_q93_the_system_is_locked_once_round_one_is_published(chief_client, swiss, system):
    """A draft of round 1 can still change system (it is discarded); once round 1 is
    published the settings page says the system is locked and a change is refused."""
    other = SYSTEMS[system].other
    add_players(swiss, 6)
    pair_next_round(swiss)
    chief_client.post(reverse("pairing:settings", args=[swiss.slug]), {
        **GOOD, "slug": swiss.slug, "system": other, "seen": shown_version(swiss)})
    swiss.refresh_from_db()
    assert swiss.system == other
    assert not swiss.round_set.exists()
    with_system(swiss, system)
    play_round(swiss)
    page = chief_client.get(reverse("pairing:settings", args=[swiss.slug])).content.decode()
    assert "Locked: round 1 has been published." in page
    chief_client.post(reverse("pairing:settings", args=[swiss.slug]), {
        **GOOD, "slug": swiss.slug, "system": other, "seen": shown_version(swiss)})
    assert Tournament.objects.get(pk=swiss.pk).system == system


# -- pairing ---------------------------------------------------------------------------


@pytest.mark.parametrize(("system", "before", "ours", "theirs"), [
    ("dutch", [{}], engine.System.DUTCH, engine.System.DUBOV),
    ("burstein", SEEDING, engine.System.BURSTEIN, engine.System.DUTCH),
], ids=IDS)
def test_a_round_is_the_systems_engines_pairing_not_the_other_systems(chief_client, swiss, before, ours, theirs):
    """Eleven players: after one round (Dutch; White wins) or the two seeding rounds
    (Burstein), the next round differs between the system and the other one, and the draft
    is the system's engine's, explained as such (not as a seeding round)."""
    play_rounds(swiss, 11, before)
    number = len(before) + 1
    response = chief_client.post(reverse("pairing:pair_next", args=[swiss.slug]))
    rnd = swiss.round_set.get(number=number)
    assert response.status_code == 302 and rnd.is_draft
    assert pairs(rnd) == engine_pairs(swiss, number, ours) != engine_pairs(swiss, number, theirs)
    assert rnd.explanation["system"] == swiss.system and "seeding" not in rnd.explanation


@pytest.mark.parametrize(("system", "before", "ours"), [
    ("dutch", [], engine.System.DUTCH),
    ("burstein", SEEDING, engine.System.BURSTEIN),
], ids=IDS)
def test_the_deputy_pairs_and_publishes_a_round_of_the_system(deputy_client, swiss, before, ours):
    play_rounds(swiss, 7, before)
    number = len(before) + 1
    deputy_client.post(reverse("pairing:pair_next", args=[swiss.slug]))
    response = deputy_client.post(reverse("pairing:round_publish", args=[swiss.slug, number]))
    rnd = swiss.round_set.get(number=number)
    assert response.status_code == 302 and rnd.status == RoundStatus.PUBLISHED
    assert pairs(rnd) == engine_pairs(swiss, number, ours)


@pytest.mark.parametrize("name", ["pair_next", "round_publish"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_another_arbiter_can_neither_pair_nor_publish_a_round_of_the_system(stranger_client, swiss, name):
    add_players(swiss, 6)
    if name == "round_publish":
        pair_next_round(swiss)
    args = [swiss.slug] if name == "pair_next" else [swiss.slug, 1]
    assert stranger_client.post(reverse(f"pairing:{name}", args=args)).status_code == 404
    Tournament.objects.filter(pk=swiss.pk).update(public=True)
    assert stranger_client.post(reverse(f"pairing:{name}", args=args)).status_code == 403
    assert not swiss.round_set.exclude(status=RoundStatus.DRAFT).exists()
    assert swiss.round_set.exists() == (name == "round_publish")


@pytest.mark.parametrize("name", ["pair_next", "round_publish"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_an_anonymous_visitor_can_neither_pair_nor_publish_a_round_of_the_system(anon_client, swiss, name):
    add_players(swiss, 6)
    Tournament.objects.filter(pk=swiss.pk).update(public=True)
    if name == "round_publish":
        pair_next_round(swiss)
    args = [swiss.slug] if name == "pair_next" else [swiss.slug, 1]
    response = anon_client.post(reverse(f"pairing:{name}", args=args))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not swiss.round_set.exclude(status=RoundStatus.DRAFT).exists()


@pytest.mark.parametrize(("system", "players", "before"), [("dutch", 5, []), ("burstein", 7, [{}, {}])], ids=IDS)
def test_namesakes_are_told_apart_in_the_systems_explanation(chief_client, swiss, players, before):
    """Two players called "Novak, Ana" (SLO and CRO): every list of the explanation
    (residents, pairs, remainder, the PAB's eligible players) names each with their
    federation, as every page does (issue 32, item 10)."""
    from pairing.models import Player
    from pairing.services.numbering import renumber

    add_players(swiss, players)
    Player.objects.create(tournament=swiss, name="Novak, Ana", rating=2000, federation="SLO")
    Player.objects.create(tournament=swiss, name="Novak, Ana", rating=1990, federation="CRO")
    renumber(swiss)
    for results in before:
        play_round(swiss, results=results)
    rnd = pair_next_round(swiss)
    explanation = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = explanation[explanation.index('class="card explanation"'):]
    assert "Novak, Ana (SLO)" in explanation and "Novak, Ana (CRO)" in explanation
    assert "Novak, Ana;" not in explanation and "Novak, Ana<" not in explanation


@pytest.mark.parametrize(("system", "before", "ours", "warned"), [
    ("dutch", [{}], engine.System.DUTCH, False),
    ("burstein", SEEDING, engine.System.BURSTEIN, True),
], ids=IDS)
def test_a_manual_session_compares_with_the_systems_engine(chief_client, swiss, before, ours, warned):
    """Ending a session without a change: the round is the system's engine's pairing (the
    other system pairs it otherwise); after board 1's colours are swapped (a warning the
    arbiter answers, in the Burstein round) it differs and is recorded."""
    play_rounds(swiss, 11, before)
    number = len(before) + 1
    rnd = pair_next_round(swiss)
    manual.start_session(rnd)
    assert manual.end_session(rnd) == "Session ended; the round is the engine's pairing."
    manual.start_session(rnd)
    g = rnd.games().first()
    response = chief_client.post(reverse("pairing:round_swap", args=[swiss.slug, number]),
                                 {"a": g.white_id, "b": g.black_id})
    if warned:
        confirm(chief_client, response)
    response = chief_client.post(reverse("pairing:round_manual", args=[swiss.slug, number]), {"op": "end"})
    expected = " ".join(f"{w}-{b}" for w, b in engine_pairs(swiss, number, ours))
    assert f"The engine&#x27;s pairing: {expected}" in response.content.decode()
    confirm(chief_client, response)
    assert swiss.integrityevent_set.get().line.startswith(f"MPA @ Round {number}: {expected}")


@pytest.mark.parametrize("system", ["dutch", "dubov", "burstein"])
def test_c3_a_topscorer_may_meet_an_equal_absolute_preference_in_the_last_round_only_in_dutch(tournament, system):
    """Round 3 of 3: A (2 points, a topscorer by 1.8) and B (1 point) both had White twice,
    both absolute for Black.  A board A-B with White to A is allowed in the Dutch system
    ([C3] keeps only non-topscorers apart; [C10]/[C11] only minimise a third White): no
    warning.  Dubov has no topscorers, and Burstein's [C3] (1 seeding round) has no such
    exception: A's colour difference of +3 and the equal absolute preferences are warned."""
    Tournament.objects.filter(pk=tournament.pk).update(system=system, rounds=3)
    tournament.refresh_from_db()
    a, b, c, d = add_players(tournament, 4)
    played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
    played(tournament, 2, [(a, d, GameResult.WHITE_WINS), (b, c, GameResult.BLACK_WINS)])
    found = warnings_for(draft(tournament, 3, [(a, b), (c, d)]))
    if system == "dutch":
        states = engine.dutch_states(build_snapshot(tournament, 3))
        assert states[a.pk].topscorer and not states[b.pk].topscorer
        assert not [w for w in found if w.startswith("Board 1")]
    else:
        assert f"Board 1: {a.name} would reach a colour difference of +3 (C3)." in found
        assert f"Board 1: {a.name} and {b.name} both have an absolute preference for Black." in found


# -- publishing and exporting ----------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_rating_report_names_the_system(chief_client, swiss, system):
    facts = SYSTEMS[system]
    add_players(swiss, 6)
    play_round(swiss)
    response = chief_client.get(reverse("pairing:trf_export", args=[swiss.slug]))
    lines = response.content.decode().splitlines()
    assert response.status_code == 200
    assert f"192 {facts.code}" in lines and f"092 {facts.line_092}" in lines
    assert f"182 Dubov arbiter {VERSION} {facts.line_182}" in lines


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_rating_report_of_an_accelerated_tournament_is_the_systems_baku_code(deputy_client, swiss, system):
    Tournament.objects.filter(pk=swiss.pk).update(acceleration="baku")
    add_players(swiss, 8)
    play_round(swiss)
    lines = deputy_client.get(reverse("pairing:trf_export", args=[swiss.slug])).content.decode().splitlines()
    assert f"192 {SYSTEMS[system].code}_BAKU" in lines
    assert any(line.startswith("250 ") for line in lines)


@pytest.mark.parametrize("system", SYSTEMS)
def test_another_arbiter_and_a_visitor_get_no_rating_report(stranger_client, anon_client, swiss):
    add_players(swiss, 6)
    play_round(swiss)
    Tournament.objects.filter(pk=swiss.pk).update(public=True)
    url = reverse("pairing:trf_export", args=[swiss.slug])
    assert stranger_client.get(url).status_code == 403
    response = anon_client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize(("system", "rounds"), [
    ("dutch", [{0: DRAW}, {2: BLACK_WINS}, {}]),
    ("burstein", [*SEEDING, {2: DRAW}]),
], ids=IDS)
def test_the_exported_report_reimports_with_its_rounds_identical(chief_client, chief, swiss, system, rounds):
    """The report of the tournament (a draw, a black win, an odd field; for Burstein two
    seeding rounds and one Burstein round) imports into a new tournament created for Dubov:
    the file's 192 makes it the system (asked once, at Level 3: the tournament was created
    for another system), every round re-paired by the system's engine (the seeding rounds
    by the Dutch rules) is the file's (no pairing-integrity event), and the next round
    pairs alike."""
    play_rounds(swiss, 11, rounds)
    text = interchange.export_trf(swiss)
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    assert f"makes it the {SYSTEMS[system].label}" in response.content.decode()
    confirm(chief_client, response)
    fresh.refresh_from_db()
    assert fresh.system == system and fresh.rounds_published() == 3
    assert not fresh.integrityevent_set.exists()
    assert pairs(pair_next_round(fresh)) == pairs(pair_next_round(swiss))


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_file_of_the_system_into_a_tournament_of_the_system_imports_without_a_question(
    chief_client, chief, swiss, system
):
    add_players(swiss, 9)
    play_round(swiss)
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief, system=system)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]),
                                 {"text": interchange.export_trf(swiss)})
    assert response.status_code == 302
    assert fresh.player_set.count() == 9 and not fresh.integrityevent_set.exists()
    follow = chief_client.get(response["Location"]).content.decode()
    assert f"Tournament type (192): {SYSTEMS[system].code}." in follow


@pytest.mark.parametrize(("system", "rounds", "as_code", "agreeing"), [
    ("dutch", [{}, {}], "FIDE_DUBOV", []),
    ("burstein", [*SEEDING, {}], "FIDE_DUTCH", [1, 2]),
], ids=IDS)
def test_rounds_imported_as_another_system_are_checked_by_it_and_differ(
    chief_client, chief, swiss, system, rounds, as_code, agreeing
):
    """The same rounds under a file type of the other system: the check uses the system the
    file names, so the last round (where the systems differ) is a pairing the rules do not
    give; a Burstein tournament's seeding rounds agree with the Dutch rules."""
    play_rounds(swiss, 11, rounds)
    text = interchange.export_trf(swiss).replace(f"192 {SYSTEMS[system].code}", f"192 {as_code}")
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief, system=system)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    page = response.content.decode()
    assert "Rounds with other opponents than the rules give" in page and f"Round {len(rounds)}:" in page
    for number in agreeing:
        assert f"Round {number}:" not in page


# -- pages that depend on the system ---------------------------------------------------


@pytest.mark.parametrize(("system", "before"), [("dutch", [{}]), ("burstein", SEEDING)], ids=IDS)
def test_every_page_of_the_tournament_names_the_system_and_never_dubov(chief_client, anon_client, swiss, system, before):
    """The overview, the public home and the draft name the system; "Dubov", the ARO list
    (Dubov 9) and AROs appear on no page of the tournament."""
    Tournament.objects.filter(pk=swiss.pk).update(public=True)
    play_rounds(swiss, 7, before)
    pair_next_round(swiss)
    slug = swiss.slug
    player = swiss.player_set.order_by("tpn").first()
    overview = visible_text(chief_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert f"5 rounds, {SYSTEMS[system].label}" in overview
    urls = [reverse(f"pairing:{name}", args=[slug]) for name in (
        "tournament", "settings", "players", "absences", "standings", "crosstable", "fide_mode", "byes_grid",
        "forbidden_pairs", "tie_details", "pairing_numbers", "players_import", "trf_import", "audit", "deputies")]
    urls += [reverse("pairing:round", args=[slug, n]) for n in range(1, len(before) + 2)]
    urls += [reverse("pairing:player_edit", args=[slug, player.pk]),
             reverse("pairing:player_card", args=[slug, player.tpn])]
    for url in urls:
        text = visible_text(chief_client.get(url).content.decode())
        assert "Dubov" not in text and "ARO" not in text, (url, text[max(text.find("Dubov"), text.find("ARO")) - 300:][:400])
    public = visible_text(anon_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert f"5 rounds, {SYSTEMS[system].label}" in public and "Dubov" not in public and "ARO" not in public


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_tournament_of_the_system_has_no_aro_list(anon_client, chief_client, swiss):
    Tournament.objects.filter(pk=swiss.pk).update(public=True)
    add_players(swiss, 6)
    play_round(swiss)
    for name in ("aro", "aro_spread"):
        url = reverse(f"pairing:{name}", args=[swiss.slug])
        assert anon_client.get(url).status_code == 404
        assert chief_client.get(url).status_code == 404
    card = anon_client.get(reverse("pairing:player_card", args=[swiss.slug, 1])).content.decode()
    assert 'id="aro"' not in card


@pytest.mark.parametrize(("system", "rule"), [
    ("dutch", "the Dutch system pairs by score and pairing number only"),
    ("burstein", "the Burstein system pairs by score, the Index and pairing number"),
], ids=IDS)
def test_the_players_form_cites_the_general_rule(chief_client, swiss, rule):
    page = chief_client.get(reverse("pairing:players", args=[swiss.slug])).content.decode()
    assert "C.04.2 2.1" in page and rule in page
    assert "Dubov 1.1" not in page


@pytest.mark.parametrize(("system", "rounds"), [("dutch", SEEDING), ("burstein", [*SEEDING, {}])], ids=IDS)
def test_check_this_tournament_runs_the_systems_checker_and_finds_a_hand_made_round(swiss, system, rounds):
    """"Check this tournament" (the background job) gives the tournament's rating report to
    ``python -m pairing.engine --dutch FILE -c`` (``--burstein``): rounds the engine paired
    (a Burstein tournament's seeding rounds too) check clean, a round whose colours were
    reversed by hand is the finding."""
    from pairing import tasks
    from pairing.models import JobKind, JobStatus
    from pairing.services import jobs, tournament_check
    from tests.web.helpers import hand_changed_round

    play_rounds(swiss, 9, rounds)
    board = hand_changed_round(swiss)  # the next round, board 1's colours reversed
    number = len(rounds) + 1
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=swiss.owner, tournament=swiss)
    jobs.run(job.pk, tournament_check.run, worker_id="test")
    job.refresh_from_db()
    assert job.status == JobStatus.DONE
    assert job.result["command"] == f"python -m pairing.engine {SYSTEMS[system].option} {swiss.slug}.trf -c"
    assert job.result["differing"] == [number] and job.result["standings"] == []
    white, black = board.white.tpn, board.black.tpn
    assert job.result["rounds"][number - 1]["lines"] == [
        f"board 1: engine {white}-{black}, file {black}-{white} (colours swapped)"]
