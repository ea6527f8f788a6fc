"""An imported tournament is checked against the pairing rules (VCL4THP Q54–56): its
rounds are paired again by the engine; rounds that differ need a Level-3 confirmation
and become pairing-integrity events; the import stays in FIDE mode."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pairing.models import IntegrityEvent, Tournament
from pairing.services import interchange
from tests.web.helpers import (
    add_players,
    confirm,
    confirmation_page,
    hand_changed_round,
    out_of_fide_mode,
    play_round,
)


def _file_with_a_hand_made_round(owner) -> str:
    """Round 1 as the engine paired it; round 2 with the colours of board 1 reversed by
    hand, as another program (or an arbiter) might have made it."""
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=owner)
    add_players(source, 6)
    play_round(source)
    hand_changed_round(source)
    return interchange.export_trf(source)  # the file for rating: no ### lines


def _import(client, owner, **data):
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=owner)
    return fresh, client.post(reverse("pairing:trf_import", args=[fresh.slug]), data)


def test_vcl_q54_q55_imported_rounds_that_break_the_rules_need_level_3_and_become_events(chief_client, chief):
    text = _file_with_a_hand_made_round(chief)
    fresh, response = _import(chief_client, chief, file=SimpleUploadedFile("source.trf", text.encode()))
    page = confirmation_page(response)
    assert page["level"] == 3 and page["fields"]["text"] == [text]  # the file comes back as its text
    assert "Round 2:" in response.content.decode() and "Round 1:" not in response.content.decode()
    assert not fresh.player_set.exists()  # nothing written before the confirmation
    response = confirm(chief_client, response)
    assert response.status_code == 302
    fresh.refresh_from_db()
    assert fresh.player_set.count() == 6 and fresh.rounds_published() == 2 and fresh.fide_mode
    (event,) = IntegrityEvent.objects.filter(tournament=fresh)
    assert event.kind == "import" and event.line.startswith("Import @ Round 2: ")
    assert event.report_line in interchange.export_trf(fresh, integrity=True).splitlines()


def test_vcl_q54_an_import_that_follows_the_rules_asks_nothing(chief_client, chief):
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief)
    add_players(source, 6)
    play_round(source)
    play_round(source)
    fresh, response = _import(chief_client, chief, text=interchange.export_trf(source))
    assert response.status_code == 302
    assert fresh.rounds_published() == 2 and not IntegrityEvent.objects.filter(tournament=fresh).exists()


def test_vcl_q56_an_import_into_fide_mode_refuses_points_fide_mode_does_not_allow(chief_client, chief):
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief, point_draw="0.9")
    out_of_fide_mode(source)
    add_players(source, 4)
    fresh, response = _import(chief_client, chief, text=interchange.export_trf(source))
    assert response.status_code == 400
    assert "FIDE mode does not allow that. Leave FIDE mode first to import this file." in response.content.decode()
    assert not fresh.player_set.exists()


def test_a_file_too_large_to_re_pair_during_an_upload_is_checked_in_the_background(chief_client, chief, monkeypatch):
    """Above IMPORT_CHECK_LIMIT player-rounds the page does not re-pair (it would outlast
    the request timeout): the worker imports the file and re-pairs every round, and the
    hand-made round waits for the arbiter's answer (issue 36; tests/web/test_import_background.py)."""
    import importlib

    from pairing.models import Job, JobStatus
    from tests.web.worker_process import run_queued

    monkeypatch.setattr(importlib.import_module("pairing.views.players"), "IMPORT_CHECK_LIMIT", 5)
    text = _file_with_a_hand_made_round(chief)
    fresh, response = _import(chief_client, chief, text=text)
    job = Job.objects.get()
    assert response.status_code == 302 and response.url == f"/jobs/{job.pk}/"
    run_queued()
    job.refresh_from_db()
    assert job.status == JobStatus.WAITING and job.result["title"] == "Import rounds that break the pairing rules"
    assert fresh.rounds_published() == 2 and not IntegrityEvent.objects.filter(tournament=fresh).exists()


def _with_symbol(text: str, round_number: int, symbol: str) -> tuple[str, int, int]:
    """The file with the result of board 1's game of ``round_number`` replaced by
    ``symbol`` on both players' lines; returns the text and the two players' ids."""
    from pairing.engine.trf import parse_trf

    data = parse_trf(text)
    first = next(p for p in data.players if p.history[round_number - 1].opponent is not None)
    second = first.history[round_number - 1].opponent
    column = 91 + (round_number - 1) * 10 + 7  # 0-based index of the result character (column 99 in round 1)
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("001") and int(line[4:8]) in (first.id, second):
            lines[i] = line[:column] + symbol + line[column + 1:]
    return "\n".join(lines) + "\n", first.id, second


def test_vcl_q166_unknown_result_symbols_are_imported_as_adjourned_games_after_a_confirmation(chief_client, chief):
    """A game written 'X' on both lines (no TRF code): the import lists the symbol with its
    line and column, says the game becomes adjourned, writes nothing before the Level-3
    confirmation, and then stores the game as adjourned (a draw until its result)."""
    from pairing.models import Game, GameResult

    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief)
    add_players(source, 6)
    play_round(source)
    play_round(source)
    text, a, b = _with_symbol(interchange.export_trf(source), 2, "X")
    fresh, response = _import(chief_client, chief, text=text)
    page = confirmation_page(response)
    html = response.content.decode()
    assert page["level"] == 3
    assert "result &#x27;X&#x27; is not a TRF result code" in html
    assert f"round 2: {min(a, b)}-{max(a, b)}" in html
    assert not fresh.player_set.exists()
    response = confirm(chief_client, response)
    assert response.status_code == 302
    (game,) = Game.objects.filter(round__tournament=fresh, result=GameResult.ADJOURNED)
    assert game.round.number == 2


def test_vcl_q166_an_unknown_symbol_facing_a_known_result_is_still_refused(chief_client, chief):
    """Only a game whose two lines both carry unknown symbols becomes adjourned: 'X'
    against '1' contradicts itself and is refused with its line, nothing written."""
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief)
    add_players(source, 6)
    play_round(source)
    text = interchange.export_trf(source)
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("001") and line[92:96].strip() not in ("", "0000"))
    lines[i] = lines[i][:98] + "X" + lines[i][99:]
    fresh, response = _import(chief_client, chief, text="\n".join(lines) + "\n")
    assert response.status_code == 400
    assert "found &#x27;X&#x27;; the other player&#x27;s line says" in response.content.decode()
    assert not fresh.player_set.exists()


TRF06 = (
    "012 Club Championship 2005\n"
    "022 Maribor\n"
    "042 2005/03/01\n"
    "052 2005/03/29\n"
    "001    1      Alpha, Ann                        2100                             1.0    1     2 w 1\n"
    "001    2      Beta, Bob                         2000                             0.0    3     1 b 0\n"
    "001    3      Gamma, Gil                        1900                             1.0    2  0000 - +\n"
)


def test_vcl_q47_q48_a_trf06_file_is_detected_and_every_adjustment_is_listed(chief_client, chief):
    """A TRF-06 file (no XX record, the PAB written '0000 - +'): before writing, the page
    lists the conversion of the old bye and the default number of rounds; after the
    confirmation the messages and the audit trail give the version, the place and dates
    read, and what was not taken."""
    from pairing.models import AuditEntry, Bye

    fresh, response = _import(chief_client, chief, text=TRF06)
    html = response.content.decode()
    assert confirmation_page(response)["level"] == 3
    assert "1 byes written the TRF-06 way" in html
    assert "The file does not give the number of rounds (XXR/142): the tournament&#x27;s 9 rounds are kept." in html
    assert not fresh.player_set.exists()
    response = confirm(chief_client, response)
    follow = chief_client.get(response["Location"]).content.decode()
    assert "File version: TRF-06 (no record or result code of a later version)." in follow
    assert ("No initial colour in the file (XXC/152): White, the colour of player 1 in round 1, the "
            "highest-ranked player paired in it (as TRF-2026&#x27;s 152 says).") in follow
    assert "Place read from the file (022): Maribor." in follow
    fresh.refresh_from_db()
    assert (fresh.place, str(fresh.start_date), str(fresh.end_date)) == ("Maribor", "2005-03-01", "2005-03-29")
    assert Bye.objects.get(tournament=fresh).kind == "U"
    entry = AuditEntry.objects.get(tournament=fresh, action="import")
    assert any("TRF-06" in line for line in entry.after["adjustments"])


TRF06_WITH_LATER_CODES = (
    "012 Club Championship 2006\n"
    "001    1      Alpha, Ann                        2100                             1.5    1     3 b 1  0000 - H\n"
    "001    2      Beta, Bob                         2000                             1.0    2  0000 - U     3 w 0\n"
    "001    3      Gamma, Gil                        1900                             1.0    3     1 w 0     2 b 1\n"
)


def test_vcl_q48_a_file_of_012_and_001_records_is_named_trf06_with_the_codes_it_uses_and_its_colour_said(
        chief_client, chief):
    """Only 012 and 001 records, results with the bye codes TRF-16 added (H, U) and no
    initial colour (XXC/152): the summary names the version by its records (TRF-06, not
    "TRF-16 (byes written H, F, U or Z)"), names the codes, and says where the initial
    colour came from: round 1, where player 1, the highest ranked paired, had Black."""
    fresh, response = _import(chief_client, chief, text=TRF06_WITH_LATER_CODES)
    response = confirm(chief_client, response)  # the default number of rounds is asked about
    follow = chief_client.get(response["Location"]).content.decode().replace("&#x27;", "'")
    assert ("File version: TRF-06 (only records TRF-06 defines (001, 012); results also written with the codes "
            "TRF-16 added (H, U), read as TRF-16 defines them).") in follow
    assert ("No initial colour in the file (XXC/152): Black, the colour of player 1 in round 1, the highest-ranked "
            "player paired in it (as TRF-2026's 152 says).") in follow
    fresh.refresh_from_db()
    assert fresh.initial_colour == "b" and fresh.rounds_published() == 2


def test_vcl_q49_q50_a_trf16_file_with_records_this_program_does_not_read_says_which(chief_client, chief):
    """A TRF-16 file (XXR) with a record of another program's ('XYZ'): the record is named
    with its line before anything is written; the place differing from the tournament's
    own is said too (the tournament keeps its place)."""
    text = TRF06.replace("0000 - +", "0000 - U") + "XXR 5\nXYZ something\n"
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=chief, place="Ljubljana")
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    html = response.content.decode()
    assert "Record &#x27;XYZ&#x27; (line 9) is not a record this program reads: left out." in html
    assert "Place in the file (022) is &#x27;Maribor&#x27;; the tournament keeps its own place, Ljubljana." in html
    response = confirm(chief_client, response)
    follow = chief_client.get(response["Location"]).content.decode()
    assert "File version: TRF-16 (records XXR)." in follow
    fresh.refresh_from_db()
    assert fresh.place == "Ljubljana" and fresh.player_set.count() == 3


def test_vcl_q50_the_apps_own_file_imports_without_a_question_and_keeps_national_ratings(chief_client, chief):
    """The app's TRF-2026 export imported again asks nothing (every record is taken or
    recomputed) and brings back the national ratings of the NRS records."""
    from pairing.models import Player

    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief, federation="SLO")
    add_players(source, 6)
    Player.objects.filter(tournament=source, tpn=2).update(fide_rating=2390, national_rating=2211, national_id="SLO-77")
    play_round(source)
    fresh, response = _import(chief_client, chief, text=interchange.export_trf(source))
    assert response.status_code == 302
    follow = chief_client.get(response["Location"]).content.decode()
    assert "File version: TRF-2026" in follow
    assert "Tournament type (192): FIDE_DUBOV." in follow
    p = Player.objects.get(tournament=fresh, tpn=2)
    assert (p.national_rating, p.national_id) == (2211, "SLO-77")


def test_vcl_q50_a_file_of_another_pairing_system_is_said_before_anything_is_written(chief_client, chief):
    """192 naming a system this program does not pair (Lim, C.04.4.3) is an adjustment asked
    at Level 3: the rounds are kept as played and the next ones are paired by the
    tournament's own system."""
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief)
    add_players(source, 6)
    play_round(source)
    text = interchange.export_trf(source).replace("192 FIDE_DUBOV", "192 FIDE_LIM")
    fresh, response = _import(chief_client, chief, text=text)
    html = response.content.decode()
    assert ("The file&#x27;s tournament type (192) is &#x27;FIDE_LIM&#x27;; this program pairs it as "
            "FIDE_DUBOV: the file&#x27;s rounds are kept as played, the next ones are paired as FIDE_DUBOV.") in html
    assert fresh.player_set.count() == 0  # nothing written before the answer
    response = confirm(chief_client, response)
    assert fresh.player_set.count() == 6
    fresh.refresh_from_db()
    assert fresh.system == "dubov"


def test_vcl_q50_a_dutch_file_makes_a_dubov_tournament_dutch_after_the_question(chief_client, chief):
    """A file whose 192 is bbpPairings' FIDE_DUTCH_2025 imported into a tournament created
    for Dubov: the question says the tournament becomes a Dutch one (its rounds checked,
    the next ones paired, by the Dutch system); nothing is written before the answer."""
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief, system="dutch")
    add_players(source, 6)
    play_round(source)
    text = interchange.export_trf(source).replace("192 FIDE_DUTCH", "192 FIDE_DUTCH_2025")
    fresh, response = _import(chief_client, chief, text=text)
    html = response.content.decode()
    assert ("The tournament was created for the FIDE Dubov system; the file&#x27;s type (192, FIDE_DUTCH_2025) makes "
            "it the FIDE Dutch system") in html
    assert fresh.player_set.count() == 0
    response = confirm(chief_client, response)
    fresh.refresh_from_db()
    assert fresh.system == "dutch" and fresh.player_set.count() == 6
    follow = chief_client.get(response["Location"]).content.decode()
    assert "Tournament type (192): FIDE_DUTCH_2025, read as the FIDE Dutch system of 1 February 2026." in follow


def test_issue32_item11_the_import_question_groups_findings_by_kind_most_serious_first(chief_client, chief):
    """A file with round 2's colours reversed on board 1, round 3 with two players
    swapped between boards and a record this program does not read: the Level-3 page
    lists the rounds with other opponents first, then the colour-only rounds, then the
    adjustments, each kind under its heading with what it means for the arbiter, one
    line per round."""
    import re

    from pairing.services import manual
    from pairing.services.results import record_result
    from pairing.services.rounds import pair_next_round, publish, swap_players

    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief)
    add_players(source, 8)
    play_round(source)
    hand_changed_round(source)  # round 2: board 1's colours reversed
    rnd = pair_next_round(source)  # round 3: the White players of boards 1 and 2 change places
    manual.start_session(rnd)
    first, second = list(rnd.games())[:2]
    swap_players(rnd, first.white, second.white, confirmations=1)
    manual.end_session(rnd, confirmations=1)
    publish(rnd)
    for game in rnd.games():
        record_result(game, "1-0")
    text = interchange.export_trf(source) + "XYZ something\n"
    fresh, response = _import(chief_client, chief, text=text)
    confirmation_page(response)
    page = response.content.decode()
    headings = re.findall(r'<section class="finding"[^>]*>\s*<h2>([^<]*)<', page)
    assert [h.strip() for h in headings] == [
        "Rounds with other opponents than the rules give", "Rounds with the right opponents but other colours",
        "What the import changes in the file"]
    sections = page.split('<section class="finding"')[1:]
    for section in sections:
        assert '<p class="meaning">' in section  # each kind says what it means
    opponents, colours, changes = (re.findall(r"<li>(.*?)</li>", s) for s in sections)
    assert len(opponents) == 1 and opponents[0].startswith("Round 3: the file pairs ")  # one line for the round
    assert len(colours) == 1 and colours[0].startswith("Round 2: ")
    assert "pairing-integrity event" in sections[0] and "colour preferences" in sections[1]
    assert any("XYZ" in line for line in changes)
    assert not fresh.player_set.exists()
    confirm(chief_client, response)
    assert IntegrityEvent.objects.filter(tournament=fresh).count() == 2


def test_walk_the_reimport_into_a_tournament_of_the_same_dates_lists_no_date_as_a_change(chief_client, chief):
    """The walk of issue 32 re-imported its rating report into a new tournament made with
    the event's own dates: the Level-3 page listed "Start date in the file (042) is
    '2026/11/27'; the tournament keeps its own start date, 2026-11-27" (the same day,
    compared as text).  The same day is no change; another day still is."""
    import datetime

    days = {"start_date": datetime.date(2026, 11, 27), "end_date": datetime.date(2026, 11, 30)}
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief, **days)
    add_players(source, 6)
    play_round(source)
    text = interchange.export_trf(source)
    assert "042 2026/11/27" in text
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=chief, **days)
    response = chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    assert response.status_code == 302, response.content.decode()[:2000]
    later = Tournament.objects.create(slug="later", name="Later", owner=chief, start_date=days["start_date"],
                                      end_date=datetime.date(2026, 12, 1))
    html = chief_client.post(reverse("pairing:trf_import", args=[later.slug]), {"text": text}).content.decode()
    assert "End date in the file (052) is &#x27;2026/11/30&#x27;; the tournament keeps its own end date" in html
    assert "Start date in the file" not in html
