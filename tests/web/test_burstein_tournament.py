"""A tournament paired with the FIDE Burstein system (C.04.4.2, 2026 text; issue 40): what
only the Burstein system does -- its seeding rounds paired by the Dutch engine and the
rest by the Burstein engine, each bracket explained with its players' Index, the number of
rounds held to the seeding line, the PAB's [C2], Baku's acceleration.  What the Dutch and
the Burstein tournaments do alike (creating, pairing, publishing, exporting, per persona)
is in test_dutch_and_burstein_tournaments.py."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from pairing import engine
from pairing.models import GameResult, Round, RoundStatus, Tournament
from pairing.services.rounds import pair_next_round, warnings_for
from pairing.services.snapshot import build_snapshot
from tests.web.helpers import add_players, confirm, out_of_fide_mode, play_round, shown_version
from tests.web.system_helpers import engine_pairs, pairs, played, with_system
from tests.web.test_tournament_setup import GOOD


@pytest.fixture
def burstein(tournament):
    """The chief's tournament (deputy added; 5 rounds, so rounds 1-2 are the seeding
    rounds of 1.6.2), paired with the Burstein system."""
    return with_system(tournament, "burstein")


def _two_seeding_rounds(t: Tournament, players: int = 11) -> None:
    """``players`` players and the two seeding rounds played: a draw on board 1 of round 1,
    a Black win on board 2 of round 2, White wins elsewhere (with 11 players, round 3
    differs between the Burstein and the Dutch system)."""
    add_players(t, players)
    play_round(t, results={0: GameResult.DRAW})
    play_round(t, results={1: GameResult.BLACK_WINS})


# -- creating -------------------------------------------------------------------------


def test_the_new_tournament_form_offers_the_burstein_system(chief_client):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    assert "Swiss, FIDE Burstein system (C.04.4.2, 2026 text)" in page
    assert 'value="burstein"' in page


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
    assert pairs(rnd) == engine_pairs(burstein, 1, engine.System.DUTCH)
    assert rnd.explanation["system"] == "dutch" and rnd.explanation["seeding"] == {"round": 1, "of": 2}
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    explanation = page[page.index('class="card explanation"'):]
    assert "(FIDE Burstein system)" in explanation
    assert "Seeding round 1 of 2 (Burstein 1.6): paired by the rules of the FIDE Dutch system" in explanation
    assert "MDPs (moved down from above)" in explanation and "Index, in BSN order" not in explanation


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


def test_a_burstein_pab_after_a_full_point_bye_is_warned(tournament):
    """[C2] (Basic Rule 4 of 2026): a player who scored a win's points without playing (a
    full-point bye) may not get the PAB; a draft giving it to them is warned."""
    from pairing.models import Bye, ByeKind

    Tournament.objects.filter(pk=tournament.pk).update(system="burstein")
    tournament.refresh_from_db()
    a, b, c, d, e = add_players(tournament, 5)
    Bye.objects.create(tournament=tournament, player=e, round_number=1, kind=ByeKind.FULL)
    played(tournament, 1, [(a, c, GameResult.WHITE_WINS), (b, d, GameResult.WHITE_WINS)])
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
    assert pairs(rnd) == engine_pairs(burstein, 3, engine.System.BURSTEIN)
