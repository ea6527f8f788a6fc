"""Keeping the rating lists fresh: where each list comes from, checking it and loading
it again when its source has published a newer one, and loading an uploaded file.
These run in the background (:mod:`pairing.tasks`); the loading itself is
:mod:`.rating_lists`.

"Fresh" is decided by what the source serves, not by the calendar: the download is
conditional (``If-None-Match`` / ``If-Modified-Since`` with what the last load got), and a
file identical to the one loaded (same SHA-256) is not loaded again.  The month a
downloaded list is valid from is the month of its ``Last-Modified`` date (FIDE publishes
on the first of each month), else the current month.  A failed download or an unreadable
file keeps the list in use and says why, on the lists page and in the job's result.
"""

from __future__ import annotations

import datetime
import email.utils
import hashlib
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Job, ListKind, RatingList, RatingSource
from ..rating_files import FULL_LIST_MAX_UNZIPPED_BYTES, MAX_UNZIPPED_BYTES, RatingFileError
from .jobs import JobFailed, Progress
from .rating_lists import discard_unfinished, load_list, month_of

FIDE = "FIDE"
CHUNK = 1 << 20
SHOWN_PROBLEMS = 20


def fide_source() -> RatingSource:
    """FIDE's combined list, from ``settings.FIDE_RATING_LIST_URL``."""
    source, _created = RatingSource.objects.get_or_create(
        name=FIDE, owner=None, defaults={"kind": ListKind.FIDE, "url": settings.FIDE_RATING_LIST_URL})
    if source.url != settings.FIDE_RATING_LIST_URL:
        source.url = settings.FIDE_RATING_LIST_URL
        source.save(update_fields=["url"])
    return source


def source_for(name: str, kind: str, owner=None) -> RatingSource:
    source, _created = RatingSource.objects.get_or_create(name=name, owner=owner, defaults={"kind": kind})
    return source


def refreshable() -> list[RatingSource]:
    """The site's lists that have a download address, FIDE's first."""
    fide = fide_source()
    others = RatingSource.objects.filter(owner__isnull=True).exclude(pk=fide.pk).exclude(url="")
    return ([fide] if fide.url else []) + list(others)


def active_list(source: RatingSource) -> RatingList | None:
    return RatingList.objects.active().filter(name=source.name, owner=source.owner).order_by("-month").first()


def _record(source: RatingSource, ok: bool, result: str, **fields) -> None:
    RatingSource.objects.filter(pk=source.pk).update(checked_at=timezone.now(), ok=ok, result=result, **fields)
    source.refresh_from_db()


def _kept(source: RatingSource) -> str:
    current = active_list(source)
    if current is None:
        return _("No list of that name is loaded yet.")
    return _("The list of %(month)s stays in use.") % {"month": date_format(current.month, "YEAR_MONTH_FORMAT")}


# ---------------------------------------------------------------- downloading


@dataclass
class Fetched:
    path: Path
    etag: str
    last_modified: str
    sha256: str
    size: int

    @property
    def month(self) -> datetime.date:
        if self.last_modified:
            try:
                return month_of(email.utils.parsedate_to_datetime(self.last_modified).date())
            except (TypeError, ValueError):
                pass
        return month_of(timezone.localdate())


def download(source: RatingSource, folder: Path, report: Callable[[int, int | None], None]) -> Fetched | None:
    """The source's file into ``folder``, or None when the server says it has not changed
    since the last load (HTTP 304).  Raises OSError (urllib's errors are OSErrors)."""
    request = urllib.request.Request(source.url, headers={"User-Agent": "dubov-arbiter (rating-list refresh)"})
    if source.etag:
        request.add_header("If-None-Match", source.etag)
    if source.last_modified:
        request.add_header("If-Modified-Since", source.last_modified)
    name = Path(urllib.parse.urlsplit(source.url).path).name or "list"
    path = folder / name
    digest = hashlib.sha256()
    try:
        response = urllib.request.urlopen(request, timeout=settings.RATING_DOWNLOAD_TIMEOUT)  # noqa: S310
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return None
        raise
    with response, path.open("wb") as out:
        total = int(response.headers.get("Content-Length") or 0) or None
        size = 0
        while chunk := response.read(CHUNK):
            out.write(chunk)
            digest.update(chunk)
            size += len(chunk)
            report(size, total)
        etag, modified = response.headers.get("ETag", ""), response.headers.get("Last-Modified", "")
    if total is not None and size != total:
        raise OSError(_("the download stopped after %(got)s of %(total)s bytes") % {"got": size, "total": total})
    return Fetched(path, etag[:200], modified[:100], digest.hexdigest(), size)


# ---------------------------------------------------------------- the jobs


class Bar:
    """One progress bar for several lists: each list is 1,000 units, its download the
    first 300 of them and its load the rest."""

    UNIT = 1000

    def __init__(self, progress: Progress, parts: int):
        self.progress = progress
        self.parts = max(parts, 1)

    def __call__(self, part: int, fraction: float, step: str, **args) -> None:
        done = int(self.UNIT * (part + max(0.0, min(fraction, 1.0))))
        self.progress(step, done=done, total=self.UNIT * self.parts, **args)


def _problems(exc: RatingFileError) -> str:
    shown = [str(p) if not isinstance(p, tuple) else _where(p) for p in exc.problems[:SHOWN_PROBLEMS]]
    more = len(exc.problems) - len(shown)
    return "; ".join(shown) + (f" (+{more})" if more > 0 else "")


def _where(problem: tuple[int, int, str]) -> str:
    line, column, message = problem
    if not line:
        return message
    return (_("line %(line)s, column %(column)s: %(problem)s") if column else _("line %(line)s: %(problem)s")) % {
        "line": line, "column": column, "problem": message}


def _load(path: Path, filename: str, *, source: RatingSource, month, origin: str, job: Job,
          bar: Bar, part: int, start: float) -> RatingList:
    size = max(path.stat().st_size, 1)
    with path.open("rb") as stream:
        def loaded(count: int) -> None:
            fraction = start + (1 - start) * min(stream.tell() / size, 1.0)
            bar(part, fraction, "load", list=source.name, players=f"{count:,}")

        # a site list (staff, or a download address) may be FIDE's whole list: the worker
        # streams it, so it gets the command line's cap; an arbiter's own list the upload's
        cap = FULL_LIST_MAX_UNZIPPED_BYTES if source.owner_id is None else MAX_UNZIPPED_BYTES
        rl = load_list(stream, filename, kind=source.kind, name=source.name, month=month, source=origin,
                       owner=source.owner, job=job, progress=loaded, max_unzipped=cap)
    bar(part, 1.0, "activate", list=source.name)
    return rl


def refresh_one(source: RatingSource, job: Job, bar: Bar, part: int) -> dict:
    """Check one list's download address and load it when it changed; never raises for
    a failed download or a bad file (the old list stays; the source says why)."""
    bar(part, 0.0, "download", list=source.name)
    try:
        with tempfile.TemporaryDirectory(prefix="dubov-list-") as tmp:
            fetched = download(source, Path(tmp), lambda got, total: bar(
                part, 0.3 * got / total if total else 0.0, "downloaded", list=source.name, mb=f"{got / 1e6:.1f}"))
            current = active_list(source)
            if fetched is None or (current is not None and fetched.sha256 == source.sha256):
                message = _("No newer list published: the list of %(month)s is the current one.") % {
                    "month": date_format(current.month, "YEAR_MONTH_FORMAT")} if current else _(
                    "The address serves the file loaded before, but no list of that name is loaded.")
                _record(source, current is not None, message)
                bar(part, 1.0, "unchanged", list=source.name)
                return {"name": source.name, "status": "unchanged", "message": message}
            rl = _load(fetched.path, fetched.path.name, source=source, month=fetched.month, origin=source.url, job=job,
                       bar=bar, part=part, start=0.3)
    except RatingFileError as exc:
        message = _("The file at %(url)s cannot be read: %(problems)s. %(kept)s") % {
            "url": source.url, "problems": _problems(exc), "kept": _kept(source)}
    except (OSError, ValueError) as exc:
        message = _("The download from %(url)s failed: %(reason)s. %(kept)s") % {
            "url": source.url, "reason": _reason(exc), "kept": _kept(source)}
    else:
        message = ngettext("Loaded the list of %(month)s from %(url)s: %(n)s player.",
                           "Loaded the list of %(month)s from %(url)s: %(n)s players.", rl.players) % {
            "month": date_format(rl.month, "YEAR_MONTH_FORMAT"), "url": source.url, "n": f"{rl.players:,}"}
        _record(source, True, message, etag=fetched.etag, last_modified=fetched.last_modified, sha256=fetched.sha256)
        return {"name": source.name, "status": "loaded", "message": message, "players": rl.players}
    _record(source, False, message)
    return {"name": source.name, "status": "failed", "message": message}


def _reason(exc: Exception) -> str:
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    return str(getattr(exc, "reason", None) or exc)


def refresh(job: Job, progress: Progress) -> dict:
    """The job "Update of the rating lists": every site list with a download address
    (``job.params["sources"]``: only those), one after the other."""
    discard_unfinished(job)
    wanted = job.params.get("sources")
    sources = [s for s in refreshable() if wanted is None or s.pk in wanted]
    if not sources:
        raise JobFailed(_("No list has a download address to check."))
    bar = Bar(progress, len(sources))
    outcomes = [refresh_one(source, job, bar, part) for part, source in enumerate(sources)]
    progress("lists", done=bar.UNIT * len(sources), total=bar.UNIT * len(sources), force=True)
    return {"lists": outcomes, "failed": sum(o["status"] == "failed" for o in outcomes)}


def load_upload(job: Job, progress: Progress) -> dict:
    """The job "Loading of a rating list file": an uploaded file (kept on disk by the
    page until it is loaded; deleted once the job is over)."""
    discard_unfinished(job)
    p = job.params
    path = Path(p["path"])
    owner = job.user if p.get("own") else None
    source = source_for(p["name"], p["kind"], owner)
    if not path.is_file():
        raise JobFailed(_("The uploaded file is no longer on the server; upload it again."))
    month = datetime.date.fromisoformat(p["month"]) if p.get("month") else None
    bar = Bar(progress, 1)
    try:
        rl = _load(path, p["filename"], source=source, month=month, origin=p["filename"], job=job, bar=bar, part=0,
                   start=0.0)
    except RatingFileError as exc:
        message = _("%(file)s cannot be read: %(problems)s. %(kept)s") % {
            "file": p["filename"], "problems": _problems(exc), "kept": _kept(source)}
        _record(source, False, message)
        raise JobFailed(message) from None
    finally:
        path.unlink(missing_ok=True)
    message = ngettext("Loaded %(list)s from the file %(file)s: %(n)s player.",
                       "Loaded %(list)s from the file %(file)s: %(n)s players.", rl.players) % {
        "list": rl.label, "file": p["filename"], "n": f"{rl.players:,}"}
    _record(source, True, message, etag="", last_modified="", sha256="")
    return {"list": rl.label, "players": rl.players, "message": message}


def forget_upload(job: Job, final: bool) -> None:
    """After a lost attempt: the half-loaded rows go; the uploaded file too when the job
    will not be tried again."""
    discard_unfinished(job)
    if final and job.params.get("path"):
        Path(job.params["path"]).unlink(missing_ok=True)


def forget_refresh(job: Job, final: bool) -> None:
    discard_unfinished(job)


def keep_upload(upload, *, user, kind: str, name: str, month: datetime.date | None, own: bool,
                start: Callable[..., Job]) -> Job:
    """Move an uploaded file (already on disk: Django spools uploads over 2.5 MB to a
    temporary file) into the upload folder the worker reads, and start its job."""
    folder = Path(settings.UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=folder, prefix="list-", suffix=Path(upload.name).suffix[:10],
                                     delete=False) as out:
        path = out.name
        if not hasattr(upload, "temporary_file_path"):  # a small file, held in memory
            for chunk in upload.chunks(CHUNK):
                out.write(chunk)
    if hasattr(upload, "temporary_file_path"):
        shutil.move(upload.temporary_file_path(), path)  # a rename on the same file system
    params = {"path": path, "filename": Path(upload.name).name[:200], "kind": kind, "name": name,
              "month": month.isoformat() if month else None, "own": own}
    try:
        with transaction.atomic():
            return start(params)
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise
