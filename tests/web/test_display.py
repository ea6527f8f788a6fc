"""Display preferences (issue 21, rough edges 9 and 10)."""

from __future__ import annotations

from django.urls import reverse


def test_rough_edge_10_compact_tables_are_a_choice_kept_by_the_browser(chief_client, tournament, players):
    page = reverse("pairing:players", args=[tournament.slug])
    assert '<body class="compact"' not in chief_client.get(page).content.decode()
    response = chief_client.post(reverse("pairing:density"), {"compact": "1", "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert response.cookies["density"].value == "compact" and response.cookies["density"]["httponly"]
    html = chief_client.get(page).content.decode()
    assert '<body class="compact"' in html and "Roomy tables" in html
    chief_client.post(reverse("pairing:density"), {"compact": "0", "next": page})
    assert '<body class="compact"' not in chief_client.get(page).content.decode()


def test_the_density_switch_goes_back_only_to_this_site(anon_client):
    response = anon_client.post(reverse("pairing:density"), {"compact": "1", "next": "https://evil.example.com/"})
    assert response["Location"] == "/"
    assert anon_client.get(reverse("pairing:density")).status_code == 405
