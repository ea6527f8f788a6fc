"""Check this tournament: the free checker run on the tournament's own rating file.

The tournament is exported as its TRF-2026 file for rating (:func:`.interchange.export_trf`)
and given to ``python -m pairing.engine --<system> FILE -c``, the command line anyone can
run on that file: it re-pairs every round from the rounds before it and recomputes every
player's points and rank (the file's 202 tie-break list).  Its output is read line by
line as it comes, so the page shows "round 17 of 40 checked"; the findings are kept as
the checker wrote them (in English, the checker's language), round by round.

Read only: nothing of the tournament changes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from ..models import Job, Tournament
from .interchange import export_trf
from .jobs import JobFailed, Progress

OUTPUT_KEPT = 200_000  # characters of the checker's output kept with the result
_ROUND = re.compile(r"^round (\d+): (identical|(\d+) differences?)$")
_STANDINGS = re.compile(r"^standings: (\d+) differences?$")


def can_check(t: Tournament) -> str:
    """Why the tournament cannot be checked, or '' when it can."""
    if t.round_robin:
        return _("A round robin is paired by its Berger table, not by a Swiss engine: there is nothing to re-pair.")
    if not t.round_set.filter(status="complete").exists():
        return _("No round is complete yet: there is nothing to check.")
    return ""


def command(t: Tournament, path: str | Path) -> list[str]:
    return [sys.executable, "-u", "-m", "pairing.engine", f"--{t.system}", str(path), "-c"]


def shown_command(t: Tournament) -> str:
    """The same check by hand, on the file the tournament exports."""
    return f"python -m pairing.engine --{t.system} {t.slug}.trf -c"


def run(job: Job, progress: Progress) -> dict:
    """The job's handler: export, check, and return the findings."""
    t = job.tournament
    if t is None:
        raise JobFailed(_("The tournament no longer exists."))
    why = can_check(t)
    if why:
        raise JobFailed(why)
    text = export_trf(t)
    total = t.round_set.filter(status="complete").count()
    progress("rounds", done=0, total=total, force=True)
    rounds: list[dict] = []
    standings: list[str] = []
    output: list[str] = []
    summary = ""
    checker = ""  # the checker's first line: which checker, which release, which matching
    current: list[str] | None = None
    with tempfile.TemporaryDirectory(prefix="dubov-check-") as tmp:
        path = Path(tmp) / f"{t.slug}.trf"
        path.write_text(text, encoding="utf-8")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(settings.BASE_DIR)}
        with subprocess.Popen(command(t, path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              encoding="utf-8", errors="replace", cwd=settings.BASE_DIR, env=env) as proc:
            assert proc.stdout is not None
            for raw in proc.stdout:
                line = raw.rstrip("\n").replace(str(path), path.name)
                output.append(line)
                if line.startswith("checker: ") and not checker:
                    checker = line[len("checker: "):]
                    continue
                found = _ROUND.match(line)
                if found:
                    number = int(found.group(1))
                    current = []
                    rounds.append({"round": number, "identical": found.group(2) == "identical", "lines": current})
                    progress("rounds", done=number, total=total, force=number == total)
                    if number == total:
                        progress("standings", done=total, total=total, force=True)
                    continue
                if _STANDINGS.match(line):
                    current = standings
                    continue
                if line.startswith("  ") and current is not None:
                    current.append(line.strip())
                elif line.startswith(("all ", f"{len([r for r in rounds if not r['identical']])} of ")):
                    summary = line
            code = proc.wait()
    if code not in (0, 4):
        raise JobFailed(_("The checker could not read the exported file (exit status %(code)s): %(output)s") % {
            "code": code, "output": "\n".join(output[-20:])})
    kept = "\n".join(output)
    return {
        "exit": code,
        "ok": code == 0,
        "rounds": rounds,
        "differing": [r["round"] for r in rounds if not r["identical"]],
        "standings": standings,
        "summary": summary,
        "command": shown_command(t),
        "free_command": f"fide-pairings --{t.system} {t.slug}.trf -c",
        "checker": checker,
        "output": kept[:OUTPUT_KEPT],
        "cut": len(kept) > OUTPUT_KEPT,
    }
