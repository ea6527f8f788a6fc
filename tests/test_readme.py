"""The README answers what a newcomer asks first (issue 32, item 13)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_issue32_item13_the_readme_says_how_long_make_test_takes_and_it_is_under_ten_minutes():
    """A newcomer running `make test` learns how long to wait (quiet and busy machine),
    that a still line is not a hang, and the quiet figure is within the 10-minute limit."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"`make test`.{0,200}?takes about ([\d½.]+) minutes on a quiet two-core machine", text)
    assert found, "the README does not say how long make test takes"
    minutes = float(found.group(1).replace("½", ".5"))
    assert minutes < 10
    assert "busy" in text[found.start():found.end() + 200]
    assert "it has not hung" in text
