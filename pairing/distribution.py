"""The free checker as a program of its own (``fide-pairings``): the pairing engines, the
generator and the checker, without the web app, as a wheel and as a single-file program.

Both are built from this repository's own files, with the standard library only (no build
backend to download), byte for byte the same from the same commit:

* the wheel ``fide_pairings-<version>-py3-none-any.whl``: pure Python, installable with pip
  on Windows, macOS and Linux (Python 3.11+); the command ``fide-pairings``; no dependency
  (``pip install "fide_pairings-...whl[fast]"`` adds rustworkx, the compiled matching the app
  uses: the same pairings, faster on large brackets);
* the zipapp ``fide-pairings-<version>.pyz``: one file that any Python 3.11+ runs
  (``python fide-pairings-1.0.0.pyz --dubov FILE -c``), with the pure-Python matching where
  rustworkx is not installed.

What goes in: ``pairing/engine`` (the engines, TRF, generator, checker), ``pairing/tiebreaks``
and ``pairing/tiebreak_data.py`` (the standings the checker recomputes), none of which imports
Django (``tests/engine/test_independence.py``); the README for arbiters and rating officers
(``fide-pairings/README.md``, the wheel's description); and ``pairing/engine/_build.py`` with
the commit the files were built from.  ``scripts/build_checker.py`` (``make checker``) writes
both into ``dist/``; the app builds the same files from its own code and serves them at
``/checker/`` (:mod:`pairing.views.checker`).
"""

from __future__ import annotations

import base64
import hashlib
import io
import stat
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .engine import version

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "fide-pairings" / "README.md"
PACKAGES = ("pairing/engine", "pairing/tiebreaks")
MODULES = ("pairing/__init__.py", "pairing/tiebreak_data.py")
# every file in the archives gets this date: the same commit builds the same bytes
EPOCH = (1980, 1, 1, 0, 0, 0)
SUMMARY = ("FIDE Swiss pairings (Dubov, Dutch, Burstein): the free checker, generator and pairing engines "
           "of Dubov arbiter, for arbiters and rating officers")

ZIPAPP_MAIN = '''"""fide-pairings as one file: python fide-pairings.pyz --dubov FILE -c (see --help)."""
import sys

if sys.version_info < (3, 11):
    sys.exit("fide-pairings needs Python 3.11 or newer; this is Python %d.%d" % sys.version_info[:2])

from pairing.engine.__main__ import console

console()
'''


@dataclass(frozen=True)
class Built:
    name: str
    data: bytes
    commit: str = ""  # the commit it was built from ('' when unknown)


def wheel_name() -> str:
    return f"{version.DISTRIBUTION.replace('-', '_')}-{version.VERSION}-py3-none-any.whl"


def zipapp_name() -> str:
    return f"{version.DISTRIBUTION}-{version.VERSION}.pyz"


def commit() -> str:
    """The repository's commit (12 digits, ``-modified`` when the shipped files differ from
    it), or '' without git (an installed copy of the app)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=20)
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *PACKAGES, *MODULES, str(README)], cwd=ROOT,
                               capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return head.stdout.strip() + ("-modified" if dirty.stdout.strip() else "")


def sources() -> list[tuple[str, bytes]]:
    """(path in the archive, contents) of every shipped module, sorted."""
    files = [ROOT / m for m in MODULES]
    for package in PACKAGES:
        files += [p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts]
    return sorted((p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in files)


def _build_module(sha: str) -> tuple[str, bytes]:
    text = f'"""Written by scripts/build_checker.py: the commit these files were built from."""\n\nCOMMIT = {sha!r}\n'
    return "pairing/engine/_build.py", text.encode()


def _zip(entries: list[tuple[str, bytes]], prefix: bytes = b"") -> bytes:
    buf = io.BytesIO()
    buf.write(prefix)  # before the archive, its offsets counted from the file's start
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=9)
    return buf.getvalue()


def _metadata(readme: str) -> str:
    fields = [
        ("Metadata-Version", "2.1"),
        ("Name", version.DISTRIBUTION),
        ("Version", version.VERSION),
        ("Summary", SUMMARY),
        ("Classifier", "Programming Language :: Python :: 3"),
        ("Classifier", "Operating System :: OS Independent"),
        ("Classifier", "Topic :: Games/Entertainment :: Board Games"),
        ("Requires-Python", ">=3.11"),
        ("Provides-Extra", "fast"),
        ("Requires-Dist", 'rustworkx>=0.15; extra == "fast"'),
        ("Description-Content-Type", "text/markdown; charset=UTF-8"),
    ]
    return "".join(f"{k}: {v}\n" for k, v in fields) + "\n" + readme


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def build_wheel(sha: str | None = None) -> Built:
    """The wheel (PEP 427): the modules, then the .dist-info with METADATA, WHEEL, the
    ``fide-pairings`` console command and RECORD (every file's hash)."""
    sha = commit() if sha is None else sha
    info = f"{version.DISTRIBUTION.replace('-', '_')}-{version.VERSION}.dist-info"
    entries = sorted([*sources(), _build_module(sha)])
    entries += [
        (f"{info}/METADATA", _metadata(README.read_text(encoding="utf-8")).encode()),
        (f"{info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: scripts/build_checker.py ({version.program()})\n"
                           "Root-Is-Purelib: true\nTag: py3-none-any\n").encode()),
        (f"{info}/entry_points.txt",
         f"[console_scripts]\n{version.DISTRIBUTION} = pairing.engine.__main__:console\n".encode()),
        (f"{info}/top_level.txt", b"pairing\n"),
    ]
    record = "".join(_record_line(n, d) for n, d in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    return Built(wheel_name(), _zip(entries), sha)


def build_zipapp(sha: str | None = None) -> Built:
    """The single-file program: a zip of the modules with a ``__main__.py``, behind a
    ``#!/usr/bin/env python3`` line (PEP 441); README.md inside for the curious."""
    sha = commit() if sha is None else sha
    entries = sorted([*sources(), _build_module(sha), ("__main__.py", ZIPAPP_MAIN.encode()),
                      ("README.md", README.read_bytes())])
    return Built(zipapp_name(), _zip(entries, prefix=b"#!/usr/bin/env python3\n"), sha)
