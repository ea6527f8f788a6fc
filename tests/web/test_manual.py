"""The arbiter's manual in the app (issue 21; FIDE checklist Q11-Q14): every page links to
the chapter for it, every chapter exists, renders, and is readable without logging in."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from arbiter_site import urls as site_urls
from pairing import urls as pairing_urls
from pairing.manual import CHAPTERS, MANUAL_DIR, PAGE_CHAPTER, TITLES, chapter_html


def _url_names() -> set[str]:
    names = {p.name for p in pairing_urls.urlpatterns}
    for pattern in site_urls.accounts:
        names.add(pattern.name)
    return names


def test_vcl_q12_every_page_of_the_app_has_a_chapter():
    missing = sorted(_url_names() - set(PAGE_CHAPTER))
    assert not missing, f"give these pages a chapter in pairing/manual.py: {missing}"
    assert set(PAGE_CHAPTER.values()) <= set(TITLES)


def test_vcl_q13_every_chapter_is_a_plain_file_in_the_repository_and_each_file_a_chapter():
    files = {p.stem for p in MANUAL_DIR.glob("*.md")}
    assert files == set(TITLES)
    for slug, title in CHAPTERS:
        first = (MANUAL_DIR / f"{slug}.md").read_text().splitlines()[0]
        assert first == f"# {title}", slug


@pytest.mark.parametrize("slug", list(TITLES))
def test_vcl_q11_each_chapter_renders_for_anyone(anon_client, slug):
    response = anon_client.get(reverse("pairing:help_chapter", args=[slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1" in page and TITLES[slug].split(":")[0] in page
    assert chapter_html(slug) in page
    # the chapter list links every other chapter
    for other in TITLES:
        if other != slug:
            assert f'href="/help/{other}/"' in page


def test_links_between_chapters_and_pages_point_somewhere(anon_client):
    for slug in TITLES:
        for target in re.findall(r'href="(/help/[^"]*)"', chapter_html(slug)):
            assert anon_client.get(target).status_code == 200, (slug, target)


def test_an_unknown_chapter_is_a_404(anon_client):
    assert anon_client.get("/help/no-such-chapter/").status_code == 404
    assert anon_client.post(reverse("pairing:help_index")).status_code == 405


def _help_link(page: str) -> str:
    return re.search(r'<a href="([^"]+)" id="help-link"', page).group(1)


def test_vcl_q12_the_help_link_opens_the_chapter_of_the_page(chief_client, anon_client, tournament, players):
    from tests.web.helpers import play_round

    play_round(tournament)
    tournament.public = True
    tournament.save()
    pages = {
        reverse("pairing:dashboard"): "start",
        reverse("pairing:settings", args=[tournament.slug]): "setup",
        reverse("pairing:players", args=[tournament.slug]): "players",
        reverse("pairing:absences", args=[tournament.slug]): "byes",
        reverse("pairing:round", args=[tournament.slug, 1]): "pairing",
        reverse("pairing:standings", args=[tournament.slug]): "standings",
        reverse("pairing:aro", args=[tournament.slug]): "aro",
        reverse("pairing:aro_spread", args=[tournament.slug]): "aro",
        reverse("pairing:trf_import", args=[tournament.slug]): "import-export",
        reverse("pairing:audit", args=[tournament.slug]): "trust",
        reverse("pairing:forbidden_pairs", args=[tournament.slug]): "manual-pairing",
    }
    for path, chapter in pages.items():
        assert _help_link(chief_client.get(path).content.decode()) == f"/help/{chapter}/", path
    assert _help_link(anon_client.get(reverse("login")).content.decode()) == "/help/start/"
    assert _help_link(anon_client.get(reverse("pairing:crosstable", args=[tournament.slug])).content.decode()) == (
        "/help/standings/"
    )


def test_every_html_page_route_renders_the_help_link(chief_client, tournament, players):
    """Every GET page an arbiter opens carries the link (the base template has it)."""
    for name in ("tournament", "players_import", "player_edit"):
        kwargs = {"slug": tournament.slug}
        if name == "player_edit":
            kwargs["pk"] = players[0].pk
        page = chief_client.get(reverse(f"pairing:{name}", kwargs=kwargs)).content.decode()
        assert 'id="help-link"' in page, name


def test_every_picture_a_chapter_shows_is_a_static_file_of_the_app():
    from django.contrib.staticfiles import finders

    from pairing.manual import images_in

    shown = [(slug, name) for slug in TITLES for name in images_in(slug)]
    assert len(shown) >= 10
    for slug, name in shown:
        assert finders.find(f"manual/{name}"), (slug, name)
        assert f"/static/manual/{name}" in chapter_html(slug)
