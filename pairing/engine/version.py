"""The program's name and release, in one place: the app's version (``arbiter_site.__version__``,
CHANGELOG.md's newest release), the TRF export's 182 record and ``### Paired by`` lines, and
the free checker's distribution (``fide-pairings``: its wheel, its single-file program, and the
line its ``-c`` output starts with, so that a report says which checker verified it).

The checker's builds (``scripts/build_checker.py``) add the commit they were built from, in a
module of their own (``_build.py``, only in the built files)."""

from __future__ import annotations

PROGRAM = "Dubov arbiter"  # the app: what the 182 record and the ### Paired by lines name
DISTRIBUTION = "fide-pairings"  # the free checker: the wheel's name and its command
VERSION = "1.0.0"


def build_commit() -> str:
    """The commit a built checker was made from ('' when run from the repository)."""
    try:
        from ._build import COMMIT  # written by scripts/build_checker.py into the built files only
    except ImportError:
        return ""
    return COMMIT


def program() -> str:
    """``Dubov arbiter 1.0.0``: the program and release that pair a round."""
    return f"{PROGRAM} {VERSION}"


def checker() -> str:
    """``fide-pairings 1.0.0 (commit 1a2b3c4d; rustworkx 0.18.1)``: the checker, the commit it
    was built from when it was built, and the weighted matching it uses."""
    from .blossom import describe

    commit = build_commit()
    return f"{DISTRIBUTION} {VERSION} ({f'commit {commit}; ' if commit else ''}{describe()})"
