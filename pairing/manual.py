"""The arbiter's manual: chapters written as Markdown files in docs/manual/ (readable in
the repository as they are) and shown in the app at /help/<chapter>/, with a Help link on
every page that opens the chapter for that page.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

MANUAL_DIR = Path(__file__).resolve().parent.parent / "docs" / "manual"

# (slug, title), in reading order; the file is docs/manual/<slug>.md
# (titles translated for the table of contents; the chapters themselves are English)
CHAPTERS: list[tuple[str, str]] = [
    ("start", _("Getting started: accounts and the arbiter team")),
    ("setup", _("Setting up a tournament")),
    ("players", _("Players and pairing numbers")),
    ("ratings", _("Rating lists, tournament rating, rating checks")),
    ("byes", _("Byes, absences and withdrawals")),
    ("pairing", _("Pairing a round and why")),
    ("dutch", _("The FIDE Dutch system")),
    ("burstein", _("The FIDE Burstein system")),
    ("round-robin", _("Round robins")),
    ("manual-pairing", _("Changing a draft by hand, forbidden pairs")),
    ("results", _("Entering and correcting results")),
    ("standings", _("Standings, tie-breaks, crosstable")),
    ("aro", _("The ARO list")),
    ("import-export", _("TRF import and export")),
    ("public", _("Public pages and printing")),
    ("events", _("Events, sections and the front page")),
    ("entries", _("Online entries")),
    ("hall", _("Check-in and the hall's paperwork")),
    ("prizes", _("Categories, clubs and prizes")),
    ("fide-mode", _("FIDE mode, warnings and pairing-integrity events")),
    ("checker", _("The free checker (fide-pairings)")),
    ("trust", _("Two arbiters at once, the audit trail, logins")),
    ("hosting", _("Hosting, backups and upgrades")),
]
TITLES = dict(CHAPTERS)

# The chapter each page's Help link opens (by URL name); a page left out opens the index.
PAGE_CHAPTER = {
    "login": "start",
    "device_pass": "start",
    "logout": "start",
    "password_change": "start",
    "password_change_done": "start",
    "dashboard": "start",
    "invitation_answer": "start",
    "tournament_create": "setup",
    "settings": "setup",
    "deputies": "start",
    "tournament": "pairing",
    "players": "players",
    "players_import": "players",
    "player_edit": "players",
    "rating_lists": "ratings",
    "rating_list_delete": "ratings",
    "rating_list_upload": "ratings",
    "rating_list_update": "ratings",
    "player_lookup": "ratings",
    "rating_check": "ratings",
    "berger": "round-robin",
    "tie_details": "standings",
    "pairing_numbers": "players",
    "player_delete": "players",
    "player_withdraw": "byes",
    "player_missed_rounds": "byes",
    "absences": "byes",
    "byes_grid": "byes",
    "forbidden_pairs": "manual-pairing",
    "forbidden_pair_delete": "manual-pairing",
    "pair_next": "pairing",
    "round": "pairing",
    "round_publish": "pairing",
    "round_discard": "pairing",
    "round_swap": "manual-pairing",
    "round_manual": "manual-pairing",
    "pair_by_hand": "manual-pairing",
    "game_result": "results",
    "game_rating_result": "results",
    "standings": "standings",
    "standings_csv": "standings",
    "crosstable": "standings",
    "player_card": "standings",
    "aro": "aro",
    "aro_spread": "aro",
    "trf_import": "import-export",
    "trf_export": "import-export",
    "audit": "trust",
    "fide_mode": "fide-mode",
    "fide_mode_leave": "fide-mode",
    "integrity_undo": "fide-mode",
    "check_tournament": "fide-mode",
    "checker": "checker",
    "checker_file": "checker",
    "job": "fide-mode",
    "job_answer": "import-export",
    "health": "hosting",
    "help_index": "start",
    "density": "results",
    "help_chapter": "start",
    "front_page": "events",
    "event_create": "events",
    "event": "events",
    "event_settings": "events",
    "event_players": "events",
    "event_player_move": "events",
    "event_audit": "events",
    "entry_form": "entries",
    "entry_status": "entries",
    "event_entries": "entries",
    "checkin": "hall",
    "checkin_close": "hall",
    "self_checkin": "hall",
    "print_sheet": "hall",
    "prizes": "prizes",
    "prizes_edit": "prizes",
}


def chapter_for(url_name: str | None) -> str | None:
    return PAGE_CHAPTER.get(url_name or "")


@cache
def chapter_html(slug: str) -> str:
    """The chapter as HTML (our own files, so their HTML is trusted)."""
    if slug not in TITLES:
        raise KeyError(slug)
    text = (MANUAL_DIR / f"{slug}.md").read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "toc", "sane_lists"], output_format="html")
    # a screenshot is img/<name> beside the Markdown file; in the app it is a static file
    return IMAGE_SRC.sub(lambda m: f'src="{static("manual/" + m.group(1))}"', html)


IMAGE_SRC = re.compile(r'src="img/([\w.-]+)"')
IMAGE_DIR = MANUAL_DIR / "img"


def images_in(slug: str) -> list[str]:
    """The screenshots chapter ``slug`` shows (file names in docs/manual/img/)."""
    text = (MANUAL_DIR / f"{slug}.md").read_text(encoding="utf-8")
    return re.findall(r"!\[[^\]]*\]\(img/([\w.-]+)\)", text)
