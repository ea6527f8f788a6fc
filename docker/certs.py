"""The venue's certificate: made on the web container's first start when ``certs/`` has
none (docker/start.py, as root, before it drops to the app's user).

A small certificate authority of this server's own (``venue-ca.crt``, its key
``venue-ca.key``) signs the site's certificate (``fullchain.pem``, key ``privkey.pem``) for
every name and address of SITE_URL.  Phones and laptops either accept the browser's
warning once, or trust ``venue-ca.crt`` (installed as a CA certificate: the README's
"A venue without internet"); then the site opens without a warning.  When SITE_URL later
names an address the certificate lacks (a new hall, a new LAN address) and the
certificate is one made here, the site's certificate is made again by the same authority,
so a device that trusts it keeps trusting the site.  A certificate put there by the admin
(Let's Encrypt, say) is never touched.

Uses the ``openssl`` program (in the image).  Everything it does is printed, loudly.
"""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CA_CERT, CA_KEY = "venue-ca.crt", "venue-ca.key"
CERT, KEY = "fullchain.pem", "privkey.pem"
CA_DAYS = 3650
# Apple's devices refuse a site certificate valid for longer than 825 days.
CERT_DAYS = 825


def say(text: str) -> None:
    print(f"certificate: {text}", file=sys.stderr, flush=True)


def banner(lines: list[str]) -> None:
    rule = "=" * 78
    say(rule)
    for line in lines:
        say(line)
    say(rule)


def _openssl(*args: str) -> str:
    done = subprocess.run(["openssl", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"openssl {args[0]} failed: {done.stderr.strip()}")
    return done.stdout


def _san(names: list[str]) -> str:
    entries = []
    for name in names:
        try:
            ipaddress.ip_address(name)
            entries.append(f"IP:{name}")
        except ValueError:
            entries.append(f"DNS:{name}")
    return ",".join(entries)


def names_in(cert: Path) -> set[str]:
    """The DNS names and IP addresses a certificate is valid for."""
    text = _openssl("x509", "-in", str(cert), "-noout", "-ext", "subjectAltName")
    found = set()
    for item in text.replace("\n", ",").split(","):
        kind, _, value = item.strip().partition(":")
        if kind in ("DNS", "IP Address") and value:
            found.add(value.strip().lower())
    return found


def fingerprint(cert: Path) -> str:
    return _openssl("x509", "-in", str(cert), "-noout", "-fingerprint", "-sha256").strip().split("=", 1)[-1]


def _make_ca(folder: Path, label: str) -> None:
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-days", str(CA_DAYS), "-subj", f"/CN=Dubov arbiter venue CA ({label})",
             "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             "-keyout", str(folder / CA_KEY), "-out", str(folder / CA_CERT))
    os.chmod(folder / CA_KEY, 0o600)
    os.chmod(folder / CA_CERT, 0o644)


def _make_site_cert(folder: Path, names: list[str]) -> None:
    """The site's key and certificate, signed by the folder's CA; written under temporary
    names and renamed, so the proxy never reads half a pair."""
    with tempfile.TemporaryDirectory(dir=folder, prefix=".new-") as tmp:
        work = Path(tmp)
        extensions = work / "ext.cnf"
        extensions.write_text(
            "basicConstraints=critical,CA:FALSE\n"
            "keyUsage=critical,digitalSignature\n"
            "extendedKeyUsage=serverAuth\n"
            f"subjectAltName={_san(names)}\n"
        )
        _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-subj", f"/CN={names[0]}", "-keyout", str(work / KEY), "-out", str(work / "site.csr"))
        _openssl("x509", "-req", "-in", str(work / "site.csr"), "-CA", str(folder / CA_CERT),
                 "-CAkey", str(folder / CA_KEY), "-CAcreateserial", "-CAserial", str(work / "ca.srl"),
                 "-days", str(CERT_DAYS), "-sha256", "-extfile", str(extensions), "-out", str(work / "site.crt"))
        chain = (work / "site.crt").read_text() + (folder / CA_CERT).read_text()
        (work / CERT).write_text(chain)
        os.chmod(work / KEY, 0o600)
        os.chmod(work / CERT, 0o644)
        os.replace(work / KEY, folder / KEY)
        os.replace(work / CERT, folder / CERT)


def ensure(folder: Path, names: list[str]) -> str:
    """Make or renew the venue's certificate in ``folder`` when needed.  Returns what was
    done: "made", "renewed", "kept" (ours, covers every name), "theirs" (the admin's),
    "partial" (one of the two files only: left alone, said loudly)."""
    names = list(dict.fromkeys(n.lower() for n in names if n)) or ["localhost"]
    cert, key = folder / CERT, folder / KEY
    ours = (folder / CA_KEY).exists() and (folder / CA_CERT).exists()
    if cert.exists() != key.exists():
        banner([f"certs/ has {'fullchain.pem' if cert.exists() else 'privkey.pem'} but not "
                f"{'privkey.pem' if cert.exists() else 'fullchain.pem'}: the proxy cannot start.",
                "Put both files of the site's certificate there, or empty the folder to have a",
                "self-signed one made on the next start."])
        return "partial"
    if cert.exists():
        if not ours:
            return "theirs"
        missing = [n for n in names if n not in names_in(cert)]
        if not missing:
            return "kept"
        _make_site_cert(folder, names)
        banner(["The site's self-signed certificate was made again: SITE_URL names "
                + ", ".join(missing) + ", which it lacked.",
                f"It is now valid for: {', '.join(names)}.",
                "Devices that trust certs/venue-ca.crt keep trusting the site; the others see the",
                "browser's warning once more (README: 'A venue without internet')."])
        return "renewed"
    if not ours:
        _make_ca(folder, names[0])
    _make_site_cert(folder, names)
    banner(["NO CERTIFICATE WAS FOUND IN certs/: A SELF-SIGNED ONE WAS MADE.",
            f"Valid for: {', '.join(names)} (from SITE_URL).",
            "Browsers warn about it until the device trusts certs/venue-ca.crt, the authority",
            "that signed it (README: 'A venue without internet': install it on phones, or",
            "accept the warning once).  For a public site, put its real certificate in certs/",
            "(fullchain.pem, privkey.pem) instead.",
            f"venue-ca.crt SHA-256 fingerprint: {fingerprint(folder / CA_CERT)}"])
    return "made"
