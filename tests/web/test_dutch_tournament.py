"""A tournament paired with the FIDE Dutch system (C.04.3, 2026 text; issue 34): chosen at
creation, paired, published and exported by the Dutch engine, per persona (chief arbiter,
deputy, another arbiter, anonymous visitor)."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

import pytest
from django.urls import reverse

from pairing import engine
from pairing.engine.version import VERSION
from pairing.models import AuditEntry, Game, GameResult, Round, RoundStatus, Tournament
from pairing.services import interchange, manual
from pairing.services.rounds import pair_next_round
from pairing.services.snapshot import build_snapshot
from tests.web.helpers import add_players, confirm, play_round, shown_version
from tests.web.test_tournament_setup import GOOD


@pytest.fixture
def dutch(tournament):
    """The chief's tournament (deputy added), paired with the Dutch system."""
    Tournament.objects.filter(pk=tournament.pk).update(system="dutch")
    tournament.refresh_from_db()
    return tournament


def _pairs(rnd: Round) -> list[tuple[int, int]]:
    return [(g.white.tpn, g.black.tpn) for g in rnd.games()]


def _engine_pairs(t: Tournament, number: int, system: engine.System) -> list[tuple[int, int]]:
    snapshot = replace(build_snapshot(t, number), system=system)
    tpn = dict(t.player_set.values_list("pk", "tpn"))
    return [(tpn[b.white], tpn[b.black]) for b in engine.pair_round(snapshot).boards]


# -- creating -------------------------------------------------------------------------


def test_the_chief_arbiter_creates_a_dutch_tournament(chief_client, chief):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "dutch"})
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.owner, t.system, t.system_label) == (chief, "dutch", "FIDE Dutch system")
    created = AuditEntry.objects.get(tournament=t, action="create")
    assert created.after["system"] == "dutch"


def test_another_arbiter_creates_their_own_dutch_tournament_and_not_the_chiefs(stranger_client, stranger, dutch):
    response = stranger_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "dutch"})
    assert response.status_code == 302
    assert Tournament.objects.get(owner=stranger).system == "dutch"
    response = stranger_client.post(reverse("pairing:settings", args=[dutch.slug]), {
        **GOOD, "slug": dutch.slug, "system": "dubov", "seen": shown_version(dutch)})
    assert response.status_code == 404  # a private tournament: as if it did not exist
    assert Tournament.objects.get(pk=dutch.pk).system == "dutch"


def test_the_deputy_sets_up_the_chiefs_tournament_as_a_dutch_one_before_round_one(deputy_client, tournament):
    """The deputy of a tournament created with the default system switches it to Dutch on
    the settings page (round 1 not yet published): saved, and in the audit trail."""
    response = deputy_client.post(reverse("pairing:settings", args=[tournament.slug]), {
        **GOOD, "slug": tournament.slug, "system": "dutch", "seen": shown_version(tournament)})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.system == "dutch"
    change = AuditEntry.objects.filter(tournament=tournament, action="settings").latest("at")
    assert (change.before["system"], change.after["system"]) == ("dubov", "dutch")


def test_an_anonymous_visitor_creates_nothing(anon_client):
    response = anon_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "dutch"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Tournament.objects.exists()


def test_the_new_tournament_form_offers_the_three_systems(chief_client):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    for label in ("Swiss, FIDE Dutch system (C.04.3, 2026 text)", "Swiss, FIDE Dubov system (C.04.4.1)",
                  "Round robin, Berger tables (C.05 Annex 1)"):
        assert label in page


def test_vcl_q93_the_dutch_system_is_locked_once_round_one_is_published(chief_client, dutch):
    add_players(dutch, 6)
    pair_next_round(dutch)
    chief_client.post(reverse("pairing:settings", args=[dutch.slug]), {
        **GOOD, "slug": dutch.slug, "system": "dubov", "seen": shown_version(dutch)})
    dutch.refresh_from_db()
    assert dutch.system == "dubov"  # a draft of round 1 can still change system (it is discarded)
    assert not dutch.round_set.exists()
    Tournament.objects.filter(pk=dutch.pk).update(system="dutch")
    play_round(dutch)
    page = chief_client.get(reverse("pairing:settings", args=[dutch.slug])).content.decode()
    assert "Locked: round 1 has been published." in page
    chief_client.post(reverse("pairing:settings", args=[dutch.slug]), {
        **GOOD, "slug": dutch.slug, "system": "dubov", "seen": shown_version(dutch)})
    assert Tournament.objects.get(pk=dutch.pk).system == "dutch"


# -- pairing ---------------------------------------------------------------------------


def test_a_dutch_round_is_the_dutch_engines_pairing_not_dubovs(chief_client, dutch):
    """Eleven players, White wins in round 1: round 2 differs between the systems, and the
    draft is the Dutch engine's."""
    add_players(dutch, 11)
    play_round(dutch)
    response = chief_client.post(reverse("pairing:pair_next", args=[dutch.slug]))
    rnd = dutch.round_set.get(number=2)
    assert response.status_code == 302 and rnd.is_draft
    dutch_pairs = _engine_pairs(dutch, 2, engine.System.DUTCH)
    assert _pairs(rnd) == dutch_pairs != _engine_pairs(dutch, 2, engine.System.DUBOV)
    assert rnd.explanation["system"] == "dutch"


def test_the_deputy_pairs_and_publishes_a_dutch_round(deputy_client, dutch):
    add_players(dutch, 7)
    deputy_client.post(reverse("pairing:pair_next", args=[dutch.slug]))
    response = deputy_client.post(reverse("pairing:round_publish", args=[dutch.slug, 1]))
    rnd = dutch.round_set.get(number=1)
    assert response.status_code == 302 and rnd.status == RoundStatus.PUBLISHED
    assert _pairs(rnd) == _engine_pairs(dutch, 1, engine.System.DUTCH)


@pytest.mark.parametrize("name", ["pair_next", "round_publish"])
def test_another_arbiter_can_neither_pair_nor_publish_a_dutch_round(stranger_client, dutch, name):
    add_players(dutch, 6)
    if name == "round_publish":
        pair_next_round(dutch)
    args = [dutch.slug] if name == "pair_next" else [dutch.slug, 1]
    assert stranger_client.post(reverse(f"pairing:{name}", args=args)).status_code == 404
    Tournament.objects.filter(pk=dutch.pk).update(public=True)
    assert stranger_client.post(reverse(f"pairing:{name}", args=args)).status_code == 403
    assert not dutch.round_set.exclude(status=RoundStatus.DRAFT).exists()
    assert dutch.round_set.exists() == (name == "round_publish")


@pytest.mark.parametrize("name", ["pair_next", "round_publish"])
def test_an_anonymous_visitor_can_neither_pair_nor_publish(anon_client, dutch, name):
    add_players(dutch, 6)
    Tournament.objects.filter(pk=dutch.pk).update(public=True)
    if name == "round_publish":
        pair_next_round(dutch)
    args = [dutch.slug] if name == "pair_next" else [dutch.slug, 1]
    response = anon_client.post(reverse(f"pairing:{name}", args=args))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not dutch.round_set.exclude(status=RoundStatus.DRAFT).exists()


def test_the_draft_explains_each_dutch_bracket(chief_client, dutch):
    """The draft page explains the Dutch pairing: the PAB and who was eligible, per
    bracket the residents, the MDPs paired here or left in the Limbo, the pairs, the
    remainder, the downfloaters and the criteria that decided; the colour rule (5.2.x) of
    every board.  Names, not database ids."""
    add_players(dutch, 11)
    play_round(dutch, results={0: GameResult.DRAW, 2: GameResult.BLACK_WINS})
    play_round(dutch, results={1: GameResult.DRAW})
    rnd = pair_next_round(dutch)
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = page[page.index('class="card explanation"'):]
    assert "(FIDE Dutch system)" in explanation
    pab = rnd.pab().player
    assert f"<strong>{pab.name}</strong> (No {pab.tpn})" in explanation
    eligible = rnd.explanation["bye"]["eligible"]
    assert f"{len(eligible)} players eligible ([C2]" in explanation and "[C5]" in explanation
    first = dutch.player_set.get(pk=eligible[0])
    assert f"</summary> {first.tpn}. {first.name};" in explanation
    ex = rnd.explanation
    brackets = ex["brackets"]
    assert explanation.count('<section class="bracket"') == len(brackets)
    for b in brackets:  # scores as the tables write them: 3, 2.5 (not 3.0)
        assert f"Bracket {Decimal(b['score']).normalize():f}</h3>" in explanation
    # a bracket with an MDP: "paired here" names it, and its pair is marked
    with_mdp = next(b for b in brackets if b["moved_down"])
    mdp = dutch.player_set.get(pk=with_mdp["moved_down"][0])
    assert f"paired here: {mdp.tpn}. {mdp.name}" in explanation
    assert "(MDP pairing)" in explanation
    assert "Best candidate reached: [C6] pairs:" in explanation
    boards = list(rnd.games())
    for g in boards:
        assert re.search(rf"Board {g.board}: rule 5\.2\.[1-5] — ", explanation)
    assert "Residents" in explanation and "Downfloaters" in explanation
    # the engine's ids are database keys: the page names players instead
    stray = re.findall(r"\b(\d+) \(TPN \d+\)", explanation)
    assert not stray


def test_the_explanation_names_the_residents_an_exchange_moved(chief_client, dutch):
    """Round 1 of four players, No 1 forbidden to meet 3 and 4: S1 = {1, 2}, S2 = {3, 4}
    cannot pair No 1, so the remainder's exchange (4.3) swaps BSN 2 and 3.  The engine
    stores BSNs; the page names the players moved from S1 to S2 and back."""
    from pairing.models import ForbiddenPair

    p1, p2, p3, p4 = add_players(dutch, 4)
    ForbiddenPair.objects.create(tournament=dutch, player_a=p1, player_b=p3)
    ForbiddenPair.objects.create(tournament=dutch, player_a=p1, player_b=p4)
    rnd = pair_next_round(dutch)
    assert sorted(sorted(pair) for pair in _pairs(rnd)) == [[1, 2], [3, 4]]
    assert rnd.explanation["brackets"][0]["exchanged"] == [[2], [3]]
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert f"Exchange (4.3): {p2.name} from S1 to S2; {p3.name} from S2 to S1." in page
    assert f"S1: 1. {p1.name}; 3. {p3.name} · S2: 2. {p2.name}; 4. {p4.name}" in page


def test_namesakes_are_told_apart_in_a_dutch_explanation(chief_client, dutch):
    """Two players called "Novak, Ana" (SLO and CRO): every list of the Dutch explanation
    (residents, pairs, remainder, the PAB's eligible players) names each with their
    federation, as every page does (issue 32, item 10)."""
    from pairing.models import Player
    from pairing.services.numbering import renumber

    add_players(dutch, 5)
    Player.objects.create(tournament=dutch, name="Novak, Ana", rating=2000, federation="SLO")
    Player.objects.create(tournament=dutch, name="Novak, Ana", rating=1990, federation="CRO")
    renumber(dutch)
    rnd = pair_next_round(dutch)
    explanation = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = explanation[explanation.index('class="card explanation"'):]
    assert "Novak, Ana (SLO)" in explanation and "Novak, Ana (CRO)" in explanation
    assert "Novak, Ana;" not in explanation and "Novak, Ana<" not in explanation


def test_a_dubov_draft_keeps_its_own_explanation(chief_client, tournament):
    add_players(tournament, 7)
    rnd = pair_next_round(tournament)
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert "(FIDE Dubov system)" in page and "S1 (2.2.5)" in page
    assert '<section class="bracket"' not in page


def test_a_manual_session_in_a_dutch_round_compares_with_the_dutch_engine(chief_client, dutch):
    """Ending a session without a change: the round is the Dutch engine's pairing (the
    Dubov engine pairs round 2 otherwise); after a swap it differs and is recorded."""
    add_players(dutch, 11)
    play_round(dutch)
    rnd = pair_next_round(dutch)
    manual.start_session(rnd)
    assert manual.end_session(rnd) == "Session ended; the round is the engine's pairing."
    manual.start_session(rnd)
    g = rnd.games().first()
    chief_client.post(reverse("pairing:round_swap", args=[dutch.slug, 2]), {"a": g.white_id, "b": g.black_id})
    response = chief_client.post(reverse("pairing:round_manual", args=[dutch.slug, 2]), {"op": "end"})
    page = response.content.decode()
    expected = " ".join(f"{w}-{b}" for w, b in _engine_pairs(dutch, 2, engine.System.DUTCH))
    assert f"The engine&#x27;s pairing: {expected}" in page
    confirm(chief_client, response)
    assert dutch.integrityevent_set.get().line.startswith(f"MPA @ Round 2: {expected}")


def _played(t: Tournament, number: int, boards: list[tuple]) -> None:
    """Round ``number`` complete with ``boards`` (white, black, result)."""
    from django.utils import timezone

    rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.COMPLETE, published_at=timezone.now())
    Game.objects.create_boards(rnd, ((i, w.pk, b.pk, r) for i, (w, b, r) in enumerate(boards, start=1)))


def _draft(t: Tournament, number: int, boards: list[tuple]) -> Round:
    rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.DRAFT)
    Game.objects.create_boards(rnd, ((i, w.pk, b.pk, "") for i, (w, b) in enumerate(boards, start=1)))
    return rnd


@pytest.mark.parametrize("system", ["dutch", "dubov"])
def test_dutch_c3_a_topscorer_may_meet_an_equal_absolute_preference_in_the_last_round(tournament, system):
    """Round 3 of 3: A (2 points, a topscorer by 1.8) and B (1 point) both had White twice,
    both absolute for Black.  A board A-B with White to A is allowed in the Dutch system
    ([C3] keeps only non-topscorers apart; [C10]/[C11] only minimise a third White): no
    warning.  Dubov has no topscorers: A's colour difference of +3 and the equal absolute
    preferences are warned."""
    from pairing.services.rounds import warnings_for

    Tournament.objects.filter(pk=tournament.pk).update(system=system, rounds=3)
    tournament.refresh_from_db()
    a, b, c, d = add_players(tournament, 4)
    _played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
    _played(tournament, 2, [(a, d, GameResult.WHITE_WINS), (b, c, GameResult.BLACK_WINS)])
    rnd = _draft(tournament, 3, [(a, b), (c, d)])
    found = warnings_for(rnd)
    if system == "dutch":
        states = engine.dutch_states(build_snapshot(tournament, 3))
        assert states[a.pk].topscorer and not states[b.pk].topscorer
        assert not [w for w in found if w.startswith("Board 1")]
    else:
        assert f"Board 1: {a.name} would reach a colour difference of +3 (C3)." in found
        assert f"Board 1: {a.name} and {b.name} both have an absolute preference for Black." in found


def test_dutch_c3_two_non_topscorers_with_one_absolute_preference_are_warned(tournament):
    """The same board one round before the last: nobody is a topscorer, so the Dutch
    system warns as Dubov does ([C3], and the colour limit of C.04.1 7)."""
    from pairing.services.rounds import warnings_for

    Tournament.objects.filter(pk=tournament.pk).update(system="dutch", rounds=4)
    tournament.refresh_from_db()
    a, b, c, d = add_players(tournament, 4)
    _played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
    _played(tournament, 2, [(a, d, GameResult.WHITE_WINS), (b, c, GameResult.BLACK_WINS)])
    found = warnings_for(_draft(tournament, 3, [(a, b), (c, d)]))
    assert f"Board 1: {a.name} would reach a colour difference of +3 (C3)." in found
    assert f"Board 1: {a.name} and {b.name} both have an absolute preference for Black." in found


# -- publishing and exporting ----------------------------------------------------------


def test_the_rating_report_of_a_dutch_tournament_says_dutch(chief_client, dutch):
    add_players(dutch, 6)
    play_round(dutch)
    response = chief_client.get(reverse("pairing:trf_export", args=[dutch.slug]))
    lines = response.content.decode().splitlines()
    assert response.status_code == 200
    assert "192 FIDE_DUTCH" in lines and "092 Individual: Swiss system (FIDE Dutch)" in lines
    assert f"182 Dubov arbiter {VERSION} (FIDE Dutch system, C.04.3)" in lines


def test_the_rating_report_of_an_accelerated_dutch_tournament_is_fide_dutch_baku(deputy_client, dutch):
    Tournament.objects.filter(pk=dutch.pk).update(acceleration="baku")
    add_players(dutch, 8)
    play_round(dutch)
    lines = deputy_client.get(reverse("pairing:trf_export", args=[dutch.slug])).content.decode().splitlines()
    assert "192 FIDE_DUTCH_BAKU" in lines
    assert any(line.startswith("250 ") for line in lines)


def test_another_arbiter_and_a_visitor_get_no_rating_report(stranger_client, anon_client, dutch):
    add_players(dutch, 6)
    play_round(dutch)
    Tournament.objects.filter(pk=dutch.pk).update(public=True)
    url = reverse("pairing:trf_export", args=[dutch.slug])
    assert stranger_client.get(url).status_code == 403
    response = anon_client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_exported_dutch_report_reimports_with_its_rounds_identical(chief_client, chief, dutch):
    """The report of a Dutch tournament (a draw, a black win, an odd field) imports into a
    new tournament created for Dubov: the file's 192 makes it Dutch (asked once, at Level
    3: the tournament was created for another system), every round re-paired by the
    Dutch engine is the file's (no pairing-integrity event), and the next round pairs alike."""
    add_players(dutch, 11)
    for results in ({0: GameResult.DRAW}, {2: GameResult.BLACK_WINS}, {}):
        play_round(dutch, results=results)
    text = interchange.export_trf(dutch)
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    assert "makes it the FIDE Dutch system" in response.content.decode()
    confirm(chief_client, response)
    fresh.refresh_from_db()
    assert fresh.system == "dutch" and fresh.rounds_published() == 3
    assert not fresh.integrityevent_set.exists()
    assert _pairs(pair_next_round(fresh)) == _pairs(pair_next_round(dutch))


def test_a_dutch_file_into_a_dutch_tournament_imports_without_a_question(chief_client, chief, dutch):
    add_players(dutch, 9)
    play_round(dutch)
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief, system="dutch")
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]),
                                 {"text": interchange.export_trf(dutch)})
    assert response.status_code == 302
    assert fresh.player_set.count() == 9 and not fresh.integrityevent_set.exists()
    follow = chief_client.get(response["Location"]).content.decode()
    assert "Tournament type (192): FIDE_DUTCH." in follow


def test_dutch_rounds_imported_as_dubov_are_checked_by_dubov_and_differ(chief_client, chief, dutch):
    """The same rounds under a file type of the other system: the check uses the system the
    file names, so round 2 (where the systems differ) is a pairing the rules do not give."""
    add_players(dutch, 11)
    play_round(dutch)
    play_round(dutch)
    text = interchange.export_trf(dutch).replace("192 FIDE_DUTCH", "192 FIDE_DUBOV")
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief, system="dutch")
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    page = response.content.decode()
    assert "Rounds with other opponents than the rules give" in page and "Round 2:" in page


# -- pages that depend on the system ---------------------------------------------------


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style|title|option)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<label[^>]*><input type=\"radio\" name=\"system\".*?</label>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", page).replace("Dubov arbiter", "")


def test_every_page_of_a_dutch_tournament_names_the_dutch_system_and_never_dubov(
    chief_client, anon_client, dutch
):
    """The overview, the public home and the draft name the FIDE Dutch system; "Dubov",
    the ARO list (Dubov 9) and AROs appear on no page of the tournament."""
    Tournament.objects.filter(pk=dutch.pk).update(public=True)
    add_players(dutch, 7)
    play_round(dutch)
    pair_next_round(dutch)
    slug = dutch.slug
    player = dutch.player_set.order_by("tpn").first()
    overview = _visible_text(chief_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert "5 rounds, FIDE Dutch system" in overview
    urls = [reverse(f"pairing:{name}", args=[slug]) for name in (
        "tournament", "settings", "players", "absences", "standings", "crosstable", "fide_mode", "byes_grid",
        "forbidden_pairs", "tie_details", "pairing_numbers", "players_import", "trf_import", "audit", "deputies")]
    urls += [reverse("pairing:round", args=[slug, 1]), reverse("pairing:round", args=[slug, 2]),
             reverse("pairing:player_edit", args=[slug, player.pk]),
             reverse("pairing:player_card", args=[slug, player.tpn])]
    for url in urls:
        text = _visible_text(chief_client.get(url).content.decode())
        assert "Dubov" not in text and "ARO" not in text, (url, text[max(text.find("Dubov"), text.find("ARO")) - 300:][:400])
    public = _visible_text(anon_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert "5 rounds, FIDE Dutch system" in public and "Dubov" not in public and "ARO" not in public


def test_a_dutch_tournament_has_no_aro_list(anon_client, chief_client, dutch):
    Tournament.objects.filter(pk=dutch.pk).update(public=True)
    add_players(dutch, 6)
    play_round(dutch)
    url = reverse("pairing:aro", args=[dutch.slug])
    assert anon_client.get(url).status_code == 404
    assert chief_client.get(url).status_code == 404


def test_a_dubov_tournament_keeps_its_aro_list(anon_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    add_players(tournament, 6)
    play_round(tournament)
    assert anon_client.get(reverse("pairing:aro", args=[tournament.slug])).status_code == 200
    card = anon_client.get(reverse("pairing:player_card", args=[tournament.slug, 1])).content.decode()
    assert 'id="aro"' in card


def test_the_players_form_of_a_dutch_tournament_cites_the_general_rule(chief_client, dutch):
    page = chief_client.get(reverse("pairing:players", args=[dutch.slug])).content.decode()
    assert "C.04.2 2.1" in page and "Dubov 1.1" not in page


def test_check_this_tournament_runs_the_dutch_checker_and_finds_a_hand_made_round(chief_client, dutch):
    """"Check this tournament" (the background job) gives the tournament's rating report to
    ``python -m pairing.engine --dutch FILE -c``: rounds the Dutch engine paired check clean,
    a round whose colours were reversed by hand is the finding."""
    from pairing import tasks
    from pairing.models import JobKind, JobStatus
    from pairing.services import jobs, tournament_check
    from tests.web.helpers import hand_changed_round

    add_players(dutch, 9)
    for results in ({0: GameResult.DRAW}, {1: GameResult.BLACK_WINS}):
        play_round(dutch, results=results)
    board = hand_changed_round(dutch)  # round 3, board 1's colours reversed
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=dutch.owner, tournament=dutch)
    jobs.run(job.pk, tournament_check.run, worker_id="test")
    job.refresh_from_db()
    assert job.status == JobStatus.DONE
    assert job.result["command"] == f"python -m pairing.engine --dutch {dutch.slug}.trf -c"
    assert job.result["differing"] == [3] and job.result["standings"] == []
    white, black = board.white.tpn, board.black.tpn
    assert job.result["rounds"][2]["lines"] == [f"board 1: engine {white}-{black}, file {black}-{white} (colours swapped)"]
