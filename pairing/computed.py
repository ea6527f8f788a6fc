"""Work computed once and shared by every worker through Django's cache.

:func:`once`: a value under a key, computed by one request while the others that want it
at the same moment wait for it (dogpile protection: a lock in the cache).
:func:`through_round`: a value that depends only on a tournament's rounds up to N (the
standings after round N, the ARO list before round N+1), kept across the changes that
cannot touch it -- results entered in later rounds -- and computed again after any other.
:func:`code_fingerprint`: part of every key, so that a new release never reads what the
old one computed.

The cache holds no state of its own: every key names the tournament's revision, or the
revision it was checked at, and a value is served only when the audit trail shows that
nothing since could have changed it.
"""

from __future__ import annotations

import gc
import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache

T = TypeVar("T")

# How long one request may compute while the others wait for it (seconds): under
# gunicorn's worker timeout (120 s), so a lock outlives no request that could hold it.
LOCK_SECONDS = 110


def once(
    key: str,
    compute: Callable[[], T],
    keep: Callable[[T], bool] = lambda value: True,
    current: Callable[[T], bool] = lambda value: True,
) -> tuple[T, str]:
    """(value, how): the value under ``key``, from the cache ("hit"), computed here
    ("miss", stored when ``keep(value)``), or computed by another request this one waited
    for ("wait").  ``current(value)``: whether a value found under the key may be served
    (one computed at an older revision may not).

    The first request to miss takes a lock in the cache (``add``: atomic on the database,
    Redis and Memcached backends) and computes; the others poll the cache until a current
    value is there, or the lock is gone without it (the computing request failed or did
    not keep it; the lock expires after LOCK_SECONDS if its process died), and only then
    compute it themselves.  However slow the computation (a busy machine, a big field),
    it runs once: waiters never give up and pile on while it is under way.
    """
    value = cache.get(key)
    if value is not None and current(value):
        return value, "hit"
    lock = f"{key}:lock"
    token = secrets.token_hex(8)
    if not cache.add(lock, token, LOCK_SECONDS):
        until = time.monotonic() + LOCK_SECONDS
        pause = 0.02
        while time.monotonic() < until:
            time.sleep(pause)
            pause = min(pause * 1.5, 0.25)
            value = cache.get(key)
            if value is not None and current(value):
                return value, "wait"
            if cache.get(lock) is None:
                break
    # The lock may have been taken after another request stored the value and let its
    # lock go (this one read the cache before that, and a busy machine held it back):
    # read again before computing, so that the value is computed once.
    value = cache.get(key)
    if value is not None and current(value):
        if cache.get(lock) == token:
            cache.delete(lock)
        return value, "hit"
    try:
        with collector_paused():
            value = compute()
        if keep(value):
            cache.set(key, value)
        return value, "miss"
    finally:
        if cache.get(lock) == token:
            cache.delete(lock)


_PAUSES = 0
_PAUSES_LOCK = threading.Lock()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a shared value is computed.

    A big field's standings make some million short-lived objects (400,000 history
    entries at 10,000 x 40, then the tie-breaks' lists); each 700 new objects start a
    collection that walks the young ones, and every 10th of those the older ones:
    about a quarter of the computation's time, for no cycle freed (measured:
    docs/scaling.md).  Reference counting still frees everything as usual.  Nested and
    concurrent uses (the threads of a worker) count: the collector is switched back
    on when the last one ends, and only if it was on before the first."""
    global _PAUSES, _WAS_ENABLED
    with _PAUSES_LOCK:
        if _PAUSES == 0:
            _WAS_ENABLED = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _PAUSES_LOCK:
            _PAUSES -= 1
            if _PAUSES == 0 and _WAS_ENABLED:
                gc.enable()


_WAS_ENABLED = True


def tournament_key(t, *parts: Any) -> str:
    """A key of ``t``'s: its id and creation time (a deleted tournament's id can come back
    on SQLite), the code's fingerprint, then ``parts``."""
    created = int(t.created.timestamp() * 1_000_000) if t.created else 0
    return ":".join([f"t{t.pk}.{created}", code_fingerprint(), *map(str, parts)])


# What a later round's pairing does (paired, published, changed by hand in its draft):
# nothing in rounds 1..N before it (but round 1's publishing: see below).  Kept across by
# the values that say so (not the TRF export, which names the next round's absentees
# until that round is paired).
_ROUND_STEPS = ("pair", "publish", "swap")


def through_round(t, name: str, number: int, compute: Callable[[], T], rounds_too: bool = False) -> T:
    """The value of ``compute()`` for ``t``'s rounds 1..``number``, shared by every
    request while nothing it depends on changed.

    It is kept with the revision and the last audit entry it was computed at.  At a later
    revision it is served again only if every change since was a result entered in a round
    after ``number`` (one audit entry and one revision each, nothing else: a result of a
    later round changes no standings, score or ARO up to ``number``), or with
    ``rounds_too`` a round after ``number`` paired, published or changed by hand in its
    draft; any other change (a draft discarded among them: its round is gone, so its
    number cannot be read), or a revision moved without its audit entry, computes it
    again.
    """
    from .models import AuditAction, AuditEntry, Game, Round

    key = tournament_key(t, name, number)
    # the value (with the revision and entry it was computed at) and, apart, the revision
    # and entry it was last found still right at: moving that on rewrites a few bytes,
    # not the value (a 9,999-player standings: 1 MB)
    found = cache.get_many([key, f"{key}:checked"])
    stored, checked = found.get(key), found.get(f"{key}:checked")
    if stored is not None:
        revision, entry, value = stored
        if checked is not None and checked[0] >= revision and checked[2] == entry:
            revision, entry = checked[0], checked[1]
        if revision >= t.revision:
            return value
        since = list(
            AuditEntry.objects.filter(tournament_id=t.pk, pk__gt=entry).values_list("pk", "action", "object_type", "object_id")
        )
        steps = _ROUND_STEPS if rounds_too else ()
        if len(since) == t.revision - revision and all(
            (a == AuditAction.RESULT and o == "game") or (a in steps and o == "round") for _, a, o, _ in since
        ):
            games = {i for _, a, _, i in since if a == AuditAction.RESULT}
            rounds = {i for _, a, _, i in since if a != AuditAction.RESULT}
            later = len(set(Game.objects.filter(pk__in=games, round__number__gt=number).values_list("pk", flat=True)))
            if rounds:
                # never round 1's: publishing it fixes Baku's group A, and with it the
                # virtual points of round 1 (the ARO list before it)
                later += len(set(Round.objects.filter(pk__in=rounds, number__gt=max(number, 1)).values_list("pk", flat=True)))
            if later == len(games) + len(rounds):
                cache.set(f"{key}:checked", (t.revision, max((pk for pk, *_ in since), default=entry), stored[1]))
                return value

    def fresh():
        # the revision and the last entry first: the value computed after them shows
        # their state or a later one, never an earlier one
        revision = type(t).objects.filter(pk=t.pk).values_list("revision", flat=True).first() or 0
        entry = AuditEntry.objects.filter(tournament_id=t.pk).order_by("-pk").values_list("pk", flat=True).first() or 0
        return revision, entry, compute()

    return once(key, fresh, current=lambda stored: stored[0] >= t.revision)[0][2]


_FINGERPRINT: list[str] = []


def code_fingerprint() -> str:
    """A digest of the templates, the app's code and the compiled translations, the same
    on every machine running the same release: a new release gets new keys."""
    if not _FINGERPRINT:
        root = Path(settings.BASE_DIR)
        digest = hashlib.blake2b(digest_size=6)
        for folder, pattern in (("templates", "*.html"), ("pairing", "*.py"), ("locale", "*.mo")):
            for path in sorted((root / folder).rglob(pattern)):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
        _FINGERPRINT.append(digest.hexdigest())
    return _FINGERPRINT[0]
