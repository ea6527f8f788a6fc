"""Issue 39: releases are git tags with a changelog; the version in the code is the
changelog's newest release."""

from __future__ import annotations

import re
from pathlib import Path

import arbiter_site

ROOT = Path(__file__).resolve().parents[2]


def test_the_changelog_s_newest_release_is_the_code_s_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[0] == "Unreleased"
    newest = re.fullmatch(r"(\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2})", headings[1])
    assert newest, headings[1]
    assert newest.group(1) == arbiter_site.__version__


def test_the_manual_tags_the_running_image_before_building_and_writes_the_rollback_out():
    manual = (ROOT / "docs" / "manual" / "hosting.md").read_text()
    upgrade = manual.index("docker tag dubov-arbiter:latest dubov-arbiter:previous")
    assert upgrade < manual.index("docker compose up -d --build", upgrade)
    back = manual.index("**Going back**")
    for line in ("restoredb --yes /backups/dubov-before-migrate-",
                 "docker tag dubov-arbiter:previous dubov-arbiter:latest",
                 "docker compose up -d --force-recreate --no-deps web worker"):
        assert line in manual[back:], line
    # and CI runs those steps (scripts/compose_stack_check.py, rollback())
    check = (ROOT / "scripts" / "compose_stack_check.py").read_text()
    assert '"restoredb", "--yes"' in check and '"--force-recreate", "--no-deps", "web", "worker"' in check


def test_no_compose_v2_only_command_in_the_admin_s_documents():
    """`docker compose cp` has no docker-compose 1.29 form, nor `up --wait`."""
    for name in ("README.md", "docs/manual/hosting.md", "CHANGELOG.md", ".env.example", "docker-compose.yml"):
        text = (ROOT / name).read_text()
        for v2_only in ("compose cp ", "up --wait", "up -d --wait", "compose watch", "compose alpha"):
            assert v2_only not in text, (name, v2_only)
