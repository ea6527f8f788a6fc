"""docker/certs.py: the venue's self-signed certificate, made when certs/ has none.

Runs the ``openssl`` program as the image does; every check reads the files back with
openssl (names, signature, key modes), as a browser that trusts venue-ca.crt would.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docker"))
import certs  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")


def _verify(folder: Path, name: str) -> subprocess.CompletedProcess:
    """openssl's own check of fullchain.pem against venue-ca.crt for ``name``."""
    option = "-verify_ip" if name[0].isdigit() or ":" in name else "-verify_hostname"
    return subprocess.run(
        ["openssl", "verify", "-CAfile", str(folder / "venue-ca.crt"), option, name, str(folder / "fullchain.pem")],
        capture_output=True, text=True,
    )


def test_an_empty_folder_gets_a_certificate_for_every_name_signed_by_the_venue_ca(tmp_path, capsys):
    assert certs.ensure(tmp_path, ["chess.local", "192.168.1.20"]) == "made"
    assert {p.name for p in tmp_path.iterdir()} == {"fullchain.pem", "privkey.pem", "venue-ca.crt", "venue-ca.key"}
    assert certs.names_in(tmp_path / "fullchain.pem") == {"chess.local", "192.168.1.20"}
    for name in ("chess.local", "192.168.1.20"):
        assert _verify(tmp_path, name).returncode == 0, _verify(tmp_path, name).stderr
    assert _verify(tmp_path, "other.example.org").returncode != 0
    assert (tmp_path / "privkey.pem").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "venue-ca.key").stat().st_mode & 0o777 == 0o600
    said = capsys.readouterr().err
    assert "NO CERTIFICATE WAS FOUND IN certs/: A SELF-SIGNED ONE WAS MADE." in said
    assert "venue-ca.crt SHA-256 fingerprint:" in said and said.count("=" * 78) == 2


def test_the_site_certificate_is_one_phones_accept(tmp_path):
    """What Apple's and Android's rules ask of a site certificate from a user-installed
    authority: the names in subjectAltName, serverAuth, not a CA itself, at most 825
    days; the authority is a CA."""
    certs.ensure(tmp_path, ["chess.local"])
    site = subprocess.run(["openssl", "x509", "-in", str(tmp_path / "fullchain.pem"), "-noout", "-text", "-dates"],
                          capture_output=True, text=True).stdout
    assert "TLS Web Server Authentication" in site and "CA:FALSE" in site
    authority = subprocess.run(["openssl", "x509", "-in", str(tmp_path / "venue-ca.crt"), "-noout", "-text"],
                               capture_output=True, text=True).stdout
    assert "CA:TRUE" in authority and "Certificate Sign" in authority
    days = subprocess.run(["openssl", "x509", "-in", str(tmp_path / "fullchain.pem"), "-noout", "-checkend",
                           str(825 * 86400 + 3600)], capture_output=True, text=True)
    assert days.returncode != 0  # expires within 825 days (and an hour)


def test_a_second_start_keeps_it_and_a_new_address_renews_it_by_the_same_authority(tmp_path, capsys):
    certs.ensure(tmp_path, ["chess.local"])
    ca = (tmp_path / "venue-ca.crt").read_bytes()
    first = (tmp_path / "fullchain.pem").read_bytes()
    assert certs.ensure(tmp_path, ["chess.local"]) == "kept"
    assert (tmp_path / "fullchain.pem").read_bytes() == first
    capsys.readouterr()
    # the next venue's hall: another LAN address in SITE_URL
    assert certs.ensure(tmp_path, ["chess.local", "10.0.0.5"]) == "renewed"
    assert (tmp_path / "venue-ca.crt").read_bytes() == ca  # devices that trust it keep trusting
    assert _verify(tmp_path, "10.0.0.5").returncode == 0
    assert "SITE_URL names 10.0.0.5, which it lacked" in capsys.readouterr().err


def test_the_admin_s_own_certificate_is_never_touched(tmp_path):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=club.org",
                    "-keyout", str(tmp_path / "privkey.pem"), "-out", str(tmp_path / "fullchain.pem")],
                   check=True, capture_output=True)
    before = (tmp_path / "fullchain.pem").read_bytes()
    assert certs.ensure(tmp_path, ["chess.local"]) == "theirs"
    assert (tmp_path / "fullchain.pem").read_bytes() == before
    assert not (tmp_path / "venue-ca.crt").exists()


def test_half_a_pair_is_left_alone_and_said(tmp_path, capsys):
    (tmp_path / "fullchain.pem").write_text("the admin's file")
    assert certs.ensure(tmp_path, ["chess.local"]) == "partial"
    assert (tmp_path / "fullchain.pem").read_text() == "the admin's file"
    assert "certs/ has fullchain.pem but not privkey.pem" in capsys.readouterr().err
