"""A Dubov tournament paired by the rules of 1997 (issue 40; docs/dubov-1997.md): the
setting "Dubov rules: 2025 / 1997", chosen with the system and locked once round 1 is
published, per persona (chief arbiter, deputy, another arbiter, anonymous visitor); the
pairing, the explanation and the ARO list follow it; the export declares it and an import
takes it back."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.urls import reverse

from pairing import engine
from pairing.engine.trf import DUBOV_RULES_LINE, parse_trf
from pairing.models import AuditEntry, Round, Tournament
from pairing.services import interchange
from pairing.services.rounds import pair_next_round
from pairing.services.snapshot import build_snapshot
from tests.web.helpers import add_players, confirm, play_round, shown_version
from tests.web.test_tournament_setup import GOOD

LINE_1997 = DUBOV_RULES_LINE.format(year=1997)


@pytest.fixture
def rules_1997(tournament):
    """The chief's tournament (deputy added), paired by the Dubov rules of 1997."""
    Tournament.objects.filter(pk=tournament.pk).update(dubov_rules=1997)
    tournament.refresh_from_db()
    return tournament


def _settings(client, t, **changes):
    return client.post(reverse("pairing:settings", args=[t.slug]),
                       {**GOOD, "slug": t.slug, "seen": shown_version(t), **changes})


def _pairs(rnd: Round) -> list[tuple[int, int]]:
    return [(g.white.tpn, g.black.tpn) for g in rnd.games()]


def _engine_pairs(t: Tournament, number: int, year: int) -> list[tuple[int, int]]:
    snapshot = replace(build_snapshot(t, number), dubov_rules=engine.DubovRules(year=year))
    tpn = dict(t.player_set.values_list("pk", "tpn"))
    return [(tpn[b.white], tpn[b.black]) for b in engine.pair_round(snapshot).boards]


# -- the setting, per persona ----------------------------------------------------------


def test_the_chief_arbiter_creates_a_tournament_paired_by_the_rules_of_1997(chief_client, chief):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    assert "Dubov rules" in page and "1997 (the rules of 1997, as Vega pairs" in page
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "dubov_rules": "1997"})
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.owner, t.system, t.dubov_rules, t.system_label) == (
        chief, "dubov", 1997, "FIDE Dubov system, rules of 1997")
    assert AuditEntry.objects.get(tournament=t, action="create").after["dubov_rules"] == 1997
    # left out of the form (an older page): the 2025 text
    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "name": "Second", "slug": "second"})
    assert Tournament.objects.get(slug="second").dubov_rules == 2025


def test_the_deputy_sets_the_rules_of_1997_before_round_one(deputy_client, tournament):
    assert _settings(deputy_client, tournament, dubov_rules="1997").status_code == 302
    tournament.refresh_from_db()
    assert tournament.dubov_rules == 1997
    change = AuditEntry.objects.filter(tournament=tournament, action="settings").latest("at")
    assert (change.before["dubov_rules"], change.after["dubov_rules"]) == (2025, 1997)


def test_another_arbiter_cannot_change_the_rules(stranger_client, tournament):
    assert _settings(stranger_client, tournament, dubov_rules="1997").status_code == 404  # private
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    assert _settings(stranger_client, tournament, dubov_rules="1997").status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).dubov_rules == 2025


def test_an_anonymous_visitor_cannot_change_the_rules_but_reads_them_on_a_public_tournament(anon_client, rules_1997):
    response = _settings(anon_client, rules_1997, dubov_rules="2025")
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert Tournament.objects.get(pk=rules_1997.pk).dubov_rules == 1997
    Tournament.objects.filter(pk=rules_1997.pk).update(public=True)
    page = anon_client.get(reverse("pairing:tournament", args=[rules_1997.slug])).content.decode()
    assert "FIDE Dubov system, rules of 1997" in page


def test_the_rules_of_1997_go_with_the_dubov_system_only(chief_client, tournament):
    response = _settings(chief_client, tournament, system="dutch", dubov_rules="1997")
    assert response.status_code == 200
    assert "The rules of 1997 are the Dubov system&#x27;s" in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.system, tournament.dubov_rules) == ("dubov", 2025)


def test_vcl_q93_the_rules_are_locked_once_round_one_is_published(chief_client, rules_1997):
    add_players(rules_1997, 6)
    pair_next_round(rules_1997)
    _settings(chief_client, rules_1997, dubov_rules="2025")  # a draft of round 1 is discarded
    rules_1997.refresh_from_db()
    assert rules_1997.dubov_rules == 2025 and not rules_1997.round_set.exists()
    Tournament.objects.filter(pk=rules_1997.pk).update(dubov_rules=1997)
    play_round(rules_1997)
    page = chief_client.get(reverse("pairing:settings", args=[rules_1997.slug])).content.decode()
    field = page[page.index('name="dubov_rules"'):]
    assert "disabled" in field[:300] and "Locked: round 1 has been published." in page
    _settings(chief_client, rules_1997, dubov_rules="2025")
    assert Tournament.objects.get(pk=rules_1997.pk).dubov_rules == 1997


# -- pairing by them --------------------------------------------------------------------


def test_a_round_is_paired_by_the_rules_of_1997_and_says_so(chief_client, rules_1997):
    """Eleven players, White wins in round 1: the draft of round 2 is the engine's pairing
    by the rules of 1997 (it differs from the 2025 text's), and the explanation names them."""
    add_players(rules_1997, 11)
    play_round(rules_1997)
    response = chief_client.post(reverse("pairing:pair_next", args=[rules_1997.slug]))
    rnd = rules_1997.round_set.get(number=2)
    assert response.status_code == 302 and rnd.is_draft
    assert _pairs(rnd) == _engine_pairs(rules_1997, 2, 1997) != _engine_pairs(rules_1997, 2, 2025)
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert "(FIDE Dubov system, rules of 1997)" in page[page.index("Why this pairing"):]


def test_the_aro_list_shows_unrounded_aros_under_the_rules_of_1997(chief_client, chief, rules_1997):
    """1997 1.2: the ARO is not rounded; the list shows it to one decimal, as 6.2's example.
    Ratings 2400, 2390 ...: after round 1 player 6 (2350) played 1 (2400).  The same
    tournament by the 2025 text shows integers."""
    add_players(rules_1997, 10)
    play_round(rules_1997)
    page = chief_client.get(reverse("pairing:aro", args=[rules_1997.slug])).content.decode()
    assert "<td>2400.0</td>" in page
    plain = Tournament.objects.create(slug="plain", name="Plain", owner=chief, rounds=5)
    add_players(plain, 10)
    play_round(plain)
    page = chief_client.get(reverse("pairing:aro", args=[plain.slug])).content.decode()
    assert "<td>2400</td>" in page and "<td>2400.0</td>" not in page


def test_the_player_card_shows_the_aro_as_the_aro_list_does_under_the_rules_of_1997(anon_client, chief,
                                                                                     rules_1997):
    """The player card's ARO under the rules of 1997 is the ARO list's: unrounded (1.2), to
    one decimal; by the 2025 text an integer (1.6.1, half up).  Ratings 2400, 2395 ...
    (5 apart) and two rounds: a player whose two opponents' ratings add up to an odd sum
    has an ARO ending in .5 (2025 rounds it up)."""
    Tournament.objects.filter(pk=rules_1997.pk).update(public=True)
    plain = Tournament.objects.create(slug="plain", name="Plain", owner=chief, rounds=5, public=True)
    for t in (rules_1997, plain):
        add_players(t, 10, step=5)
        play_round(t)
        play_round(t)
    players = list(rules_1997.player_set.order_by("tpn"))
    sums = {p.tpn: sum(o.rating for o in _opponents(p)) for p in players}
    tpn = next(k for k, v in sums.items() if v % 2)
    exact = f"{sums[tpn] / 2:.1f}"
    card = anon_client.get(reverse("pairing:player_card", args=[rules_1997.slug, tpn])).content.decode()
    assert f'<dd id="aro">{exact}</dd>' in card
    aro_list = anon_client.get(reverse("pairing:aro", args=[rules_1997.slug])).content.decode()
    assert f"<td>{exact}</td>" in aro_list
    plain_player = plain.player_set.get(tpn=tpn)
    plain_sum = sum(o.rating for o in _opponents(plain_player))
    card = anon_client.get(reverse("pairing:player_card", args=[plain.slug, tpn])).content.decode()
    assert f'<dd id="aro">{(plain_sum + 1) // 2}</dd>' in card  # half up: .5 rounds up
    assert plain_sum % 2 == 0 or f"{plain_sum / 2:.1f}" not in card


def _opponents(player):
    from pairing.models import Game

    games = Game.objects.filter(round__tournament=player.tournament).select_related("white", "black")
    return [g.black if g.white_id == player.pk else g.white for g in games if player.pk in (g.white_id, g.black_id)]


# -- export and import ------------------------------------------------------------------


def test_the_export_declares_the_rules_and_an_import_takes_them_back(chief_client, chief, rules_1997):
    """The rating report and the copy for the arbiter carry the ### line (FIDE's 192 code
    has no year for the Dubov system) and name the rules in 182 and in the rounds' "Paired
    by" line; a new tournament created
    with the 2025 text imports the file, takes the rules of 1997 (its check re-pairs
    every round by them: identical) after the arbiter confirms the change of rules, and
    exports the same line."""
    add_players(rules_1997, 9)
    for _ in range(3):
        play_round(rules_1997)
    text = interchange.export_trf(rules_1997)
    lines = text.splitlines()
    assert LINE_1997 in lines and "192 FIDE_DUBOV" in lines
    assert any(line.startswith("182 Dubov arbiter ") and line.endswith("(FIDE Dubov system, C.04.4.1, rules of 1997)")
               for line in lines)
    paired_by = [line for line in lines if line.startswith("### Paired by:")]
    assert len(paired_by) == 1 and paired_by[0].endswith("(FIDE Dubov system, C.04.4.1, rules of 1997): rounds 1-3")
    assert parse_trf(text).dubov_rules_year() == 1997
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    page = response.content.decode()
    assert response.status_code == 200 and not fresh.round_set.exists()  # a change of settings: asked first
    assert "The file declares the Dubov rules of 1997 (its ### line); the tournament was created with the rules " \
           "of 2025" in page.replace("&#x27;", "'")
    assert confirm(chief_client, response).status_code == 302
    fresh.refresh_from_db()
    assert fresh.dubov_rules == 1997 and fresh.round_set.count() == 3
    assert LINE_1997 in interchange.export_trf(fresh).splitlines()
    assert not fresh.integrityevent_set.exists()


def test_a_file_without_the_line_keeps_the_rules_the_tournament_was_created_with(chief_client, chief, rules_1997):
    """A file from another program has no ### line: imported into a tournament created with
    the rules of 1997 it is checked by them (clean); into one created with the 2025 text
    the rounds the two texts pair differently are the arbiter's question (Level 3)."""
    add_players(rules_1997, 9)
    for _ in range(3):
        play_round(rules_1997)
    text = "\n".join(line for line in interchange.export_trf(rules_1997).splitlines() if line != LINE_1997) + "\n"
    kept = Tournament.objects.create(slug="kept", name="Kept", owner=chief, dubov_rules=1997)
    assert chief_client.post(reverse("pairing:trf_import", args=[kept.slug]), {"text": text}).status_code == 302
    kept.refresh_from_db()
    assert kept.dubov_rules == 1997 and kept.round_set.count() == 3
    other = Tournament.objects.create(slug="other", name="Other", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=[other.slug]), {"text": text})
    assert response.status_code == 200 and not other.round_set.exists()  # asked first
    page = response.content.decode()
    assert "Import rounds that break the pairing rules" in page and "Round 2: the file pairs" in page
