"""Damaged rating-list files for the fuzz test (tests/web/test_rating_list_fuzz.py) and
the long campaign (scripts/fuzz_rating_files.py): small good files of each format, and
mutations of the kinds the audit found crashing the upload (issue 33, finding 3):
damaged zips, line breaks or NUL in cells, oversized cells, digits that are not ASCII
('199²'), numbers too large for their column."""

from __future__ import annotations

import io
import random
import zipfile

# fideid, name, fed, sex, title, std, rapid, blitz, born, flag
PLAYERS = [
    ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2833, 2820, 2880, 1990, ""),
    ("14100010", "Ćirić, Dragoljub", "SRB", "M", "IM", 2290, "", "", 1935, "i"),
    ("24116068", "Rapidov, Ivan", "SLO", "M", "", "", 1900, 1950, 2001, ""),
    ("5000001", "Novak, Ana", "SLO", "F", "WFM", 2010, 2050, "", 1999, "w"),
    ("4100018", "Muster, Max", "GER", "M", "FM", 2301, 2280, 2250, 1985, ""),
]

FORMATS = ("txt", "xml", "zip-txt", "zip-xml", "csv")


def fide_xml(players=PLAYERS) -> bytes:
    rows = []
    for fid, name, fed, sex, title, std, rapid, blitz, born, flag in players:
        rows.append(
            f"<player><fideid>{fid}</fideid><name>{name}</name><country>{fed}</country><sex>{sex}</sex>"
            f"<title>{title}</title><w_title></w_title><o_title></o_title><foa_title></foa_title>"
            f"<rating>{std}</rating><games>0</games><k>{10 if std else ''}</k><rapid_rating>{rapid}</rapid_rating>"
            f"<rapid_games>0</rapid_games><rapid_k>20</rapid_k><blitz_rating>{blitz}</blitz_rating>"
            f"<blitz_games>0</blitz_games><blitz_k>20</blitz_k><birthday>{born}</birthday><flag>{flag}</flag></player>"
        )
    return ('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n' + "\n".join(rows) + "\n</playerslist>\n").encode()


TXT_HEADER = ("ID Number      Name                                                         Fed Sex Tit  WTit OTit"
              "           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")


def fide_txt(players=PLAYERS) -> bytes:
    cols = {k: TXT_HEADER.index(k) for k in ("Name", "Fed", "Sex", "Tit", "SRtng", "SK", "RRtng", "BRtng", "B-day", "Flag")}
    lines = [TXT_HEADER]
    for fid, name, fed, sex, title, std, rapid, blitz, born, flag in players:
        line = [" "] * (len(TXT_HEADER) + 4)
        for col, text in ((0, fid), (cols["Name"], name), (cols["Fed"], fed), (cols["Sex"], sex),
                          (cols["Tit"], title), (cols["SRtng"], std), (cols["SK"], 10 if std else ""),
                          (cols["RRtng"], rapid), (cols["BRtng"], blitz), (cols["B-day"], born), (cols["Flag"], flag)):
            line[col:col + len(str(text))] = list(str(text))
        lines.append("".join(line).rstrip())
    return ("\n".join(lines) + "\n").encode()


def national_csv(players=PLAYERS) -> bytes:
    rows = ["id,name,rating,federation,title,birth year,fide id,sex"]
    for i, (fid, name, fed, sex, title, std, _r, _b, born, _f) in enumerate(players, start=1):
        rows.append(f'N-{i},"{name}",{std or 1500},{fed},{title},{born},{fid},{sex}')
    return ("\n".join(rows) + "\n").encode()


def zipped(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    return buf.getvalue()


# what the audit's crashing files held, and more of the same kind
TOKENS = [
    b"\n", b"\r", b"\r\n", b"\x00", b"\x0b", b"\x1b", "\u2028".encode(), "\x85".encode(), b"\t",
    "²".encode(), "199²".encode(), "١٩٩٠".encode(), "３".encode(), b"\xff\xfe", b"\xc3", b"\xe2\x82",
    b"<", b">", b"&", b"&#0;", b"&#10;", b"&amp;", b"]]>", b"<![CDATA[x]]>", b"<!--", b'"', b'""', b",", b";",
    b"9" * 6, b"9" * 12, b"9" * 40, b"-1", b"0", b"65536", b"99999", b"A" * 90, b"A" * 300, b"x" * 2000,
    b"GM", b"M", b"F", b"SLO", b" " * 60,
]
LONG_CELL = b"y" * 200_000  # past csv's field limit (131,072)


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random damages of ``data``."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not out:
            out = bytearray(rng.choice(TOKENS))
            continue
        i = rng.randrange(len(out))
        kind = rng.random()
        if kind < 0.45:
            token = LONG_CELL if rng.random() < 0.01 else rng.choice(TOKENS)
            out[i:i + (rng.randint(0, 3) if rng.random() < 0.5 else 0)] = token
        elif kind < 0.6:
            out[i] = rng.randrange(256)
        elif kind < 0.72:
            del out[i:i + rng.randint(1, 40)]
        elif kind < 0.82:
            j = min(len(out), i + rng.randint(1, 120))
            out[i:i] = out[i:j]
        elif kind < 0.9:
            del out[i:]
        else:  # a digit run made huge, or non-ASCII
            j = i
            while j < len(out) and 48 <= out[j] <= 57:
                j += 1
            out[i:j] = rng.choice([b"9" * 25, "²".encode(), "٣".encode(), b"-5"])
    return bytes(out)


def damaged_zip(data: bytes, rng: random.Random) -> bytes:
    """A zip whose bytes are damaged (headers, compressed data, CRC, truncation)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        if kind < 0.5 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif kind < 0.75:
            del out[rng.randrange(max(1, len(out))):]
        elif out:
            i = rng.randrange(len(out))
            del out[i:i + rng.randint(1, 30)]
    return bytes(out)


def sample(fmt: str, rng: random.Random) -> tuple[bytes, str, str]:
    """One damaged file of format ``fmt``: (bytes, file name, kind of list)."""
    if fmt == "csv":
        return mutate(national_csv(), rng), "national.csv", "national"
    if fmt == "txt":
        return mutate(fide_txt(), rng), "players_list.txt", "fide"
    if fmt == "xml":
        return mutate(fide_xml(), rng), "players_list_xml.xml", "fide"
    inner_name, inner = ("players_list_foa.txt", fide_txt()) if fmt == "zip-txt" else ("players_list_xml_foa.xml", fide_xml())
    name = "players_list.zip" if fmt == "zip-txt" else "players_list_xml.zip"
    if rng.random() < 0.5:
        return zipped(inner_name, mutate(inner, rng)), name, "fide"
    return damaged_zip(zipped(inner_name, inner), rng), name, "fide"
