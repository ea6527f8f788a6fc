"""A TRF file too large to import and check while the arbiter waits (more than
``trf_import.IMPORT_CHECK_LIMIT`` player-rounds): imported by the worker, then every
round re-paired by the engine on the rounds before it, one round at a time, with
progress ("Round 17 of 40 checked").

The import is committed first (one transaction, as any import), and the tournament
waits: while its job is queued, running or waiting for the arbiter's answer it cannot be
paired and writes no file for rating, and every page of it says so
(``Tournament.import_pending``).  The check reads the stored rounds exactly as a small
import's check does (:func:`.trf_import.round_difference`), so the question is the same
Level-3 question, with the same figures and ``###`` lines.  The arbiter answers on the
job's page: **import them as they are** (each differing round becomes a pairing-integrity
event, as after a small import's confirmation) or **undo the import** (the tournament is
put back as it was before it, empty).  Nothing to ask: the tournament is free at once.

A worker lost after the import and before the end of the check: the next attempt checks
again (the import is not repeated); the last attempt lost undoes the import, so nothing
unchecked is left usable.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import AuditAction, AuditEntry, IntegrityKind, Job, JobKind, JobStatus, Tournament
from . import events, restore
from .jobs import JobFailed, JobWaits, Progress
from .trf_import import ImportRefused, import_question, import_trf, player_rounds, round_difference

SHOWN_PROBLEMS = 30


def keep_text(text: str, start) -> Job:
    """The file's text on disk for the worker, and its job started (``start(params)``)."""
    folder = Path(settings.UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, prefix="trf-", suffix=".trf",
                                     delete=False) as out:
        out.write(text)
        path = out.name
    try:
        with transaction.atomic():
            return start({"path": path})
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise


def _refused(exc: ImportRefused) -> str:
    lines = []
    for line, column, message in exc.problems[:SHOWN_PROBLEMS]:
        where = (_("line %(line)s, column %(column)s: ") % {"line": line, "column": column} if line and column
                 else _("line %(line)s: ") % {"line": line} if line else "")
        lines.append(where + str(message))
    more = len(exc.problems) - len(lines)
    return _("Nothing was imported. The file has these problems:") + " " + "; ".join(lines) + (
        " " + _("… and %(n)s more.") % {"n": more} if more > 0 else "")


def _import(job: Job, t: Tournament, progress: Progress) -> None:
    """The import itself, in one transaction with the job's note that it is done."""
    path = Path(job.params["path"])
    if not path.is_file():
        raise JobFailed(_("The uploaded file is no longer on the server; import it again."))
    text = path.read_text(encoding="utf-8")
    players = sum(1 for line in text.splitlines() if line.startswith("001"))
    progress("import", force=True, players=f"{players:,}", rounds=player_rounds(text) // max(players, 1))
    asked: list[str] = []
    point = json.loads(json.dumps(restore.take(t), cls=DjangoJSONEncoder))  # kept with the job (JSON)
    try:
        with transaction.atomic():
            import_trf(t, text, job.user, asked=asked)
            params = {**job.params, "imported": True, "asked": asked, "point": point}
            Job.objects.filter(pk=job.pk).update(params=params)
            job.params = params
    except ImportRefused as exc:
        raise JobFailed(_refused(exc)) from None
    path.unlink(missing_ok=True)


def run(job: Job, progress: Progress) -> dict:
    """The job's handler: import (once), then check every round; ends done (nothing to
    ask) or waiting for the arbiter's answer (:class:`.jobs.JobWaits`)."""
    t = job.tournament
    if t is None:
        raise JobFailed(_("The tournament no longer exists."))
    if not job.params.get("imported"):
        _import(job, t, progress)
    t = Tournament.objects.get(pk=t.pk)
    try:
        players = {p.pk: p for p in t.player_set.all()}
        tpn = {pk: p.tpn for pk, p in players.items()}
        rounds = list(t.round_set.order_by("number"))
        progress("rounds", done=0, total=len(rounds), force=True)
        differing = []
        for done, rnd in enumerate(rounds, start=1):
            found = round_difference(t, rnd, players, tpn)
            if found is not None:
                differing.append(found)
            progress("rounds", done=done, total=len(rounds), force=done == len(rounds))
        question = import_question(differing, players, job.params.get("asked", []), [])
    except Exception:
        undo_import(job, None, "the check stopped on an error.")
        raise
    if question is None:
        AuditEntry.log(t, job.user, AuditAction.IMPORT,
                       f"TRF import checked in the background: the engine pairs all {len(rounds)} rounds as the "
                       "file does.", label="TRF file")
        return {"ok": True, "rounds": len(rounds), "players": len(players)}
    title, warnings, groups = question
    raise JobWaits({
        "ok": False, "rounds": len(rounds), "players": len(players), "title": title, "warnings": warnings,
        "groups": [{"heading": str(g.heading), "meaning": str(g.meaning), "items": [str(i) for i in g.items]}
                   for g in groups],
        "differing": [[d[0], d[1], d[3]] for d in differing],
    })


def answer(job: Job, user, accept: bool) -> bool:
    """The arbiter's answer to a waiting import: accept (each differing round becomes a
    pairing-integrity event) or undo it.  Acts once: False when the job was answered
    already (a second click, another arbiter)."""
    t = job.tournament
    with transaction.atomic():
        t.lock()
        if not Job.objects.filter(pk=job.pk, status=JobStatus.WAITING).update(status=JobStatus.DONE):
            return False
        job.refresh_from_db()
        point = job.params.get("point")
        if accept:
            for number, line, recorded in job.result.get("differing", []):
                events.record(t, IntegrityKind.IMPORT, number, line, user, detail=recorded, point=point)
            AuditEntry.log(t, user, AuditAction.IMPORT, "TRF import confirmed after its background check"
                           + (f": {len(job.result['differing'])} rounds paired differently by the engine kept as "
                              "imported." if job.result.get("differing") else ": its adjustments accepted."),
                           label="TRF file")
            job.result = {**job.result, "answer": "imported"}
        else:
            _put_back(t, point, user, "TRF import undone after its background check (the arbiter's answer).")
            job.result = {**job.result, "answer": "undone"}
        Job.objects.filter(pk=job.pk).update(result=job.result)
    return True


def _put_back(t: Tournament, point: dict | None, user, why: str) -> None:
    if point is not None:
        restore.restore(t, point)
    AuditEntry.log(t, user, AuditAction.IMPORT, why, label="TRF file")


def undo_import(job: Job, user, why: str) -> None:
    """Put the tournament back as it was before the import (a check that cannot finish)."""
    if not job.params.get("imported") or job.tournament is None:
        return
    with transaction.atomic():
        job.tournament.lock()
        _put_back(job.tournament, job.params.get("point"), user, f"TRF import undone: {why}")


def forget(job: Job, final: bool) -> None:
    """After a lost attempt: nothing to clean before a retry (the import is done or not,
    in one transaction); the last attempt lost undoes the import and drops the file."""
    if final:
        undo_import(job, None, "the worker checking it stopped.")
        if job.params.get("path"):
            Path(job.params["path"]).unlink(missing_ok=True)


def waiting_for(t: Tournament) -> Job | None:
    return t.jobs.filter(kind=JobKind.IMPORT_CHECK, status=JobStatus.WAITING).first()
