"""Real browser, a club's weekend event (issue 37) through the UI: the chief arbiter creates
the event and two sections (an Open, Dubov; an Under 1600, Dutch, one place), three
players enter online from their own browsers (the third finds the Under 1600 full and is
put on its waiting list), the arbiter moves that entry to the Open and approves all three;
players check themselves in by the QR code's link on a phone, the arbiter marks the rest
present but one and closes check-in (Level 3: the absent player named, given the
zero-point bye for round 1), moves a player to the other section, pairs round 1 (the
absent player not paired), prints the result slips (printed to PDF for its pages and
rendered as print to a PNG to look at), enters the results, sets and publishes a prize
list; a visitor opens the front page on a phone and finds the event, its sections and the
prize list.  Screenshots: artifacts/screenshots/event-*.png.
"""

from __future__ import annotations

import datetime
import re
import time

import pytest

from .conftest import PHONE, SHOTS, log_in
from .event_steps import results_by_keyboard

pytestmark = pytest.mark.browser

PASSWORD = "weekend-event-pass-7"
ENTRANTS = [  # (name typed, FIDE id, section chosen)
    ("Novak Ana", "5000001", "weekend-open"),
    ("Horvat Mia", "5000003", "weekend-u1600"),
    ("Kovac Luka", "5000002", "weekend-u1600"),  # the Under 1600 is full: the waiting list
]
PASTED = [  # 17 more players of the Open; Dahl does not come, Varga moves to the Under 1600
    ("Berg, Ida", 2140), ("Costa, Rui", 1985), ("Dahl, Erik", 1760), ("Varga, Zsofia", 1590), ("Eller, Tom", 2105),
    ("Fabbri, Lia", 2080), ("Gruber, Max", 2050), ("Hale, Joe", 2020), ("Ivic, Ema", 1995), ("Jovan, Uros", 1960),
    ("Kralj, Eva", 1930), ("Lenz, Otto", 1900), ("Mars, Ana", 1870), ("Noor, Sam", 1840), ("Orban, Lea", 1810),
    ("Pavel, Jan", 1780), ("Rist, Ola", 1750),
]
ABSENT, MOVED = "Dahl, Erik", "Varga, Zsofia"
SELF_CHECKIN = ["novak", "kovac"]


def shot(page, name: str, **kwargs) -> None:
    page.screenshot(path=str(SHOTS / f"event-{name}.png"), full_page=True, **kwargs)


def _submit(page) -> None:
    with page.expect_navigation():
        page.click("main button[type=submit].primary")


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_a_club_weekend_from_entries_to_the_prize_list(live_server, browser_page, chromium):
    from django.contrib.auth import get_user_model
    from django.core import mail

    from pairing.models import AuditEntry, Bye, CheckIn, Entry, Event, Player, Tournament
    from tests.web.event_helpers import fide_list

    get_user_model().objects.create_user(username="weekendchief", password=PASSWORD)
    fide_list()  # Novak, Kovac, Horvat ... in the FIDE list the sections use
    base = live_server.url
    page = browser_page
    log_in(page, base, "weekendchief", PASSWORD)
    today = datetime.date.today()

    # 1. the event: online entries and self check-in on
    page.goto(f"{base}/e/new/")
    page.fill("#id_name", "Club Weekend")
    page.fill("#id_slug", "club-weekend")
    page.fill("#id_place", "Bled")
    page.fill("#id_start_date", today.isoformat())
    page.fill("#id_end_date", (today + datetime.timedelta(days=1)).isoformat())
    page.check("#id_entries_open")
    page.check("#id_self_checkin")
    _submit(page)
    assert page.url == f"{base}/e/club-weekend/"
    event = Event.objects.get(slug="club-weekend")

    # 2. two sections inside it: an Open (Dubov) and an Under 1600 (Dutch) of one place
    for name, slug, system, limit in (("Weekend Open", "weekend-open", "dubov", ""),
                                      ("Weekend Under 1600", "weekend-u1600", "dutch", "1")):
        page.goto(f"{base}/e/club-weekend/")
        with page.expect_navigation():
            page.click("#add-section")
        page.fill("#id_name", name)
        page.fill("#id_slug", slug)
        page.fill("#id_rounds", "5")
        page.check(f"input[name=system][value={system}]")
        page.check("#id_public")
        page.fill("#id_entry_limit", limit)
        with page.expect_navigation():
            page.click("button[type=submit].primary")
    open_, u1600 = (Tournament.objects.get(slug=s) for s in ("weekend-open", "weekend-u1600"))
    assert open_.event == u1600.event == event and (u1600.system, u1600.entry_limit) == ("dutch", 1)
    page.goto(f"{base}/e/club-weekend/")
    shot(page, "01-event-overview")

    # 3. three players open the entry form, each in a browser of their own ...
    entrants = []
    for typed, fide_id, section in ENTRANTS:
        visitor = chromium.new_context(**PHONE)
        form = visitor.new_page()
        form.goto(f"{base}/e/club-weekend/enter/")
        form.fill("#id_name", typed)
        form.fill("#id_fide_id", fide_id)
        form.select_option("#id_section", section)
        form.fill("#id_email", f"{fide_id}@example.org")
        entrants.append((visitor, form))
    opened = time.monotonic()
    shot(entrants[0][1], "02-entry-form-phone")

    # ... while the arbiter registers the Open's other players from a pasted list
    page.goto(f"{base}/t/weekend-open/players/import/")
    page.fill("#id_text", "\n".join(f"{name}; {rating}" for name, rating in PASTED))
    with page.expect_navigation():
        page.click("form.card button[type=submit]")
    assert open_.player_set.count() == len(PASTED)

    # the entries are sent no sooner than a person would (the form's 3 seconds)
    time.sleep(max(0.0, 4 - (time.monotonic() - opened)))
    for _visitor, form in entrants:
        with form.expect_navigation():
            form.click("#entry-form button[type=submit]")
        assert "/e/club-weekend/entry/" in form.url, form.inner_text("main")
    states = dict(Entry.objects.values_list("fide_id", "state"))
    assert states == {"5000001": "pending", "5000003": "pending", "5000002": "waiting"}
    waiting = entrants[2][1]
    assert "number 1 on the waiting list" in waiting.inner_text("main")
    shot(waiting, "03-entry-waiting-list-phone")
    entry = Entry.objects.get(fide_id="5000001")
    assert (entry.name, entry.rating, entry.title, entry.federation) == ("Novak, Ana", 2010, "WFM", "SLO")

    # 4. the arbiter moves the waiting entry to the Open, then approves all three
    page.goto(f"{base}/e/club-weekend/entries/")
    kovac = Entry.objects.get(fide_id="5000002")
    page.check(f"#tick-{kovac.pk}")
    page.select_option("#move-to", "weekend-open")
    with page.expect_navigation():
        page.click("button[name=action][value=move]")
    assert Entry.objects.get(pk=kovac.pk).state == "pending"
    for e in Entry.objects.all():
        page.check(f"#tick-{e.pk}")
    shot(page, "04-entries-ticked")
    with page.expect_navigation():
        page.click("button[name=action][value=approve]")
    assert set(Entry.objects.values_list("state", flat=True)) == {"approved"}
    assert open_.player_set.count() == len(PASTED) + 2 and u1600.player_set.count() == 1
    novak = Player.objects.get(tournament=open_, fide_id="5000001")
    assert (novak.rating, novak.title, novak.federation) == (2010, "WFM", "SLO")  # the list's, not typed
    # mail through Django's framework (the tests' outbox): received, then approved
    subjects = sorted(m.subject for m in mail.outbox)
    assert subjects == ["Your entry to Club Weekend"] * 3 + ["Your entry to Club Weekend is approved"] * 3
    for _visitor, form in entrants:
        form.reload()
        assert "Approved" in form.inner_text("main")

    # 5. check-in: two players by the QR code's link on their phones ...
    page.goto(f"{base}/t/weekend-open/check-in/")
    link = page.get_attribute("a:text('self check-in')", "href")
    assert link and event.checkin_secret in link
    phone = chromium.new_context(**PHONE).new_page()
    for name in SELF_CHECKIN:
        phone.goto(link)
        phone.fill("#find-me", name)
        with phone.expect_navigation():
            phone.click("form.card button[type=submit]")
        with phone.expect_navigation():
            phone.click("#found button.primary")
        assert "you are checked in" in phone.inner_text("main")
    shot(phone, "05-self-checkin-phone")
    # ... the arbiter marks the others present, all but Dahl
    page.goto(f"{base}/t/weekend-open/check-in/")
    for p in open_.player_set.exclude(name=ABSENT).exclude(checkin__present=True):
        page.click(f"#present-{p.pk}")
        page.wait_for_selector(f"#p{p.pk}.present")
    page.reload()
    assert "18 of 19 present" in page.inner_text("#checkin-count")
    assert CheckIn.objects.filter(player__tournament=open_, present=True, by="self check-in").count() == 2

    # 6. close check-in: the confirmation names Dahl, who gets the zero-point bye
    with page.expect_navigation():
        page.click("#close-checkin button[type=submit]")
    question = page.inner_text("#confirm")
    assert ABSENT in question and "zero-point bye for round 1" in question
    shot(page, "06-close-checkin-confirmation")
    with page.expect_navigation():
        page.click("#confirm-button")
    dahl = Player.objects.get(name=ABSENT)
    assert list(Bye.objects.filter(tournament=open_).values_list("player_id", "round_number", "kind")) == [
        (dahl.pk, 1, "Z")]

    # 7. a player moves to the other section, on the event's player list
    varga = Player.objects.get(name=MOVED)
    page.goto(f"{base}/e/club-weekend/players/")
    page.select_option(f"#move-{varga.pk}", "weekend-u1600")
    with page.expect_navigation():
        page.click(f"#player-{varga.pk} button[type=submit]")
    assert Player.objects.get(pk=varga.pk).tournament == u1600
    assert "Varga, Zsofia moved to Weekend Under 1600" in page.inner_text("main")

    # 8. round 1 of the Open: Dahl not paired; 17 players, 8 boards and the PAB
    page.goto(f"{base}/t/weekend-open/")
    with page.expect_navigation():
        page.click("#pair-next")
    with page.expect_navigation():
        page.click("#publish")
    rnd = open_.round_set.get(number=1)
    games = list(rnd.games())
    assert len(games) == 8 and rnd.pab() is not None
    assert dahl.pk not in {g.white_id for g in games} | {g.black_id for g in games} | {rnd.pab().player_id}
    round_page = page.url

    # 9. result slips, as printed: A4 pages from the print engine, and the print look in PNG
    page.goto(f"{base}/t/weekend-open/print/slips/")
    assert page.locator(".slip").count() == 8
    assert _pdf_pages(page.pdf(format="A4", print_background=True)) == 1  # 8 slips, one sheet
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    assert page.locator(".screen-bar").is_hidden()
    shot(page, "07-slips-print")
    page.goto(f"{base}/t/weekend-open/print/wall/")
    dahl.refresh_from_db()
    assert f"Dahl, Erik ({dahl.tpn}, zero-point bye)" in page.inner_text("#not-paired")  # he finds his name
    shot(page, "08-wall-chart-print")
    page.goto(f"{base}/t/weekend-open/print/checkin/")
    assert page.locator(".qr-box svg").count() == 1  # the QR code of self check-in
    shot(page, "09-checkin-list-print")
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 1200, "height": 900})

    # 10. the results, then the prize list: set and published
    page.goto(round_page)
    results_by_keyboard(page, 8)
    page.goto(f"{base}/t/weekend-open/prizes/edit/")
    page.fill("#id_categories", "Women: women\nU1800: rating -1799")
    page.fill("#id_prizes", "place: 100, 60, 40\nWomen: 30\nU1800: 25")
    with page.expect_navigation():
        page.click("#prize-form button[type=submit]")
    with page.expect_navigation():
        page.click("#publish-prizes")
    assert "Published." in page.inner_text("main")
    assert AuditEntry.objects.filter(tournament=open_, action="prizes", detail="Prize list published.").exists()

    # 11. a visitor on a phone: the front page, the event, its sections, the prize list
    visitor = chromium.new_context(**PHONE)
    public = visitor.new_page()
    public.goto(f"{base}/")
    current = public.inner_text("#current")
    assert "Club Weekend" in current and "Weekend Open" in current and "Weekend Under 1600" in current
    assert "round 1 in play" not in current and "after round 1" in current  # its results are in
    assert public.evaluate("document.documentElement.scrollWidth") <= 390
    shot(public, "10-front-page-phone")
    with public.expect_navigation():
        public.click("#section-weekend-open a.prize-link")
    assert public.url == f"{base}/t/weekend-open/prizes/"
    prize_list = public.inner_text("#prize-list")
    assert "General" in prize_list and "EUR" in prize_list and "Paid in all" in prize_list
    assert public.evaluate("document.documentElement.scrollWidth") <= 390
    shot(public, "11-prize-list-phone")
    visitor.close()

    # 12. the event's audit trail holds the day: entries, self check-in, the close, the move, the prizes
    page.goto(f"{base}/e/club-weekend/audit/")
    trail = page.inner_text("#event-audit")
    for sentence in ("on the waiting list (section full)", "moved from Weekend Under 1600 to Weekend Open",
                     "approved: registered with TPN", "checked in by the QR code", "Check-in closed: 1 not present",
                     "Varga, Zsofia moved to the section Weekend Under 1600", "Prize list published."):
        assert sentence in trail, sentence
    for visitor, _form in entrants:
        visitor.close()
