"""Languages (issue 21): every string a page shows goes through Django's translation
machinery, English is complete, and Russian is complete.

The test that fails on any untranslated string renders every page of the demo tournament
(and the pages a mistake leads to) in Russian and looks at what a visitor reads: the text,
the tool tips, the placeholders and the button labels.  A run of Latin letters there is
an English word that was never marked for translation, or marked but not translated.
Left out, on purpose: names (players, tournaments, places, accounts, federations), codes
that are the same in every language (FIDE, TRF, ARO, tie-break codes, result symbols), and
whatever the page itself marks ``lang="en"`` (the manual and the engine's sentences, which
are in English, the language of FIDE's texts: docs/fide-mode.md, reading 28).
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation
from lxml import html as lxml_html

from pairing.models import Event, Player, Round, Tournament

LOCALE = Path(settings.BASE_DIR) / "locale"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}

# Words that are the same in every language: FIDE's codes and abbreviations, file formats,
# the names of programs and systems.
CODES = set(
    """
    FIDE TRF TRF-16 TRF-2026 ARO PAB TPN Elo CSV UTF Latin Dubov Swiss Berger Chess960 Baku Vega
    BH BH-C1 BH-C2 SB SB-C1 DE PS AOB ARO-C1 ARO-M1 ARO-M2 AROC ARO-CUT WIN WON BPG BWG GE
    REP STD RTNG RTNG-R TPN-R PTP TPR APRO APPO KS NRS MPA EXT FB PFP CS DE-P AVE
    HTMX HTTPS XML TXT ZIP XLS XLSX ODS PDF No ID FED XXZ XXS XXA TOP
    B1 B2 B3 B4 B5 B6 B7 B8 B9 C1 C2 C3 C4 C5 C6 C7 C8 C9 C10 C11 C12 C13 C14 C15 C16 C17 C18 C19
    A1 A2 A3 A4 A5 A6 A7 A8 A9 S1 S2 T1 T2 Q W D L F H U Z B P X
    Dubov arbiter MaxT max dp Cut Median Jane Doe Carlsen Magnus Python
    """.split()
)
# Technical text that is the same in every language: commands, file names, list keys,
# addresses, regulation numbers (C.07 10.2, B.02 8.3).
TECHNICAL = re.compile(
    r"manage\.py [\w-]+(?: --[\w-]+)?|python -m [\w.]+(?: --?[\w-]+)*(?: [\w.]+)?|\bfide-[a-z-]+|list:<[^>]*>"
    r"|/t/<[^>]*>/|[\w.-]+\.(?:trf|csv|zip|txt|xml)\b|\b[A-C]\.\d+(?:\.\d+)*|\bVCL4THP\b"
)
LATIN = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
# code and keys are the same in every language; a text area holds what the visitor typed
SKIP_TAGS = {"script", "style", "code", "pre", "kbd", "samp", "textarea"}
TEXT_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")


def _names() -> set[str]:
    """Every word of a name the database holds (players, events, tournaments, places, accounts)."""
    from django.contrib.auth import get_user_model

    words: set[str] = set()
    rows = [(p.name, p.federation, p.title, p.club) for p in Player.objects.all()]
    rows += [(t.name, t.place, t.slug, t.federation, t.chief_arbiter, t.deputy_arbiters) for t in Tournament.objects.all()]
    rows += [(e.name, e.place, e.organiser) for e in Event.objects.all()]
    rows += [(u.username,) for u in get_user_model().objects.all()]
    for row in rows:
        for value in row:
            words.update(LATIN.findall(str(value or "")))
    return words


def _english_in(page: str, allowed: set[str]) -> list[str]:
    """The visible runs of Latin letters a visitor reads in ``page`` that are not allowed."""
    tree = lxml_html.fromstring(page)
    found: list[str] = []

    def look(text: str | None, where: str) -> None:
        for word in LATIN.findall(TECHNICAL.sub(" ", text or "")):
            # a code or an abbreviation (FIDON, WBW, XXR, IA) or a single letter (K, j k)
            if word.isupper() or len(word) == 1:
                continue
            if word not in allowed and word.upper() not in allowed:
                found.append(f"{word!r} in {where}: {(text or '').strip()[:90]!r}")

    def english(element) -> bool:
        return any(a.get("lang") == "en" for a in element.iterancestors()) or element.get("lang") == "en"

    for element in tree.iter():
        if not isinstance(element.tag, str) or english(element):
            continue
        skipped = element.tag in SKIP_TAGS or any(a.tag in SKIP_TAGS for a in element.iterancestors())
        if not skipped:
            look(element.text, f"<{element.tag}>")
            for name in TEXT_ATTRIBUTES:
                look(element.get(name), f"<{element.tag} {name}>")
            if element.tag == "input" and element.get("type") in {"submit", "button"}:
                look(element.get("value"), "<input value>")
        parent = element.getparent()
        tail_skipped = parent is not None and (
            parent.tag in SKIP_TAGS or any(a.tag in SKIP_TAGS for a in parent.iterancestors()) or english(parent)
        )
        if not tail_skipped:
            look(element.tail, f"after <{element.tag}>")
    return found


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # the demo command runs only on a development copy
    call_command("demo", stdout=open("/dev/null", "w"))
    t = Tournament.objects.get(slug="demo-open")
    return t


def _client(username: str) -> Client:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _pages(t: Tournament) -> list[str]:
    slug = t.slug
    player = t.player_set.order_by("tpn").first()
    last = Round.objects.filter(tournament=t).order_by("-number").first()
    pages = [
        reverse("pairing:dashboard"),
        reverse("pairing:tournament_create"),
        reverse("pairing:rating_lists"),
        reverse("pairing:help_index"),
    ]
    for name in (
        "tournament", "settings", "audit", "fide_mode", "deputies", "players", "players_import",
        "player_lookup", "rating_check", "tie_details", "pairing_numbers", "forbidden_pairs",
        "trf_import", "absences", "byes_grid", "standings", "crosstable", "aro", "aro_spread",
    ):
        pages.append(reverse(f"pairing:{name}", args=[slug]))
    pages += [
        reverse("pairing:player_edit", args=[slug, player.pk]),
        reverse("pairing:player_delete", args=[slug, player.pk]),
        reverse("pairing:player_withdraw", args=[slug, player.pk]),
        reverse("pairing:player_card", args=[slug, player.tpn]),
    ]
    for number in range(1, last.number + 1):
        pages.append(reverse("pairing:round", args=[slug, number]))
    return pages


def _check(client: Client, urls: list[str], allowed: set[str]) -> list[str]:
    problems = []
    for url in urls:
        response = client.get(url, **RU)
        if response.status_code in (302, 404, 405):
            continue
        assert response.status_code == 200, (url, response.status_code)
        assert response["Content-Language"] == "ru", url
        problems += [f"{url}: {p}" for p in _english_in(response.content.decode(), allowed)]
    return problems


def test_every_page_of_the_demo_reads_in_russian_for_its_arbiter(demo):
    allowed = CODES | _names()
    problems = _check(_client("arbiter"), _pages(demo), allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_a_draft_round_and_its_explanation_read_in_russian(demo):
    from pairing.models import GameResult
    from pairing.services import rounds
    from pairing.services.results import record_result

    for game in demo.last_round().games():  # round 4 in play: finish it
        if not game.result:
            record_result(game, GameResult.DRAW, None)
    rnd = rounds.pair_next_round(demo, None)
    assert rnd.is_draft and rnd.explanation
    allowed = CODES | _names()
    problems = _check(_client("arbiter"), [reverse("pairing:round", args=[demo.slug, rnd.number])], allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_the_dutch_demo_and_its_draft_explanation_read_in_russian(demo):
    """Every page of the Dutch demo (issue 34), its draft of round 5 with the Dutch
    explanation among them, for its arbiter and for a visitor."""
    t = Tournament.objects.get(slug="demo-dutch")
    allowed = CODES | _names()
    pages = [url for url in _pages(t) if "/aro/" not in url]  # a Dutch tournament has none
    problems = _check(_client("arbiter"), pages, allowed)
    draft = _client("arbiter").get(reverse("pairing:round", args=[t.slug, 5]), **RU).content.decode()
    assert "Группа жеребьёвки" in draft and "голландская система ФИДЕ" in draft
    problems += _check(Client(), [reverse(f"pairing:{n}", args=[t.slug]) for n in ("tournament", "standings", "crosstable")]
                       + [reverse("pairing:round", args=[t.slug, 4])], allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_a_round_robin_and_a_long_event_read_in_russian(demo):
    """The pages only these have: Berger numbers, the square crosstable, the Berger round's
    note, the ratings per round of an event over 30 days."""
    from tests.web.helpers import add_players, play_round

    t = Tournament.objects.create(slug="krug", name="Krug", rounds=5, owner=demo.owner, system="round-robin",
                                  tiebreaks="DE, SB, WIN, KS", long_event=True)
    add_players(t, 5)
    allowed = CODES | _names()
    client = _client("arbiter")
    problems = _check(client, [reverse("pairing:berger", args=[t.slug])], allowed)
    assert "Номера Бергера" in client.get(reverse("pairing:berger", args=[t.slug]), **RU).content.decode()
    play_round(t)
    assert "Рейтинги по турам" in client.get(reverse("pairing:tie_details", args=[t.slug]), **RU).content.decode()
    problems += _check(client, [reverse(f"pairing:{n}", args=[t.slug]) for n in ("berger", "crosstable", "tie_details")]
                       + [reverse("pairing:round", args=[t.slug, 1])], allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_the_public_pages_and_the_login_read_in_russian_for_a_visitor(demo):
    allowed = CODES | _names()
    slug = demo.slug
    urls = [reverse("login"), reverse("pairing:dashboard")]
    urls += [reverse(f"pairing:{n}", args=[slug]) for n in ("standings", "crosstable", "aro", "aro_spread")]
    urls.append(reverse("pairing:player_card", args=[slug, 1]))
    problems = _check(Client(), urls, allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_mistakes_are_explained_in_russian(demo):
    """Forms sent with mistakes answer in the visitor's language."""
    client = _client("arbiter")
    slug = demo.slug
    allowed = CODES | _names() | {"Doe", "John", "nonsense"}  # what the forms below send
    answers = [
        client.post(reverse("pairing:players", args=[slug]), {"name": "", "rating": "abc"}, **RU),
        client.post(reverse("pairing:players_import", args=[slug]), {"text": "Doe, John,2100"}, **RU),
        client.post(reverse("pairing:tournament_create"), {"name": "", "rounds": "0"}, **RU),
        client.post(reverse("pairing:trf_import", args=[slug]), {"text": "nonsense"}, **RU),
    ]
    problems = []
    for response in answers:
        assert response.status_code in (200, 400), response.status_code
        problems += _english_in(response.content.decode(), allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_a_confirmation_and_a_results_row_read_in_russian(demo):
    """A Level-3 question (a full-point bye) and the row HTMX swaps in after a result."""
    client = _client("arbiter")
    allowed = CODES | _names()
    player = demo.player_set.order_by("tpn").first()
    from pairing.models import Bye

    seen = ",".join(f"{b.player_id}:{b.kind}" for b in Bye.objects.filter(tournament=demo, round_number=5))
    asked = client.post(reverse("pairing:absences", args=[demo.slug]),
                        {"round": 5, "seen": seen, f"kind-{player.pk}": "F"}, **RU)
    page = asked.content.decode()
    assert 'id="confirm"' in page and "Предупреждение уровня 3" in page
    problems = _english_in(page, allowed)
    game = next(g for g in demo.last_round().games() if not g.result)
    row = client.post(reverse("pairing:game_result", args=[demo.slug, game.round.number, game.pk]),
                      {"result": "1-0", "expected": ""}, HTTP_HX_REQUEST="true", **RU)
    assert row.status_code == 200
    problems += _english_in(f"<table>{row.content.decode()}</table>", allowed)
    assert not problems, "untranslated strings:\n" + "\n".join(problems)


def test_the_language_picker_sets_a_cookie_and_works_without_javascript(demo):
    client = Client()
    page = client.get(reverse("pairing:standings", args=[demo.slug])).content.decode()
    assert 'action="/i18n/setlang/"' in page and 'name="language"' in page
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/t/demo-open/standings/"})
    assert response.status_code == 302 and response["Location"] == "/t/demo-open/standings/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    page = client.get("/t/demo-open/standings/")
    assert page["Content-Language"] == "ru" and '<html lang="ru">' in page.content.decode()
    # the choice wins over the browser's language, and English can be chosen back
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert client.get("/t/demo-open/standings/", **RU)["Content-Language"] == "en"


def test_the_browser_language_decides_without_a_choice_and_unknown_languages_get_english(demo):
    assert Client().get("/", HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")["Content-Language"] == "ru"
    assert Client().get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")["Content-Language"] == "en"
    assert Client().get("/")["Content-Language"] == "en"


def test_the_russian_catalogue_is_complete_and_compiled():
    po = polib.pofile(str(LOCALE / "ru" / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"translate these in locale/ru/LC_MESSAGES/django.po: {untranslated[:20]}"
    assert not fuzzy, f"check these fuzzy translations: {fuzzy[:20]}"
    assert len(po) > 300
    # the compiled catalogue the app loads says what the .po file says
    mo = polib.mofile(str(LOCALE / "ru" / "LC_MESSAGES" / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items()))) for e in mo}
    for e in po.translated_entries():
        assert compiled.get((e.msgctxt, e.msgid)) == (e.msgstr, tuple(sorted(e.msgstr_plural.items()))), (
            f"run `make messages` (the .mo file is older than the .po file): {e.msgid!r}"
        )


def test_russian_counts_take_their_three_forms(demo):
    """1 участник, 3 участника, 5 участников, 21 участник: the catalogue's plural forms."""
    with translation.override("ru"):
        said = {n: translation.ngettext("%(n)s player added.", "%(n)s players added.", n) % {"n": n}
                for n in (1, 3, 5, 11, 21, 22)}
    assert said == {1: "Добавлен 1 участник.", 3: "Добавлено 3 участника.", 5: "Добавлено 5 участников.",
                    11: "Добавлено 11 участников.", 21: "Добавлен 21 участник.", 22: "Добавлено 22 участника."}
    # and through the page: a pasted list of three players, in Russian
    client = _client("arbiter")
    t = Tournament.objects.create(slug="kubok", name="Kubok", rounds=5, owner=demo.owner)
    response = client.post(reverse("pairing:players_import", args=[t.slug]),
                           {"text": "Ivanov, 2100\nPetrov, 2000\nSidorov, 1900"}, follow=True, **RU)
    assert "Добавлено 3 участника." in response.content.decode()
    with translation.override("en"):
        assert translation.ngettext("%(n)s player added.", "%(n)s players added.", 1) % {"n": 1} == "1 player added."


def test_the_standings_legend_says_in_english_what_the_tie_break_module_says():
    """pairing/reports/tiebreak_legend.py translates TieBreak.description: in English the
    two agree word for word for every code."""
    from pairing.reports.tiebreak_legend import describe
    from pairing.tiebreaks import TieBreak

    with translation.override("en"):
        assert {tb: describe(tb) for tb in TieBreak} == {tb: tb.description for tb in TieBreak}
    with translation.override("ru"):
        assert describe(TieBreak.BH_C1).startswith("Бухгольц")


def test_numbers_keep_the_decimal_point_in_russian(demo):
    """One way of writing a number in every column and language: 3.5, 8.25, +10.0 (FIDE's
    and TRF's point), not 3,5 beside 8.25."""
    Tournament.objects.filter(pk=demo.pk).update(public=True)
    page = Client().get(reverse("pairing:standings", args=[demo.slug]), **RU).content.decode()
    card = Client().get(reverse("pairing:player_card", args=[demo.slug, 1]), **RU).content.decode()
    assert not re.search(r"<td[^>]*>[+-]?\d+,\d", page), "a decimal comma in the standings"
    assert not re.search(r"<td[^>]*>(<strong>)?[+-]?\d+,\d", card), "a decimal comma on the card"
    assert not re.search(r'<dd id="points">\d+,\d', card)
