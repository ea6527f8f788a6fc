"""Steps of a whole event through the UI, as the arbiter takes them, shared by the Dutch and
the Burstein event tests (and the results entry by the club-weekend one)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = ["1", "=", "0", "1"]  # the results typed board after board, in turn


def new_tournament(page, base: str, name: str, slug: str, *, rounds: int | None = None, system: str | None = None,
                   public: bool = False, before_sending: Callable[[], None] | None = None) -> None:
    """The new-tournament form filled in and sent (the default number of rounds and system
    unless given); ``before_sending`` runs on the filled form (a screenshot)."""
    page.goto(f"{base}/new/")
    page.fill("#id_name", name)
    page.fill("#id_slug", slug)
    if rounds is not None:
        page.fill("#id_rounds", str(rounds))
    if system is not None:
        page.check(f"input[name=system][value={system}]")
    if public:
        page.check("#id_public")
    if before_sending is not None:
        before_sending()
    with page.expect_navigation():
        page.click("button[type=submit].primary")


def an_arbiter_opens_an_event(page, base: str, username: str, password: str, system: str, name: str, slug: str,
                              shot: Callable[[], None]):
    """An arbiter's account, logged in through the form, creating a public tournament of 4
    rounds paired with ``system`` (``shot`` taken of the filled form); returns it."""
    from django.contrib.auth import get_user_model

    from pairing.models import Tournament

    from .conftest import log_in

    get_user_model().objects.create_user(username=username, password=password)
    log_in(page, base, username, password)
    new_tournament(page, base, name, slug, rounds=4, system=system, public=True, before_sending=shot)
    t = Tournament.objects.get(slug=slug)
    assert t.system == system and t.public and t.rounds == 4
    return t


def paste_players(page, text: str) -> None:
    """``text`` (a line a player) sent from the page to add a list of players."""
    page.fill("#id_text", text)
    with page.expect_navigation():
        page.click("form.card button[type=submit]")


def pair_next(page, base: str, slug: str) -> None:
    """"Pair next round" on the tournament's page; ends on the draft."""
    page.goto(f"{base}/t/{slug}/")
    with page.expect_navigation():
        page.click("#pair-next")


def confirm(page) -> None:
    """The confirmation page's button pressed (one level of warning answered)."""
    page.wait_for_selector("#confirm")
    with page.expect_navigation():
        page.click("#confirm-button")


def results_by_keyboard(page, boards: int) -> None:
    """Every board's result typed on the round's page (``KEYS`` in turn), the focus moving
    to the next board after each; ends with the round complete."""
    page.wait_for_selector("#progress")
    page.wait_for_load_state("networkidle")
    page.locator("#board-1").focus()
    for n in range(1, boards + 1):
        page.keyboard.press(KEYS[(n - 1) % len(KEYS)])
        page.wait_for_function(f"document.querySelector('#progress').innerText.includes('{n} of {boards}')")
        if n < boards:
            page.wait_for_function(f"document.activeElement && document.activeElement.id === 'board-{n + 1}'")
    assert "round complete" in page.inner_text("#progress")


def publish_and_play(page, boards: int) -> None:
    """The draft on the page published, then every result entered from the keyboard."""
    with page.expect_navigation():
        page.click("#publish")
    results_by_keyboard(page, boards)


def export(page, base: str, slug: str) -> str:
    """The rating report (TRF-2026) as downloaded from the tournament's page."""
    page.goto(f"{base}/t/{slug}/")
    with page.expect_download() as download:
        page.click("text=Export TRF-2026")
    return Path(download.value.path()).read_text(encoding="utf-8")


def check(text: str, path: Path, system: str) -> subprocess.CompletedProcess:
    """``python -m pairing.engine --<system> FILE -c`` run on the report ``text`` (saved at ``path``)."""
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "pairing.engine", f"--{system}", str(path), "-c"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def import_report(page, base: str, slug: str, report: str) -> str:
    """The report pasted on the TRF import page of tournament ``slug`` and sent; returns the
    confirmation page's question."""
    page.goto(f"{base}/t/{slug}/import-trf/")
    page.fill("#id_text", report)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    return page.inner_text("#confirm")
