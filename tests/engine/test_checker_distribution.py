"""The free checker as a program of its own (issue 35): its wheel and its single-file program,
built into a temporary folder and run by an interpreter that sees neither Django nor rustworkx
(``python -I -S``), as an arbiter's or a rating officer's machine would.  The same steps as CI's
stage (scripts/ci-checker.sh, which installs the wheel with pip in a clean virtual environment),
on smaller tournaments."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import arbiter_site
from pairing import distribution
from pairing.engine import version
from pairing.engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("checker_smoke", ROOT / "scripts" / "checker_smoke.py")
_smoke = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_smoke)
smoke = _smoke.smoke

BARE = [sys.executable, "-I", "-S"]  # no site-packages: no Django, no rustworkx
NAME = f"{version.DISTRIBUTION} {version.VERSION}"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dist")
    out = {}
    for b in (distribution.build_wheel("0123456789ab"), distribution.build_zipapp("0123456789ab")):
        (folder / b.name).write_bytes(b.data)
        out[b.name.rsplit(".", 1)[1]] = folder / b.name
    return out


def test_one_version_for_the_app_the_export_and_the_checker(capsys):
    assert arbiter_site.__version__ == version.VERSION
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith(f"{NAME} (")


def test_the_wheel_is_a_pure_python_wheel_pip_accepts(built):
    """Tag py3-none-any, Python 3.11+, the console command, no dependency but the optional
    rustworkx, the README as its description, every file's hash in RECORD, and the engine,
    the tie-breaks and nothing of the web app."""
    path = built["whl"]
    assert path.name == f"fide_pairings-{version.VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        info = f"fide_pairings-{version.VERSION}.dist-info"
        meta = zf.read(f"{info}/METADATA").decode()
        assert f"Name: fide-pairings\nVersion: {version.VERSION}\n" in meta
        assert "Requires-Python: >=3.11" in meta and 'Requires-Dist: rustworkx>=0.15; extra == "fast"' in meta
        assert meta.endswith(distribution.README.read_text(encoding="utf-8"))
        assert "Tag: py3-none-any" in zf.read(f"{info}/WHEEL").decode()
        assert "fide-pairings = pairing.engine.__main__:console" in zf.read(f"{info}/entry_points.txt").decode()
        record = zf.read(f"{info}/RECORD").decode().splitlines()
        assert len(record) == len(names)
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if name.endswith("RECORD"):
                continue
            data = zf.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert int(size) == len(data)
        assert zf.read("pairing/engine/_build.py").decode().endswith("COMMIT = '0123456789ab'\n")
    packages = {n.split("/")[1] for n in names if n.startswith("pairing/") and n.count("/") >= 2}
    assert packages == {"engine", "tiebreaks"}
    assert {"pairing/__init__.py", "pairing/tiebreak_data.py", "pairing/engine/blossom.py"} <= set(names)
    assert not [n for n in names if "__pycache__" in n or n.startswith(("pairing/services", "pairing/models"))]


def test_the_same_commit_builds_the_same_bytes():
    assert distribution.build_wheel("x").data == distribution.build_wheel("x").data
    assert distribution.build_zipapp("x").data == distribution.build_zipapp("x").data


def test_the_zipapp_runs_without_django_and_rustworkx_and_keeps_its_promises(built):
    """``python -I -S fide-pairings-1.0.0.pyz``: Django and rustworkx cannot be imported there;
    generate, check (0), pair, a wrong colour (4), an unreadable file (3), no file (2), a round
    that cannot be paired (1), for each system, with the pure-Python matching."""
    assert subprocess.run([*BARE, "-c", "import django"], capture_output=True).returncode != 0
    assert subprocess.run([*BARE, "-c", "import rustworkx"], capture_output=True).returncode != 0
    pyz = str(built["pyz"])
    done = subprocess.run([*BARE, pyz, "--version"], capture_output=True, text=True)
    assert done.stdout == f"{NAME} (commit 0123456789ab; pure-Python matching)\n"
    assert built["pyz"].read_bytes().startswith(b"#!/usr/bin/env python3\n")
    passed, failed = smoke([*BARE, pyz], ["dubov", "dutch", "burstein"], 10, 4, NAME)
    assert (passed, failed) == (23, 0)


def test_the_wheel_installed_by_pip_runs_without_django(built, tmp_path):
    """pip installs the wheel (into a folder of its own); an interpreter without
    site-packages runs its command's code from there."""
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                           "--disable-pip-version-check", "--target", str(target), str(built["whl"])],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (target / "bin" / "fide-pairings").exists() or (target / "Scripts" / "fide-pairings.exe").exists()
    command = [*BARE, "-c", f"import sys; sys.path.insert(0, {str(target)!r}); "
               "from pairing.engine.__main__ import console; console()"]
    passed, failed = smoke(command, ["dubov"], 10, 4, NAME)
    assert (passed, failed) == (11, 0)


def test_the_readme_names_the_files_of_this_release():
    text = distribution.README.read_text(encoding="utf-8")
    assert f"fide-pairings-{version.VERSION}.pyz" in text and distribution.wheel_name() in text


def test_a_name_the_output_cannot_carry_is_escaped_not_a_trace(built, tmp_path):
    """Output in an encoding without the file's letters (a Windows code page; here ASCII):
    the checker escapes them and finishes."""
    lines = [f"001 {pid:4d}      {'Player ' + str(pid):<33} {rating:4d}".ljust(91) + f"{opp:4d} {c} {r}"
             for pid, rating, opp, c, r in ((1, 2400, 2, "w", "1"), (2, 2300, 1, "b", "0"))]
    path = tmp_path / "named.trf"
    path.write_text("\n".join(lines) + "\nXXR 3\nXXC white1\n### Paired by: Pr\u00f3gram 2: round 1\n", encoding="utf-8")
    env = {"PYTHONIOENCODING": "ascii", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-S", str(built["pyz"]), "--dubov", str(path), "-c"], capture_output=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert b"the file says: Paired by: Pr\\xf3gram 2: round 1" in done.stdout
