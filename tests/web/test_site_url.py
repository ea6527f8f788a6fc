"""Issue 39: SITE_URL, one setting for the site's addresses (arbiter_site/site_url.py):
Django's allowed hosts and trusted origins come from it (and the self-signed
certificate's names, tests/hosting/test_certs.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter_site.site_url import SiteUrlError, parse_site_urls

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("raw", "hosts", "origins"),
    [
        ("https://chess.example.org", ["chess.example.org"], ["https://chess.example.org"]),
        ("https://Chess.Example.org/", ["chess.example.org"], ["https://chess.example.org"]),
        # a venue: the name and the server's LAN address, one with a port
        ("https://chess.local, https://192.168.1.20:8443", ["chess.local", "192.168.1.20"],
         ["https://chess.local", "https://192.168.1.20:8443"]),
        ("https://chess.local:443,http://chess.local", ["chess.local", "chess.local"],
         ["https://chess.local", "http://chess.local"]),
        ("https://[fd00::20]:8443", ["[fd00::20]"], ["https://[fd00::20]:8443"]),
        ("", [], []),
        (" , ", [], []),
    ],
)
def test_addresses_give_hosts_and_origins(raw, hosts, origins):
    addresses = parse_site_urls(raw)
    assert [a.allowed_host for a in addresses] == hosts
    assert [a.origin for a in addresses] == origins


def test_a_repeated_address_counts_once():
    assert len(parse_site_urls("https://chess.local,https://chess.local/")) == 1


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("chess.example.org", "is not an address like https://chess.example.org"),
        ("ftp://chess.example.org", "is not an address like"),
        ("https://chess.example.org/club/", "no path"),
        ("https://chess.example.org:99999", "has a bad port"),
        ("https://*.example.org", "no wildcards"),
        ("https://user:pw@chess.example.org", "no path"),
    ],
)
def test_a_malformed_address_is_refused_saying_which(raw, said):
    with pytest.raises(SiteUrlError, match="SITE_URL") as refused:
        parse_site_urls(raw)
    assert said in str(refused.value)


def _settings(**env: str) -> dict:
    code = ("import json; from django.conf import settings; "
            "print(json.dumps([settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS]))")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SITE_URL"))}
    done = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=ROOT,
                          env={**base, "DJANGO_SETTINGS_MODULE": "arbiter_site.settings", **env},
                          capture_output=True, text=True)
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1]}
    hosts, origins = json.loads(done.stdout)
    return {"hosts": hosts, "origins": origins}


def test_production_settings_take_hosts_and_origins_from_site_url_alone():
    got = _settings(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="s" * 20 + "-production-like-key-" + "t" * 20,
                    SITE_URL="https://chess.example.org,https://192.168.1.20:8443")
    assert got == {"hosts": ["chess.example.org", "192.168.1.20"],
                   "origins": ["https://chess.example.org", "https://192.168.1.20:8443"]}


def test_the_older_settings_still_add_to_it():
    got = _settings(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="s" * 20 + "-production-like-key-" + "t" * 20,
                    SITE_URL="https://chess.example.org", DJANGO_ALLOWED_HOSTS=".club.org",
                    DJANGO_CSRF_TRUSTED_ORIGINS="https://www.club.org")
    assert got == {"hosts": ["chess.example.org", ".club.org"],
                   "origins": ["https://chess.example.org", "https://www.club.org"]}


def test_production_without_any_address_or_with_a_bad_one_does_not_start():
    key = "s" * 20 + "-production-like-key-" + "t" * 20
    assert "SITE_URL (or DJANGO_ALLOWED_HOSTS) must be set" in _settings(DJANGO_DEBUG="false", DJANGO_SECRET_KEY=key)["error"]
    bad = _settings(DJANGO_DEBUG="false", DJANGO_SECRET_KEY=key, SITE_URL="chess.example.org")
    assert "SITE_URL: 'chess.example.org' is not an address" in bad["error"]
