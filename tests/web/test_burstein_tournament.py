"""A tournament paired with the FIDE Burstein system (C.04.4.2, 2026 text; issue 40): chosen
at creation, its seeding rounds paired by the Dutch engine and the rest by the Burstein
engine, each bracket explained with its players' Index, published and exported with its
192 code, per persona (chief arbiter, deputy, another arbiter, anonymous visitor)."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

import pytest
from django.urls import reverse

from pairing import engine
from pairing.engine.version import VERSION
from pairing.models import AuditEntry, GameResult, Round, RoundStatus, Tournament
from pairing.services import interchange, manual
from pairing.services.rounds import pair_next_round, swap_players, warnings_for
from pairing.services.snapshot import build_snapshot
from tests.web.helpers import add_players, confirm, out_of_fide_mode, play_round, shown_version
from tests.web.test_dutch_tournament import _draft, _played, _visible_text
from tests.web.test_tournament_setup import GOOD


@pytest.fixture
def burstein(tournament):
    """The chief's tournament (deputy added; 5 rounds, so rounds 1-2 are the seeding
    rounds of 1.6.2), paired with the Burstein system."""
    Tournament.objects.filter(pk=tournament.pk).update(system="burstein")
    tournament.refresh_from_db()
    return tournament


def _pairs(rnd: Round) -> list[tuple[int, int]]:
    return [(g.white.tpn, g.black.tpn) for g in rnd.games()]


def _engine_pairs(t: Tournament, number: int, system: engine.System) -> list[tuple[int, int]]:
    snapshot = replace(build_snapshot(t, number), system=system)
    tpn = dict(t.player_set.values_list("pk", "tpn"))
    return [(tpn[b.white], tpn[b.black]) for b in engine.pair_round(snapshot).boards]


def _two_seeding_rounds(t: Tournament, players: int = 11) -> None:
    """``players`` players and the two seeding rounds played: a draw on board 1 of round 1,
    a Black win on board 2 of round 2, White wins elsewhere (with 11 players, round 3
    differs between the Burstein and the Dutch system)."""
    add_players(t, players)
    play_round(t, results={0: GameResult.DRAW})
    play_round(t, results={1: GameResult.BLACK_WINS})


# -- creating -------------------------------------------------------------------------


def test_the_chief_arbiter_creates_a_burstein_tournament(chief_client, chief):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "burstein"})
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.owner, t.system, t.system_label) == (chief, "burstein", "FIDE Burstein system")
    assert AuditEntry.objects.get(tournament=t, action="create").after["system"] == "burstein"


def test_another_arbiter_creates_their_own_burstein_tournament_and_not_the_chiefs(stranger_client, stranger, burstein):
    response = stranger_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "burstein"})
    assert response.status_code == 302
    assert Tournament.objects.get(owner=stranger).system == "burstein"
    response = stranger_client.post(reverse("pairing:settings", args=[burstein.slug]), {
        **GOOD, "slug": burstein.slug, "system": "dutch", "seen": shown_version(burstein)})
    assert response.status_code == 404  # a private tournament: as if it did not exist
    assert Tournament.objects.get(pk=burstein.pk).system == "burstein"


def test_the_deputy_sets_up_the_chiefs_tournament_as_a_burstein_one_before_round_one(deputy_client, tournament):
    response = deputy_client.post(reverse("pairing:settings", args=[tournament.slug]), {
        **GOOD, "slug": tournament.slug, "system": "burstein", "seen": shown_version(tournament)})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.system == "burstein"
    change = AuditEntry.objects.filter(tournament=tournament, action="settings").latest("at")
    assert (change.before["system"], change.after["system"]) == ("dubov", "burstein")


def test_an_anonymous_visitor_creates_no_burstein_tournament(anon_client):
    response = anon_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "burstein"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Tournament.objects.exists()


def test_the_new_tournament_form_offers_the_burstein_system(chief_client):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    assert "Swiss, FIDE Burstein system (C.04.4.2, 2026 text)" in page
    assert 'value="burstein"' in page


def test_vcl_q93_the_burstein_system_is_locked_once_round_one_is_published(chief_client, burstein):
    add_players(burstein, 6)
    play_round(burstein)
    page = chief_client.get(reverse("pairing:settings", args=[burstein.slug])).content.decode()
    assert "Locked: round 1 has been published." in page
    chief_client.post(reverse("pairing:settings", args=[burstein.slug]), {
        **GOOD, "slug": burstein.slug, "system": "dutch", "seen": shown_version(burstein)})
    assert Tournament.objects.get(pk=burstein.pk).system == "burstein"


def test_the_number_of_rounds_cannot_move_a_published_round_across_the_seeding_line(chief_client, burstein):
    """1.6.2: 9 rounds make rounds 1-4 seeding rounds.  Out of FIDE mode (in it the number of
    rounds is locked after round 1), after five published rounds, 7 rounds (3 seeding
    rounds) would make round 4, paired by the Dutch rules, a Burstein round: refused,
    nothing saved.  10 rounds keep 4 seeding rounds: saved (outside FIDE mode the change is
    asked at Level 3 first)."""
    Tournament.objects.filter(pk=burstein.pk).update(rounds=9)
    out_of_fide_mode(burstein)
    add_players(burstein, 8)
    for _ in range(5):
        play_round(burstein)
    url = reverse("pairing:settings", args=[burstein.slug])
    response = chief_client.post(url, {**GOOD, "slug": burstein.slug, "rounds": 7, "seen": shown_version(burstein)})
    assert response.status_code == 200
    assert ("With 7 rounds the Burstein system has 3 seeding rounds (1.6.2: half the rounds, at most four), not 4: "
            "round 4, published, was paired as a seeding round.") in response.content.decode()
    assert Tournament.objects.get(pk=burstein.pk).rounds == 9
    response = chief_client.post(url, {**GOOD, "slug": burstein.slug, "rounds": 10, "seen": shown_version(burstein)})
    if response.status_code == 200:
        response = confirm(chief_client, response)
    assert response.status_code == 302 and Tournament.objects.get(pk=burstein.pk).rounds == 10


# -- pairing ---------------------------------------------------------------------------


def test_the_seeding_rounds_are_the_dutch_engines_and_say_so(chief_client, burstein):
    """1.6: with 5 rounds, rounds 1 and 2 are seeding rounds, paired by the Dutch rules.
    The draft is the Dutch engine's pairing, explained in the Dutch terms, and the page
    says which seeding round it is."""
    add_players(burstein, 11)
    rnd = pair_next_round(burstein)
    assert _pairs(rnd) == _engine_pairs(burstein, 1, engine.System.DUTCH)
    assert rnd.explanation["system"] == "dutch" and rnd.explanation["seeding"] == {"round": 1, "of": 2}
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = page[page.index('class="card explanation"'):]
    assert "(FIDE Burstein system)" in explanation
    assert "Seeding round 1 of 2 (Burstein 1.6): paired by the rules of the FIDE Dutch system" in explanation
    assert "MDPs (moved down from above)" in explanation and "Index, in BSN order" not in explanation


def test_a_burstein_round_after_the_seeding_rounds_is_the_burstein_engines_not_the_dutch(chief_client, burstein):
    _two_seeding_rounds(burstein)
    response = chief_client.post(reverse("pairing:pair_next", args=[burstein.slug]))
    rnd = burstein.round_set.get(number=3)
    assert response.status_code == 302 and rnd.is_draft
    ours = _engine_pairs(burstein, 3, engine.System.BURSTEIN)
    assert _pairs(rnd) == ours != _engine_pairs(burstein, 3, engine.System.DUTCH)
    assert rnd.explanation["system"] == "burstein" and "seeding" not in rnd.explanation


def test_the_deputy_pairs_and_publishes_a_burstein_round(deputy_client, burstein):
    _two_seeding_rounds(burstein, players=7)
    deputy_client.post(reverse("pairing:pair_next", args=[burstein.slug]))
    response = deputy_client.post(reverse("pairing:round_publish", args=[burstein.slug, 3]))
    rnd = burstein.round_set.get(number=3)
    assert response.status_code == 302 and rnd.status == RoundStatus.PUBLISHED
    assert _pairs(rnd) == _engine_pairs(burstein, 3, engine.System.BURSTEIN)


@pytest.mark.parametrize("name", ["pair_next", "round_publish"])
def test_another_arbiter_can_neither_pair_nor_publish_a_burstein_round(stranger_client, burstein, name):
    add_players(burstein, 6)
    if name == "round_publish":
        pair_next_round(burstein)
    args = [burstein.slug] if name == "pair_next" else [burstein.slug, 1]
    assert stranger_client.post(reverse(f"pairing:{name}", args=args)).status_code == 404
    Tournament.objects.filter(pk=burstein.pk).update(public=True)
    assert stranger_client.post(reverse(f"pairing:{name}", args=args)).status_code == 403
    assert not burstein.round_set.exclude(status=RoundStatus.DRAFT).exists()
    assert burstein.round_set.exists() == (name == "round_publish")


@pytest.mark.parametrize("name", ["pair_next", "round_publish"])
def test_an_anonymous_visitor_can_neither_pair_nor_publish_a_burstein_round(anon_client, burstein, name):
    add_players(burstein, 6)
    Tournament.objects.filter(pk=burstein.pk).update(public=True)
    if name == "round_publish":
        pair_next_round(burstein)
    args = [burstein.slug] if name == "pair_next" else [burstein.slug, 1]
    response = anon_client.post(reverse(f"pairing:{name}", args=args))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not burstein.round_set.exclude(status=RoundStatus.DRAFT).exists()


def _exact(value: Decimal) -> str:
    return format(value.normalize(), "f")


def test_the_draft_explains_each_burstein_bracket_with_every_players_index(chief_client, burstein):
    """Round 3 (the first after the seeding rounds): the page explains the PAB and who was
    eligible in the order of 3.1, and per bracket the residents, the incoming floaters,
    every player in BSN order with their Buchholz and Sonneborn-Berger (the engine's
    figures, exact), the pairs with their BSNs, the outgoing floaters and the criteria
    that decided; the colour rule (5.2.x) of every board.  Names, not database ids."""
    _two_seeding_rounds(burstein)
    rnd = pair_next_round(burstein)
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = page[page.index('class="card explanation"'):]
    assert "(FIDE Burstein system)" in explanation and "Seeding round" not in explanation
    pab = rnd.pab().player
    assert f"<strong>{pab.name}</strong> (No {pab.tpn})" in explanation
    eligible = rnd.explanation["bye"]["eligible"]
    assert f"{len(eligible)} players eligible ([C2]" in explanation and "lowest Index" in explanation
    brackets = rnd.explanation["brackets"]
    assert explanation.count('<section class="bracket"') == len(brackets)
    states = engine.burstein_states(build_snapshot(burstein, 3))
    by_pk = {p.pk: p for p in burstein.player_set.all()}
    sections = explanation.split('<section class="bracket"')[1:]
    for b, section in zip(brackets, sections, strict=True):
        assert f"Bracket {Decimal(b['score']).normalize():f}</h3>" in section
        rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td><td>([^<]+)", section)
        # BSN 1, 2, ... in the order of 1.8: the higher Buchholz, then Sonneborn-Berger, then TPN
        members = [pk for pk, _, _ in b["index"]]
        assert [(int(n), int(tpn)) for n, tpn, _ in rows] == [(k, by_pk[pk].tpn) for k, pk in enumerate(members, 1)]
        keys = [(-states[pk].buchholz, -states[pk].sonneborn_berger, states[pk].tpn) for pk in members]
        assert keys == sorted(keys)
        for pk in members:
            st = states[pk]
            assert (f'<td class="num">{_exact(st.buchholz)}</td><td class="num">{_exact(st.sonneborn_berger)}</td>'
                    in section)
        assert "Outgoing floaters" in section and "Incoming floaters" in section
    with_floater = next(s for b, s in zip(brackets, sections, strict=True) if b["moved_down"])
    assert "(incoming floater)" in with_floater
    first = next(b for b in brackets if b["s1"])
    a, z = by_pk[first["s1"][0]], by_pk[first["t2"][0]]
    bsn = {pk: n for n, (pk, _, _) in enumerate(first["index"], start=1)}
    assert (f"{a.tpn}. {a.name} – {z.tpn}. {z.name} <span class=\"muted\">(BSN {bsn[a.pk]}–{bsn[z.pk]})</span>"
            in explanation)
    assert "Best candidate reached: [C5] pairs:" in explanation or "first best (3.2.2)" in explanation
    for g in rnd.games():
        assert re.search(rf"Board {g.board}: rule 5\.2\.[1-5] — ", explanation)
    assert not re.findall(r"\b(\d+) \(TPN \d+\)", explanation)  # the engine's ids never shown


def test_the_index_shown_counts_an_unplayed_round_as_a_game_against_oneself(chief_client, burstein):
    """1.7.2: a player with a half-point bye in round 2 adds their own score for that round
    to their Buchholz (and the bye's half point times it to their Sonneborn-Berger); the
    draft's table shows those figures."""
    from pairing.models import Bye, ByeKind

    players = add_players(burstein, 8)
    play_round(burstein)
    Bye.objects.create(tournament=burstein, player=players[7], round_number=2, kind=ByeKind.HALF)
    play_round(burstein, results={0: GameResult.DRAW})
    rnd = pair_next_round(burstein)
    p = players[7]
    snapshot = build_snapshot(burstein, 3)
    st = engine.burstein_states(snapshot)[p.pk]
    history = next(q.history for q in snapshot.players if q.id == p.pk)
    opponent = history[0].opponent
    expected_bh = engine.burstein_states(snapshot)[opponent].points + st.points  # the opponent, then oneself
    assert st.buchholz == expected_bh
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert re.search(rf"<td>{p.tpn}</td><td>{re.escape(p.name)}(?: <span[^<]*</span>)?</td>"
                     rf"<td class=\"num\">{_exact(st.buchholz)}</td>", page)


def test_namesakes_are_told_apart_in_a_burstein_explanation(chief_client, burstein):
    from pairing.models import Player
    from pairing.services.numbering import renumber

    add_players(burstein, 7)
    Player.objects.create(tournament=burstein, name="Novak, Ana", rating=2000, federation="SLO")
    Player.objects.create(tournament=burstein, name="Novak, Ana", rating=1990, federation="CRO")
    renumber(burstein)
    play_round(burstein)
    play_round(burstein)
    rnd = pair_next_round(burstein)
    explanation = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = explanation[explanation.index('class="card explanation"'):]
    assert "Novak, Ana (SLO)" in explanation and "Novak, Ana (CRO)" in explanation
    assert "Novak, Ana;" not in explanation and "Novak, Ana<" not in explanation


def test_a_manual_session_in_a_burstein_round_compares_with_the_burstein_engine(chief_client, burstein):
    _two_seeding_rounds(burstein)
    rnd = pair_next_round(burstein)
    manual.start_session(rnd)
    assert manual.end_session(rnd) == "Session ended; the round is the engine's pairing."
    manual.start_session(rnd)
    g = rnd.games().first()
    swap_players(rnd, g.white, g.black, confirmations=1)  # board 1's colours reversed (a warning answered)
    response = chief_client.post(reverse("pairing:round_manual", args=[burstein.slug, 3]), {"op": "end"})
    expected = " ".join(f"{w}-{b}" for w, b in _engine_pairs(burstein, 3, engine.System.BURSTEIN))
    assert f"The engine&#x27;s pairing: {expected}" in response.content.decode()
    confirm(chief_client, response)
    assert burstein.integrityevent_set.get().line.startswith(f"MPA @ Round 3: {expected}")


def test_burstein_c3_has_no_topscorer_exception_in_the_last_round(tournament):
    """Round 3 of 3 (1 seeding round): A (2 points) and B (1 point) both had White twice,
    both absolute for Black.  The Dutch system lets a topscorer meet them there; Burstein's
    [C3] has no exception, so the draft's board A-B is warned."""
    Tournament.objects.filter(pk=tournament.pk).update(system="burstein", rounds=3)
    tournament.refresh_from_db()
    a, b, c, d = add_players(tournament, 4)
    _played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
    _played(tournament, 2, [(a, d, GameResult.WHITE_WINS), (b, c, GameResult.BLACK_WINS)])
    found = warnings_for(_draft(tournament, 3, [(a, b), (c, d)]))
    assert f"Board 1: {a.name} would reach a colour difference of +3 (C3)." in found
    assert f"Board 1: {a.name} and {b.name} both have an absolute preference for Black." in found


def test_a_burstein_pab_after_a_full_point_bye_is_warned(tournament):
    """[C2] (Basic Rule 4 of 2026): a player who scored a win's points without playing (a
    full-point bye) may not get the PAB; a draft giving it to them is warned."""
    from pairing.models import Bye, ByeKind

    Tournament.objects.filter(pk=tournament.pk).update(system="burstein")
    tournament.refresh_from_db()
    a, b, c, d, e = add_players(tournament, 5)
    Bye.objects.create(tournament=tournament, player=e, round_number=1, kind=ByeKind.FULL)
    _played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
    rnd = Round.objects.create(tournament=tournament, number=2, status=RoundStatus.DRAFT)
    from pairing.models import Game

    Game.objects.create_boards(rnd, [(1, a.pk, b.pk, ""), (2, c.pk, d.pk, "")])
    Bye.objects.create(tournament=tournament, player=e, round_number=2, kind=ByeKind.PAIRING)
    found = warnings_for(rnd)
    assert any(w.startswith(f"PAB: {e.name} is not eligible") for w in found)


def test_an_accelerated_burstein_tournament_pairs_with_baku(burstein):
    """C.04.7 is general: Baku's virtual points make the scoregroups of a Burstein round
    (the Index counts real points only, 1.7.2)."""
    Tournament.objects.filter(pk=burstein.pk).update(acceleration="baku")
    burstein.refresh_from_db()
    add_players(burstein, 16)
    play_round(burstein)
    play_round(burstein)
    rnd = pair_next_round(burstein)
    assert rnd.explanation["system"] == "burstein"
    assert _pairs(rnd) == _engine_pairs(burstein, 3, engine.System.BURSTEIN)


# -- publishing and exporting ----------------------------------------------------------


def test_the_rating_report_of_a_burstein_tournament_says_burstein(chief_client, burstein):
    add_players(burstein, 6)
    play_round(burstein)
    response = chief_client.get(reverse("pairing:trf_export", args=[burstein.slug]))
    lines = response.content.decode().splitlines()
    assert response.status_code == 200
    assert "192 FIDE_BURSTEIN" in lines and "092 Individual: Swiss system (FIDE Burstein)" in lines
    assert f"182 Dubov arbiter {VERSION} (FIDE Burstein system, C.04.4.2)" in lines


def test_the_rating_report_of_an_accelerated_burstein_tournament_is_fide_burstein_baku(deputy_client, burstein):
    Tournament.objects.filter(pk=burstein.pk).update(acceleration="baku")
    add_players(burstein, 8)
    play_round(burstein)
    lines = deputy_client.get(reverse("pairing:trf_export", args=[burstein.slug])).content.decode().splitlines()
    assert "192 FIDE_BURSTEIN_BAKU" in lines
    assert any(line.startswith("250 ") for line in lines)


def test_another_arbiter_and_a_visitor_get_no_burstein_report(stranger_client, anon_client, burstein):
    add_players(burstein, 6)
    play_round(burstein)
    Tournament.objects.filter(pk=burstein.pk).update(public=True)
    url = reverse("pairing:trf_export", args=[burstein.slug])
    assert stranger_client.get(url).status_code == 403
    response = anon_client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_exported_burstein_report_reimports_with_its_rounds_identical(chief_client, chief, burstein):
    """The report of a Burstein tournament (two seeding rounds and one Burstein round)
    imports into a new tournament created for Dubov: the file's 192 makes it Burstein
    (asked once, at Level 3), every round re-paired by the Burstein engine (the seeding
    rounds by its Dutch rules) is the file's, and the next round pairs alike."""
    _two_seeding_rounds(burstein)
    play_round(burstein, results={2: GameResult.DRAW})
    text = interchange.export_trf(burstein)
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    assert "makes it the FIDE Burstein system" in response.content.decode()
    confirm(chief_client, response)
    fresh.refresh_from_db()
    assert fresh.system == "burstein" and fresh.rounds_published() == 3
    assert not fresh.integrityevent_set.exists()
    assert _pairs(pair_next_round(fresh)) == _pairs(pair_next_round(burstein))


def test_a_burstein_file_into_a_burstein_tournament_imports_without_a_question(chief_client, chief, burstein):
    add_players(burstein, 9)
    play_round(burstein)
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief, system="burstein")
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]),
                                 {"text": interchange.export_trf(burstein)})
    assert response.status_code == 302
    assert fresh.player_set.count() == 9 and not fresh.integrityevent_set.exists()
    assert "Tournament type (192): FIDE_BURSTEIN." in chief_client.get(response["Location"]).content.decode()


def test_burstein_rounds_imported_as_dutch_are_checked_by_dutch_and_differ(chief_client, chief, burstein):
    """The same rounds under the Dutch type: the seeding rounds agree (they are Dutch), round
    3 (where the systems differ) is a pairing the Dutch rules do not give."""
    _two_seeding_rounds(burstein)
    play_round(burstein)
    text = interchange.export_trf(burstein).replace("192 FIDE_BURSTEIN", "192 FIDE_DUTCH")
    fresh = Tournament.objects.create(slug="copy", name="Copy", owner=chief, system="burstein")
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    page = response.content.decode()
    assert "Rounds with other opponents than the rules give" in page and "Round 3:" in page
    assert "Round 1:" not in page and "Round 2:" not in page


# -- pages that depend on the system ---------------------------------------------------


def test_every_page_of_a_burstein_tournament_names_the_burstein_system_and_never_dubov(
    chief_client, anon_client, burstein
):
    """The overview, the public home and the draft name the FIDE Burstein system; "Dubov",
    the ARO list (Dubov 9) and AROs appear on no page of the tournament."""
    Tournament.objects.filter(pk=burstein.pk).update(public=True)
    _two_seeding_rounds(burstein, players=7)
    pair_next_round(burstein)
    slug = burstein.slug
    player = burstein.player_set.order_by("tpn").first()
    overview = _visible_text(chief_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert "5 rounds, FIDE Burstein system" in overview
    urls = [reverse(f"pairing:{name}", args=[slug]) for name in (
        "tournament", "settings", "players", "absences", "standings", "crosstable", "fide_mode", "byes_grid",
        "forbidden_pairs", "tie_details", "pairing_numbers", "players_import", "trf_import", "audit", "deputies")]
    urls += [reverse("pairing:round", args=[slug, n]) for n in (1, 2, 3)]
    urls += [reverse("pairing:player_edit", args=[slug, player.pk]),
             reverse("pairing:player_card", args=[slug, player.tpn])]
    for url in urls:
        text = _visible_text(chief_client.get(url).content.decode())
        assert "Dubov" not in text and "ARO" not in text, (url, text[max(text.find("Dubov"), text.find("ARO")) - 300:][:400])
    public = _visible_text(anon_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert "5 rounds, FIDE Burstein system" in public and "Dubov" not in public and "ARO" not in public


def test_a_burstein_tournament_has_no_aro_list(anon_client, chief_client, burstein):
    Tournament.objects.filter(pk=burstein.pk).update(public=True)
    add_players(burstein, 6)
    play_round(burstein)
    url = reverse("pairing:aro", args=[burstein.slug])
    assert anon_client.get(url).status_code == 404
    assert chief_client.get(url).status_code == 404
    card = anon_client.get(reverse("pairing:player_card", args=[burstein.slug, 1])).content.decode()
    assert 'id="aro"' not in card


def test_the_players_form_of_a_burstein_tournament_cites_the_general_rule(chief_client, burstein):
    page = chief_client.get(reverse("pairing:players", args=[burstein.slug])).content.decode()
    assert "C.04.2 2.1" in page and "the Burstein system pairs by score, the Index and pairing number" in page
    assert "Dubov 1.1" not in page


def test_check_this_tournament_runs_the_burstein_checker_and_finds_a_hand_made_round(burstein):
    """"Check this tournament" gives the report to ``python -m pairing.engine --burstein
    FILE -c``: the seeding rounds and the Burstein round check clean, a round whose
    colours were reversed by hand is the finding."""
    from pairing import tasks
    from pairing.models import JobKind, JobStatus
    from pairing.services import jobs, tournament_check
    from tests.web.helpers import hand_changed_round

    _two_seeding_rounds(burstein, players=9)
    play_round(burstein)
    board = hand_changed_round(burstein)  # round 4, board 1's colours reversed
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=burstein.owner, tournament=burstein)
    jobs.run(job.pk, tournament_check.run, worker_id="test")
    job.refresh_from_db()
    assert job.status == JobStatus.DONE
    assert job.result["command"] == f"python -m pairing.engine --burstein {burstein.slug}.trf -c"
    assert job.result["differing"] == [4] and job.result["standings"] == []
    white, black = board.white.tpn, board.black.tpn
    assert job.result["rounds"][3]["lines"] == [f"board 1: engine {white}-{black}, file {black}-{white} (colours swapped)"]
