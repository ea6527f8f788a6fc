"""Issue 35: the site offers the free checker (fide-pairings) to anyone, built from the code it
runs, and links to it from the manual, the FIDE-mode page and a check's findings, which name
the checker that made them."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile

import pytest
from django.urls import reverse

from pairing import distribution, tasks
from pairing.engine.version import VERSION
from pairing.models import JobKind
from pairing.views.checker import _files
from tests.web.test_jobs import run
from tests.web.worker_process import import_generated

PAGE = "/checker/"
PYZ = f"fide-pairings-{VERSION}.pyz"
WHEEL = f"fide_pairings-{VERSION}-py3-none-any.whl"


@pytest.fixture(autouse=True)
def _fresh_build():
    _files.cache_clear()
    yield
    _files.cache_clear()


@pytest.mark.parametrize("persona", ["anon_client", "stranger_client", "chief_client"])
def test_anyone_gets_the_checker_page_with_both_files_and_its_manual(request, persona):
    page = request.getfixturevalue(persona).get(PAGE)
    assert page.status_code == 200
    text = page.content.decode()
    for name in (PYZ, WHEEL):
        assert f'href="/checker/{name}"' in text
    assert f"Release {VERSION}, the one this site pairs with" in text
    assert "What is not checked" in text and "<table>" in text  # the README, rendered


def test_the_single_file_downloads_and_runs_without_the_site(anon_client, tmp_path):
    response = anon_client.get(f"/checker/{PYZ}")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{PYZ}"'
    data = response.content
    assert int(response["Content-Length"]) == len(data)
    path = tmp_path / PYZ
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-I", "-S", str(path), "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith(f"fide-pairings {VERSION} (")


def test_the_wheel_downloads_as_the_build_script_writes_it(anon_client):
    response = anon_client.get(f"/checker/{WHEEL}")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    built = _files()[WHEEL]
    assert response.content == distribution.build_wheel(built.commit).data
    assert f"fide_pairings-{VERSION}.dist-info/RECORD" in zipfile.ZipFile(io.BytesIO(response.content)).namelist()


def test_another_name_is_a_404_and_posting_is_refused(anon_client):
    assert anon_client.get("/checker/settings.py").status_code == 404
    assert anon_client.get("/checker/..%2Fmanage.py").status_code == 404
    assert anon_client.post(PAGE).status_code == 405
    assert anon_client.post(f"/checker/{PYZ}").status_code == 405


def test_the_manual_has_a_chapter_that_links_the_download(anon_client):
    page = anon_client.get(reverse("pairing:help_chapter", args=["checker"])).content.decode()
    assert 'href="/checker/"' in page and "fide-pairings" in page
    # the checker's page opens that chapter from its Help link
    assert 'href="/help/checker/"' in anon_client.get(PAGE).content.decode()


def test_the_fide_mode_page_links_the_free_checker(chief_client, tournament):
    page = chief_client.get(reverse("pairing:fide_mode", args=[tournament.slug])).content.decode()
    assert 'id="free-checker-link"' in page and 'href="/checker/"' in page


def test_a_check_s_findings_name_the_checker_that_made_them(chief_client, tournament):
    checked = import_generated(tournament, 12, 3)
    job = run(tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked))
    assert job.result["ok"]
    assert job.result["checker"].startswith(f"fide-pairings {VERSION} (") and "FIDE Dubov system" in job.result["checker"]
    assert job.result["free_command"] == f"fide-pairings --dubov {checked.slug}.trf -c"
    page = chief_client.get(reverse("pairing:job", args=[job.pk])).content.decode()
    assert 'id="check-checker"' in page and job.result["checker"] in page
    assert f"<code>fide-pairings --dubov {checked.slug}.trf -c</code>" in page and 'href="/checker/"' in page
