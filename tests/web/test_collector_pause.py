"""The cyclic garbage collector is off while a shared value is computed
(:func:`pairing.computed.collector_paused`), and back as it was afterwards: nested,
from several threads at once, after a failure, and never switched on where it was off."""

from __future__ import annotations

import gc
import threading

import pytest

from pairing import computed


@pytest.fixture(autouse=True)
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_a_value_is_computed_with_the_collector_off_and_it_is_on_again_after(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "collector-pause"}}
    seen = []
    value, how = computed.once("collector-test", lambda: seen.append(gc.isenabled()) or 42)
    assert (value, how, seen) == (42, "miss", [False])
    assert gc.isenabled()


def test_nested_pauses_end_with_the_outermost_and_a_failure_ends_its_own():
    with computed.collector_paused():
        with pytest.raises(RuntimeError):
            with computed.collector_paused():
                raise RuntimeError("a computation that fails")
        assert not gc.isenabled()  # the outer one is still computing
    assert gc.isenabled()


def test_the_collector_stays_off_where_it_was_off_before():
    gc.disable()
    with computed.collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_threads_that_compute_at_once_switch_it_on_only_when_the_last_one_ends():
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    states = {}

    def first():
        with computed.collector_paused():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second():
        first_in.wait(10)
        with computed.collector_paused():
            second_in.set()
            first_out.wait(10)
            states["while the second still computes"] = gc.isenabled()
        states["after both"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(20)
    assert states == {"while the second still computes": False, "after both": True}
