"""A tournament paired with the FIDE Dutch system (C.04.3, 2026 text; issue 34): what only
the Dutch system does -- the draft's explanation bracket by bracket, [C3]'s topscorers --
and what a Dubov tournament keeps beside it.  What the Dutch and the Burstein tournaments
do alike (creating, pairing, publishing, exporting, per persona) is in
test_dutch_and_burstein_tournaments.py."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from pairing.models import GameResult, Tournament
from pairing.services.rounds import pair_next_round, warnings_for
from tests.web.helpers import add_players, play_round
from tests.web.system_helpers import draft, pairs, played, with_system


@pytest.fixture
def dutch(tournament):
    """The chief's tournament (deputy added), paired with the Dutch system."""
    return with_system(tournament, "dutch")


# -- creating -------------------------------------------------------------------------


def test_the_new_tournament_form_offers_the_three_systems(chief_client):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    for label in ("Swiss, FIDE Dutch system (C.04.3, 2026 text)", "Swiss, FIDE Dubov system (C.04.4.1)",
                  "Round robin, Berger tables (C.05 Annex 1)"):
        assert label in page


# -- pairing ---------------------------------------------------------------------------


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
    assert sorted(sorted(pair) for pair in pairs(rnd)) == [[1, 2], [3, 4]]
    assert rnd.explanation["brackets"][0]["exchanged"] == [[2], [3]]
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert f"Exchange (4.3): {p2.name} from S1 to S2; {p3.name} from S2 to S1." in page
    assert f"S1: 1. {p1.name}; 3. {p3.name} · S2: 2. {p2.name}; 4. {p4.name}" in page


def test_a_dubov_draft_keeps_its_own_explanation(chief_client, tournament):
    add_players(tournament, 7)
    rnd = pair_next_round(tournament)
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert "(FIDE Dubov system)" in page and "S1 (2.2.5)" in page
    assert '<section class="bracket"' not in page


def test_dutch_c3_two_non_topscorers_with_one_absolute_preference_are_warned(tournament):
    """Round 3 of 4: A (2 points) and B (1 point) both had White twice, both absolute for
    Black.  One round before the last nobody is a topscorer, so the Dutch system warns of
    a board A-B as Dubov does ([C3], and the colour limit of C.04.1 7)."""
    Tournament.objects.filter(pk=tournament.pk).update(system="dutch", rounds=4)
    tournament.refresh_from_db()
    a, b, c, d = add_players(tournament, 4)
    played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
    played(tournament, 2, [(a, d, GameResult.WHITE_WINS), (b, c, GameResult.BLACK_WINS)])
    found = warnings_for(draft(tournament, 3, [(a, b), (c, d)]))
    assert f"Board 1: {a.name} would reach a colour difference of +3 (C3)." in found
    assert f"Board 1: {a.name} and {b.name} both have an absolute preference for Black." in found


# -- pages that depend on the system ---------------------------------------------------


def test_a_dubov_tournament_keeps_its_aro_list(anon_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    add_players(tournament, 6)
    play_round(tournament)
    assert anon_client.get(reverse("pairing:aro", args=[tournament.slug])).status_code == 200
    card = anon_client.get(reverse("pairing:player_card", args=[tournament.slug, 1])).content.decode()
    assert 'id="aro"' in card
