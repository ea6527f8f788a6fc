"""Creating a tournament and changing its settings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, ColourMethod, IntegrityEvent, Tournament
from tests.web.helpers import confirm, confirmation_page, out_of_fide_mode, play_round, shown_version

GOOD = {
    "name": "Autumn Open",
    "slug": "",
    "place": "Piran",
    "federation": "slo",
    "start_date": "2026-10-01",
    "end_date": "2026-10-09",
    "time_control": "90+30",
    "rounds": "9",
    "point_win": "1",
    "point_draw": "0.5",
    "point_loss": "0",
    "point_pab": "1",
    "point_half_bye": "0.5",
    "initial_colour_method": "lot",
    "initial_colour": "w",
    "tiebreaks": "bh-c1, BH, SB",
    "public": "on",
}


def test_an_arbiter_creates_a_tournament_and_owns_it(chief_client, chief):
    response = chief_client.post(reverse("pairing:tournament_create"), GOOD)
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert t.owner == chief
    assert t.slug == "autumn-open"
    assert t.federation == "SLO"
    assert t.tiebreaks == "BH-C1, BH, SB"
    assert t.initial_colour_method == ColourMethod.LOT
    assert t.initial_colour in ("w", "b")
    assert AuditEntry.objects.filter(tournament=t, action="create").exists()


def test_a_chosen_initial_colour_is_kept_and_recorded(chief_client):
    chief_client.post(
        reverse("pairing:tournament_create"), {**GOOD, "initial_colour_method": "chosen", "initial_colour": "b"}
    )
    t = Tournament.objects.get()
    assert (t.initial_colour, t.initial_colour_method) == ("b", ColourMethod.CHOSEN)


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("name", "", "This field is required"),
        ("name", "♞♞♞", "The name has no letters or digits an address can use"),
        ("rounds", "0", "between 1 and 99"),
        ("rounds", "-1", "between 1 and 99"),
        ("rounds", "100", "between 1 and 99"),
        ("tiebreaks", "BH, SB, bh", "BH is listed twice"),
        ("tiebreaks", "BH-C1, BHC1", "BH-C1 is listed twice"),
        ("rounds", "abc", "Enter a whole number"),
        ("point_draw", "1", "win &gt; draw"),
        ("point_pab", "3", "Between 0 and the points for a win"),
        ("tiebreaks", "BH, XYZ", "unknown tie-break"),
        ("federation", "SL1", "three-letter"),
        ("federation", "Slovenia", "at most 3 characters"),
        ("end_date", "2026-09-01", "cannot end before it starts"),
        ("initial_colour_method", "coin", "Select a valid choice"),
    ],
)
def test_bad_settings_are_explained_and_nothing_is_written(chief_client, field, value, message):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Tournament.objects.count() == 0


def test_a_taken_address_is_refused(chief_client, tournament):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "slug": "spring-open"})
    assert "is taken" in response.content.decode()
    assert Tournament.objects.count() == 1


def _skip_the_forms_address_check(monkeypatch):
    """Let the form pass an address that is taken, as when another arbiter saves the same
    address between this form's check and its save: the database's unique key decides."""
    from pairing.forms import TournamentForm

    monkeypatch.setattr(TournamentForm, "clean_slug", lambda form: form.cleaned_data["slug"])
    monkeypatch.setattr(TournamentForm, "validate_unique", lambda form: None)


def test_an_address_taken_meanwhile_is_a_form_error_not_a_crash(chief_client, tournament, monkeypatch):
    _skip_the_forms_address_check(monkeypatch)
    audit_before = AuditEntry.objects.count()
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "slug": "spring-open"})
    assert response.status_code == 200
    assert "is taken; choose another. Nothing was saved." in response.content.decode()
    assert Tournament.objects.count() == 1
    assert AuditEntry.objects.count() == audit_before


def test_renaming_to_an_address_taken_meanwhile_changes_nothing(chief_client, chief, tournament, monkeypatch):
    Tournament.objects.create(slug="summer-open", name="Summer Open", rounds=5, owner=chief)
    _skip_the_forms_address_check(monkeypatch)
    audit_before = AuditEntry.objects.count()
    response = chief_client.post(
        reverse("pairing:settings", args=[tournament.slug]), {**GOOD, "slug": "summer-open", "rounds": "7", "seen": shown_version(tournament)}
    )
    assert response.status_code == 200
    assert "is taken; choose another. Nothing was saved." in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.slug, tournament.rounds) == ("spring-open", 5)
    assert AuditEntry.objects.count() == audit_before


def test_the_deputy_can_change_settings(deputy_client, tournament):
    response = deputy_client.post(
        reverse("pairing:settings", args=[tournament.slug]),
        {**GOOD, "slug": "spring-open", "rounds": "7", "seen": shown_version(tournament)},
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rounds == 7


def test_another_arbiter_cannot_change_settings(stranger_client, tournament):
    response = stranger_client.post(reverse("pairing:settings", args=[tournament.slug]), {**GOOD, "rounds": "7"})
    assert response.status_code == 404  # a private tournament is not disclosed
    tournament.refresh_from_db()
    assert tournament.rounds == 5


def test_rounds_cannot_drop_below_those_already_paired(chief_client, tournament, players):
    play_round(tournament)
    play_round(tournament)
    out_of_fide_mode(tournament, 2)  # in FIDE mode the number is locked altogether
    response = chief_client.post(
        reverse("pairing:settings", args=[tournament.slug]), {**GOOD, "slug": "spring-open", "rounds": "1", "seen": shown_version(tournament)}
    )
    assert "already paired" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rounds == 5


def test_the_initial_colour_is_locked_once_round_one_is_paired(chief_client, tournament, players):
    play_round(tournament)
    before = tournament.initial_colour
    chief_client.post(
        reverse("pairing:settings", args=[tournament.slug]),
        {**GOOD, "slug": "spring-open", "initial_colour_method": "chosen",
         "initial_colour": "b" if before == "w" else "w", "seen": shown_version(tournament)},
    )
    tournament.refresh_from_db()
    assert tournament.initial_colour == before


def settings_post(client, t, **changes):
    return client.post(reverse("pairing:settings", args=[t.slug]),
                       {**GOOD, "slug": t.slug, "seen": shown_version(t), **changes})


def test_points_before_round_one_change_without_a_question(chief_client, tournament):
    page = chief_client.get(reverse("pairing:settings", args=[tournament.slug])).content.decode()
    assert "confirm_points" not in page
    assert settings_post(chief_client, tournament, point_win="3", point_draw="1", point_pab="3", point_half_bye="1").status_code == 302
    tournament.refresh_from_db()
    assert tournament.point_win == 3


def test_points_after_a_round_outside_fide_mode_need_a_level_3_confirmation_and_change_nothing_without_it(
    chief_client, tournament, players
):
    """Round 1 was paired on 1/0.5/0: going to 3/1/0 rewrites every score so far, so the
    arbiter has to confirm; without the confirmation nothing at all is saved."""
    play_round(tournament)
    out_of_fide_mode(tournament, 1)
    response = settings_post(chief_client, tournament, point_win="3", point_draw="1", point_pab="3",
                             point_half_bye="1", place="Koper")
    page = confirmation_page(response)
    assert page["level"] == 3
    assert "Every score so far is recomputed with the new points" in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.point_win, tournament.place) == (1, "Bled")
    response = confirm(chief_client, response)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.point_win, tournament.point_draw, tournament.place) == (3, 1, "Koper")
    entry = AuditEntry.objects.filter(tournament=tournament, action="settings").latest("pk")
    assert entry.before["point_win"] == "1.0" and entry.after["point_win"] == "3.0"
    event = IntegrityEvent.objects.get(tournament=tournament)
    assert event.report_line == (
        "### Settings changed @ Round 1: rounds 5 => 9; points W1.0 D0.5 L0.0 PAB1.0 HPB0.5 => W3.0 D1.0 L0.0 PAB3.0 HPB1.0"
    )


def test_other_settings_after_a_round_need_no_confirmation(chief_client, tournament, players):
    play_round(tournament)
    assert settings_post(chief_client, tournament, place="Koper").status_code == 302
    tournament.refresh_from_db()
    assert tournament.place == "Koper"


@pytest.mark.parametrize("field", ["name", "place", "time_control"])
@pytest.mark.parametrize("breaker", ["\n", "\r", "\x0b", "\u2028", "\x1e"])
def test_audit_finding_4_a_line_break_in_a_single_line_setting_is_refused(chief_client, field, breaker):
    """A newline in the name wrote a forged ``001`` line into the TRF export, which
    re-imported as an extra player."""
    value = f"Open{breaker}001    9      Forged, Player                    2900"
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, field: value})
    assert response.status_code == 200
    assert "may not contain a line break or another control character" in response.content.decode()
    assert not Tournament.objects.exists()


def test_audit_finding_4_a_line_break_already_in_the_database_never_reaches_the_export(chief, tournament, players):
    from pairing.engine.trf import parse_trf
    from pairing.services.interchange import export_trf

    Tournament.objects.filter(pk=tournament.pk).update(
        name="Open\n001    99      Forged, Player                    2900", place="Ljubljana\r\nXXR 1"
    )
    players[0].__class__.objects.filter(pk=players[0].pk).update(name="Kos\n001   98 Forged")
    tournament.refresh_from_db()
    text = export_trf(tournament)
    parsed = parse_trf(text)
    assert len(parsed.players) == len(players)
    assert parsed.total_rounds == tournament.rounds
    assert all(line.startswith(("001", "012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "122",
                                "132", "142", "152", "182", "192", "202", "212", "222", "XX", "240", "260", "### "))
               for line in text.splitlines() if line)
    # The ### lines the export writes are its own fixed words, never the forged text.
    assert "Forged" not in "".join(line for line in text.splitlines() if line.startswith("###"))


def test_rough_edge_11_the_address_is_called_web_address_and_made_from_the_name(chief_client):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    assert "Web address" in page and ">Slug" not in page and "/t/&lt;this&gt;/" in page
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "name": "Zimski Turnir Žalec"})
    assert response.status_code == 302
    assert Tournament.objects.get().slug == "zimski-turnir-zalec"
    bad = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "slug": "not an address!"})
    assert "A web address takes lower-case letters, digits and hyphens only." in bad.content.decode()


def test_rough_edge_8_dates_and_points_are_written_one_way(chief_client, tournament, players):
    import datetime

    Tournament.objects.filter(pk=tournament.pk).update(
        start_date=datetime.date(2026, 11, 27), end_date=datetime.date(2026, 11, 29)
    )
    page = chief_client.get(reverse("pairing:tournament", args=[tournament.slug])).content.decode()
    assert "27 Nov 2026 – 29 Nov 2026" in page and "Nov. 27" not in page
    assert "win 1, draw 0.5, PAB 1" in page and "1.0" not in page
    byes = chief_client.get(reverse("pairing:absences", args=[tournament.slug])).content.decode()
    assert "half-point bye (0.5)" in byes and "full-point bye (1)" in byes
    assert "chief arbiter: chief" in chief_client.get(reverse("pairing:dashboard")).content.decode()
