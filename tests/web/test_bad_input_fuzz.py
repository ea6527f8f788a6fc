"""Bad input never gives a server error: every route of the app, as its chief arbiter,
with random and hostile values in every field its page shows (plus the fields other
views read), by POST and in the query string.  Routes come from ``pairing.urls`` via
test_security, so a new view is fuzzed without touching this file.

What a refusal says is tested view by view; this only asserts that no request ends in a
5xx (the test client raises on an exception in a view)."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.test_security import ACCOUNT, TOURNAMENT_ROUTES, address, scene  # noqa: F401 (fixture)

HOSTILE = st.one_of(
    st.text(max_size=12),
    st.sampled_from([
        "", " ", "0", "-1", "1.5", "1e3", "nan", "inf", "²", "١٢٣", "99999999999999999999", "a" * 300,
        "1-0", "1/2-1/2", "0-1", "+", "-", "*", "H", "Z", "U", "F", "w", "b", "on", "2026-02-30",
        "9999-12-31", "BH, XX", "<script>", "'; DROP TABLE x; --", "\r", "1:H,x:Z",
    ]),
)
# fields some views read that a page may not show
EXTRA_FIELDS = {"result", "expected", "a", "b", "round", "seen", "from_round", "text", "username", "remove", "kind"}
ROUTES = TOURNAMENT_ROUTES + sorted(ACCOUNT)


class _Undo(Exception):
    pass


@pytest.mark.parametrize("name", ROUTES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_input_makes_a_server_error(chief_client, scene, name, data):  # noqa: F811
    url = address(name, scene)  # every route, with test values for its parameters
    page = chief_client.get(url)
    shown = set(re.findall(r'name="([^"]+)"', page.content.decode())) if page.status_code == 200 else set()
    fields = sorted((shown | EXTRA_FIELDS) - {"csrfmiddlewaretoken"})
    chosen = data.draw(st.lists(st.sampled_from(fields), max_size=len(fields), unique=True))
    form = {field: data.draw(HOSTILE) for field in chosen}
    query = {"round": data.draw(HOSTILE)}
    try:
        with transaction.atomic():  # each example rolls back what it wrote
            assert chief_client.post(url, form).status_code < 500
            assert chief_client.get(url, query).status_code < 500
            assert chief_client.get(url, query, headers={"HX-Request": "true"}).status_code < 500
            raise _Undo
    except _Undo:
        pass
