"""The /health/ endpoint the container healthcheck calls: it must really ask the database."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def test_health_runs_a_query_and_answers_ok(anon_client):
    with CaptureQueriesContext(connection) as queries:
        response = anon_client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert any("SELECT 1" in q["sql"] for q in queries.captured_queries)
    assert "no-cache" in response["Cache-Control"]


def test_health_answers_503_when_the_database_fails(anon_client):
    broken = mock.MagicMock(side_effect=OperationalError("connection refused: secret-host:5432"))
    with mock.patch.object(connection, "cursor", broken):
        response = anon_client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body == {"status": "error", "database": "error", "error": "OperationalError"}
    # the exception's text (host names, users) stays in the log, not in the answer
    assert "secret-host" not in response.content.decode()


def test_health_answers_503_when_the_query_itself_fails(anon_client):
    cursor = mock.MagicMock()
    cursor.__enter__.return_value.execute.side_effect = OperationalError("server closed the connection")
    with mock.patch.object(connection, "cursor", return_value=cursor):
        response = anon_client.get("/health/")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


def test_health_is_get_only(anon_client):
    assert anon_client.post("/health/").status_code == 405
