"""Shared fixtures for the web tests: personas and a small tournament."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import settings

# Property tests draw the same examples on every run by default, so a CI run that
# passed once passes again; HYPOTHESIS_PROFILE=explore draws new ones (look for bugs).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

PASSWORD = "correct-horse-battery"


def _user(username: str):
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def chief(db):
    """The chief arbiter: owner of ``tournament``."""
    return _user("chief")


@pytest.fixture
def deputy(db):
    return _user("deputy")


@pytest.fixture
def stranger(db):
    """An arbiter of other tournaments: no rights on ``tournament``."""
    return _user("stranger")


def _client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def chief_client(chief) -> Client:
    return _client_for(chief)


@pytest.fixture
def deputy_client(deputy) -> Client:
    return _client_for(deputy)


@pytest.fixture
def stranger_client(stranger) -> Client:
    return _client_for(stranger)


@pytest.fixture
def anon_client(db) -> Client:
    return Client()


@pytest.fixture
def tournament(chief, deputy):
    from pairing.models import Tournament

    t = Tournament.objects.create(slug="spring-open", name="Spring Open", place="Bled", rounds=5, owner=chief)
    t.deputies.add(deputy)
    return t


@pytest.fixture
def players(tournament):
    from tests.web.helpers import add_players

    return add_players(tournament, 10)


@pytest.fixture(autouse=True)
def _english_unless_asked():
    """Each test starts in English: a request in another language (Accept-Language) leaves
    that language active in the thread, as LocaleMiddleware does not switch back."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()
