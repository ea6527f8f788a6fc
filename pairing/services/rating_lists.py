"""Loading rating lists and finding players in them.

Loading streams the file (:mod:`pairing.rating_files`) into new rows of an inactive
:class:`~pairing.models.RatingList`, in batches that each commit on their own (so
arbiters entering results are never held up for the whole load on SQLite), then one
short transaction makes the new list the active one for its name and month and retires
the old one; the old rows are deleted afterwards.  A reader therefore sees the old list
or the new one, never half of one.  A failed load leaves only the inactive rows, which
are deleted.  PostgreSQL gets the rows through COPY, SQLite through executemany.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import IO

from django.db import connection, transaction

from ..models import ListKind, RatingEntry, RatingList
from ..rating_files import (
    MAX_UNZIPPED_BYTES,
    ListRow,
    RatingFileError,
    batched,
    normalise,
    printable,
    read_any,
    search_keys,
)

BATCH = 10_000  # rows a batch: their objects are what the load holds in memory besides the page cache
SQLITE_LOAD_CACHE_KIB = 256 * 1024  # page cache while loading: the five indexes stay in memory
_COLUMNS = (
    "rating_list_id", "ident", "fide_id", "name", "key_a", "key_b", "key_pair", "federation", "sex", "title", "birth_year",
    "standard", "rapid", "blitz", "standard_k", "rapid_k", "blitz_k", "flag",
)


def _values(list_id: int, r: ListRow) -> tuple:
    key_a, key_b, pair = search_keys(r.name)
    return (
        list_id, r.ident[:20], r.fide_id[:11], r.name[:80], key_a[:80], key_b[:80], pair, r.federation[:3], r.sex,
        r.title[:3], r.birth_year, r.standard, r.rapid, r.blitz, r.standard_k, r.rapid_k, r.blitz_k, r.flag[:3],
    )


def _insert(list_id: int, rows: list[ListRow]) -> None:
    table = RatingEntry._meta.db_table
    values = [_values(list_id, r) for r in rows]
    with transaction.atomic(), connection.cursor() as cur:
        if connection.vendor == "postgresql":
            with cur.cursor.copy(f"COPY {table} ({', '.join(_COLUMNS)}) FROM STDIN") as copy:
                for v in values:
                    copy.write_row(v)
        else:
            marks = ", ".join(["%s"] * len(_COLUMNS))
            cur.executemany(f"INSERT INTO {table} ({', '.join(_COLUMNS)}) VALUES ({marks})", values)


def month_of(day: datetime.date | None) -> datetime.date:
    day = day or datetime.date.today()
    return day.replace(day=1)


def load_list(stream: IO[bytes], filename: str, *, kind: str, name: str = "", month: datetime.date | None = None,
              source: str = "", progress=None, max_unzipped: int = MAX_UNZIPPED_BYTES, owner=None,
              job=None) -> RatingList:
    """Load a list file; returns the new active list.  Raises :class:`RatingFileError`
    (nothing changes) when the file cannot be read.  ``max_unzipped``: the most bytes the
    list may unzip to (:mod:`pairing.rating_files`' caps).  ``owner``: an arbiter's own list
    (None: the site's); ``job``: the background job loading it (what a lost attempt left
    is found by it, :func:`discard_unfinished`).  ``progress(count)`` after each batch."""
    if kind not in ListKind.values:
        raise RatingFileError([(0, 0, f"unknown kind of list {kind!r} (fide, national or custom)")])
    name = printable(name or ("FIDE" if kind == ListKind.FIDE else "")).strip()[:60]
    if not name:
        raise RatingFileError([(0, 0, "a national or custom list needs a name")])
    new = RatingList.objects.create(name=name, kind=kind, month=month_of(month),
                                    source=printable(source or filename)[:300], owner=owner, job=job)
    count = 0
    sqlite = connection.vendor == "sqlite"
    if sqlite:
        with connection.cursor() as cur:
            cur.execute("PRAGMA cache_size")
            cache_before = cur.fetchone()[0]
            cur.execute(f"PRAGMA cache_size = -{SQLITE_LOAD_CACHE_KIB}")
    try:
        seen: set[str] = set()
        for batch in batched(read_any(stream, filename, kind, max_unzipped), BATCH):
            fresh = []
            for r in batch:
                if r.ident in seen:
                    raise RatingFileError([(0, 0, f"player id {r.ident} appears twice in the list")])
                seen.add(r.ident)
                fresh.append(r)
            _insert(new.pk, fresh)
            count += len(fresh)
            if progress is not None:
                progress(count)
        if not count:
            raise RatingFileError([(0, 0, "the file holds no players")])
    except BaseException:
        _delete_rows(new.pk)
        RatingList.objects.filter(pk=new.pk).delete()
        raise
    finally:
        if sqlite:
            with connection.cursor() as cur:
                cur.execute(f"PRAGMA cache_size = {int(cache_before)}")
    with transaction.atomic():
        old = list(RatingList.objects.select_for_update().filter(name=name, month=new.month, active=True,
                                                                 owner=owner))
        # retired lists are marked with the job too: a worker lost before their rows are
        # deleted leaves them to discard_unfinished
        RatingList.objects.filter(pk__in=[o.pk for o in old]).update(active=False, job=job)
        RatingList.objects.filter(pk=new.pk).update(active=True, players=count, job=None)
    for o in old:
        _delete_rows(o.pk)
        o.delete()
    new.refresh_from_db()
    return new


def _delete_rows(list_id: int) -> None:
    with connection.cursor() as cur:
        cur.execute(f"DELETE FROM {RatingEntry._meta.db_table} WHERE rating_list_id = %s", [list_id])


def discard_unfinished(job) -> int:
    """Remove the rows of a load that the job started and never finished (its worker
    was killed): the list stays inactive, readers never saw it."""
    unfinished = list(RatingList.objects.filter(job=job, active=False))
    for rl in unfinished:
        delete_list(rl)
    return len(unfinished)


def delete_list(rating_list: RatingList) -> None:
    _delete_rows(rating_list.pk)
    rating_list.delete()


# ---------------------------------------------------------------- search

MIN_QUERY = 2


def search(query: str, lists: Iterable[RatingList], limit: int = 12) -> list[RatingEntry]:
    """Players of ``lists`` whose FIDE id or list id is ``query`` (digits), or whose
    name has every word of ``query`` at the start of one of its words, in any order,
    accents and case ignored.  Each list is searched on its two name keys with an index
    range on the longest word; at most ``limit`` results."""
    query = query.strip()
    lists = list(lists)
    if not lists:
        return []
    ids = [rl.pk for rl in lists]
    if query.isdigit():
        found: dict[int, RatingEntry] = {}
        for list_id in ids:
            for field in ("fide_id", "ident"):
                for e in RatingEntry.objects.filter(rating_list_id=list_id, **{field: query}).select_related(
                    "rating_list"
                )[:limit]:
                    found.setdefault(e.pk, e)
        return list(found.values())[:limit]
    words = normalise(query).split()
    if not words or max(len(w) for w in words) < MIN_QUERY:
        return []
    results: dict[int, RatingEntry] = {}
    for by_pair in (True, False):
        for list_id in ids:
            for rows in _candidates(list_id, words, by_pair):
                for e in rows[: limit * 3]:
                    if _matches(e.key_a, words):
                        results.setdefault(e.pk, e)
        if results:
            break
    ordered = sorted(results.values(), key=lambda e: (-(e.standard or e.rapid or e.blitz or 0), e.key_a))
    return ordered[:limit]


def _candidates(list_id: int, words: list[str], by_pair: bool):
    """Querysets to try, each an index range.  ``by_pair``: with two or more words, the
    pair key each way round (surname first or given name first) where the word taken as
    the surname has three letters or more.  Otherwise (one word, or nothing found by the
    pairs: a surname of several words, a short one) the longest word at the start of
    "surname given" and of "given surname", the other words anywhere in it."""
    base = RatingEntry.objects.filter(rating_list_id=list_id).select_related("rating_list")
    longest = sorted(words, key=len, reverse=True)
    if by_pair:
        if len(words) >= 2:
            for s, g in ((longest[0], longest[1]), (longest[1], longest[0])):
                if len(s) >= 3:
                    prefix = s[:3] + g[:3]
                    yield base.filter(key_pair__gte=prefix, key_pair__lt=prefix + "\x7f").order_by("key_pair")
        return
    anchor = longest[0]
    for key in ("key_a", "key_b"):
        rows = base.filter(**{f"{key}__gte": anchor, f"{key}__lt": anchor + "\x7f"})
        for w in longest[1:]:
            rows = rows.filter(**{f"{key}__contains": w})
        yield rows.order_by(key)


def _matches(key: str, words: list[str]) -> bool:
    """Every query word starts a different word of the name."""
    name_words = key.split()
    used: set[int] = set()
    for w in sorted(words, key=len, reverse=True):
        hit = next((i for i, nw in enumerate(name_words) if i not in used and nw.startswith(w)), None)
        if hit is None:
            return False
        used.add(hit)
    return True
