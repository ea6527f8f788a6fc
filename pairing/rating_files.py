"""Reading rating-list files: FIDE's combined list (XML in a zip, or the fixed-column
TXT variant), national lists and custom lists (CSV).  Pure Python, no Django: each
reader yields :class:`ListRow` one at a time, so a 1.2-million-player file is never
held in memory, and raises :class:`RatingFileError` naming the line (and column) of
the first rows it cannot read.

Names are searched without accents, case or word order: :func:`search_keys` gives the
two keys stored per row ("surname given" and "given surname", lower case, ASCII).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

MAX_PROBLEMS = 20
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "HM"}


@dataclass(frozen=True)
class ListRow:
    """One player of a list.  ``ident`` is the player's id in that list (the FIDE id in
    FIDE's list, the national id in a national list)."""

    ident: str
    name: str
    fide_id: str = ""
    federation: str = ""
    sex: str = ""  # "m" / "f" / ""
    title: str = ""
    birth_year: int | None = None
    standard: int | None = None
    rapid: int | None = None
    blitz: int | None = None
    standard_k: int | None = None
    rapid_k: int | None = None
    blitz_k: int | None = None
    flag: str = ""  # FIDE: i (inactive), w (woman), wi ...


class RatingFileError(ValueError):
    """The file cannot be read; ``problems`` are (line, column, message), line 0 when
    the whole file is concerned."""

    def __init__(self, problems: list[tuple[int, int, str]]):
        self.problems = problems
        super().__init__("; ".join(_where(p) for p in problems))


def _where(p: tuple[int, int, str]) -> str:
    line, col, msg = p
    if not line:
        return msg
    return f"line {line}" + (f", column {col}" if col else "") + f": {msg}"


_NON_WORD = re.compile(r"[^0-9a-z]+")


def normalise(text: str) -> str:
    """Lower case ASCII words separated by single spaces: "Ćirić, Dragoljub" ->
    "ciric dragoljub"."""
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(c for c in decomposed if not unicodedata.combining(c))
    ascii_text = ascii_text.replace("ß", "ss").replace("ø", "o").replace("Ø", "o").replace("ł", "l").replace("Ł", "l")
    return _NON_WORD.sub(" ", ascii_text.casefold()).strip()


def search_keys(name: str) -> tuple[str, str, str]:
    """("surname given", "given surname", pair) of a "Surname, Given" name (a name
    without a comma: the first word is taken as the surname).  The pair is the first
    three letters of the surname, padded with "_", then of the given name: "Carlsen,
    Magnus" -> "carmag"; a query of two words finds its rows in a short range of pairs."""
    if "," in name:
        surname, _, given = name.partition(",")
    else:
        surname, _, given = name.strip().partition(" ")
    a, b = normalise(surname), normalise(given)
    pair = a.replace(" ", "")[:3].ljust(3, "_") + b.replace(" ", "")[:3]
    return (f"{a} {b}".strip(), f"{b} {a}".strip(), pair)


def _rating(text: str) -> int | None:
    text = text.strip()
    if not text or text == "0":
        return None
    if not text.isdigit():
        raise ValueError(f"expected a rating, found {text!r}")
    value = int(text)
    if not 1 <= value <= 3500:
        raise ValueError(f"rating {value} out of range (1-3500)")
    return value


def _small(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def _sex(text: str) -> str:
    return {"M": "m", "F": "f", "W": "f"}.get(text.strip().upper()[:1], "")


def _title(text: str) -> str:
    t = text.strip().upper()
    return t if t in TITLES else ""


def _year(text: str) -> int | None:
    text = text.strip()[:4]
    return int(text) if text.isdigit() and 1880 <= int(text) <= 2100 else None


# ---------------------------------------------------------------- FIDE XML


_XML_FIELDS = {
    "fideid", "name", "country", "sex", "title", "w_title", "rating", "k", "rapid_rating", "rapid_k",
    "blitz_rating", "blitz_k", "birthday", "flag",
}


def _open_member(stream: IO[bytes], suffixes: tuple[str, ...]) -> IO[bytes]:
    """The first member of a zip whose name ends with one of ``suffixes`` (the stream
    itself when it is not a zip)."""
    head = stream.read(4)
    stream.seek(0)
    if head != b"PK\x03\x04":
        return stream
    archive = zipfile.ZipFile(stream)
    for info in archive.infolist():
        if info.filename.lower().endswith(suffixes):
            return archive.open(info)
    raise RatingFileError([(0, 0, f"the zip holds no {' or '.join(suffixes)} file")])


def read_fide_xml(stream: IO[bytes]) -> Iterator[ListRow]:
    """FIDE's ``players_list_xml`` (zipped or not): one ``<player>`` per player, read
    with lxml's incremental parser (each element is dropped once read)."""
    from lxml import etree

    source = _open_member(stream, (".xml",))
    count = 0
    try:
        for _event, elem in etree.iterparse(source, events=("end",), tag="player", huge_tree=True,
                                            resolve_entities=False, no_network=True):
            count += 1
            values = {child.tag: child.text or "" for child in elem if child.tag in _XML_FIELDS}
            elem.clear(keep_tail=False)
            while elem.getprevious() is not None:
                del elem.getparent()[0]
            try:
                yield _xml_row(values)
            except ValueError as exc:
                raise RatingFileError([(0, 0, f"player {count} (FIDE id {values.get('fideid', '?')}): {exc}")]) from None
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (0, 0)
        raise RatingFileError([(line, col, f"not well-formed XML: {exc.msg}")]) from None


def _xml_row(v: dict[str, str]) -> ListRow:
    fide_id = v.get("fideid", "").strip()
    if not fide_id.isdigit():
        raise ValueError(f"expected a FIDE id, found {fide_id!r}")
    name = v.get("name", "").strip()
    if not name:
        raise ValueError("no name")
    return ListRow(
        ident=fide_id,
        fide_id=fide_id,
        name=name,
        federation=v.get("country", "").strip().upper()[:3],
        sex=_sex(v.get("sex", "")),
        title=_title(v.get("title", "")) or _title(v.get("w_title", "")),
        birth_year=_year(v.get("birthday", "")),
        standard=_rating(v.get("rating", "")),
        rapid=_rating(v.get("rapid_rating", "")),
        blitz=_rating(v.get("blitz_rating", "")),
        standard_k=_small(v.get("k", "")),
        rapid_k=_small(v.get("rapid_k", "")),
        blitz_k=_small(v.get("blitz_k", "")),
        flag=v.get("flag", "").strip().lower()[:3],
    )


# ---------------------------------------------------------------- FIDE TXT

# header labels of FIDE's fixed-column TXT list -> our field; a value starts under its
# label and ends where the next label starts
_TXT_LABELS = [
    ("ID Number", "fideid"), ("Name", "name"), ("Fed", "country"), ("Sex", "sex"), ("Tit", "title"),
    ("WTit", "w_title"), ("OTit", "o_title"), ("FOA", "foa"), ("SRtng", "rating"), ("SGm", "games"),
    ("SK", "k"), ("RRtng", "rapid_rating"), ("RGm", "rapid_games"), ("Rk", "rapid_k"), ("BRtng", "blitz_rating"),
    ("BGm", "blitz_games"), ("BK", "blitz_k"), ("B-day", "birthday"), ("Flag", "flag"),
]


def _txt_columns(header: str) -> list[tuple[str, int, int]]:
    starts = []
    pos = 0
    for label, key in _TXT_LABELS:
        found = re.search(rf"(?<!\S){re.escape(label)}(?!\S)", header[pos:])
        if found is None:
            continue
        starts.append((key, pos + found.start()))
        pos += found.end()
    if not any(k == "fideid" for k, _ in starts) or not any(k == "name" for k, _ in starts):
        raise RatingFileError([(1, 1, "expected FIDE's header line (ID Number, Name, Fed, Sex, Tit, ..., SRtng ...)")])
    return [(key, start, starts[i + 1][1] if i + 1 < len(starts) else 10_000) for i, (key, start) in enumerate(starts)]


def read_fide_txt(stream: IO[bytes]) -> Iterator[ListRow]:
    """FIDE's fixed-column TXT list (zipped or not), columns found from its header."""
    source = io.TextIOWrapper(_open_member(stream, (".txt",)), encoding="utf-8", errors="replace")
    columns: list[tuple[str, int, int]] | None = None
    for number, line in enumerate(source, start=1):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        if columns is None:
            columns = _txt_columns(line)
            continue
        values = {key: line[a:b] for key, a, b in columns}
        try:
            yield _xml_row(values)
        except ValueError as exc:
            raise RatingFileError([(number, 1, str(exc))]) from None
    if columns is None:
        raise RatingFileError([(0, 0, "the file is empty")])


# ---------------------------------------------------------------- CSV lists

_CSV_NAMES = {
    "id": "ident", "name": "name", "rating": "rating", "federation": "federation", "fed": "federation",
    "title": "title", "birth year": "birth_year", "birthyear": "birth_year", "born": "birth_year",
    "fide id": "fide_id", "fideid": "fide_id", "fide_id": "fide_id", "sex": "sex",
}
CSV_REQUIRED = ("ident", "name", "rating")


def read_csv_list(stream: IO[bytes]) -> Iterator[ListRow]:
    """A national or custom list as CSV with a header row: id, name, rating required;
    federation, title, birth year, FIDE id and sex optional (comma, semicolon or tab
    separated, UTF-8 or Latin-1).  The whole file is checked first: every bad row is
    reported (up to 20) and none is returned (such lists are small)."""
    text = _decode(stream.read())
    rows, problems = _csv_rows(text)
    if problems:
        raise RatingFileError(problems)
    yield from rows


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _csv_rows(text: str) -> tuple[list[ListRow], list[tuple[int, int, str]]]:
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = next(reader, None)
    if header is None:
        return [], [(0, 0, "the file is empty")]
    keys = [_CSV_NAMES.get(h.strip().casefold(), "") for h in header]
    missing = [k for k in CSV_REQUIRED if k not in keys]
    if missing:
        names = {"ident": "id", "name": "name", "rating": "rating"}
        return [], [(1, 0, "the header needs the columns " + ", ".join(names[k] for k in missing)
                     + " (optional: federation, title, birth year, FIDE id, sex)")]
    rows: list[ListRow] = []
    problems: list[tuple[int, int, str]] = []
    seen: dict[str, int] = {}
    for number, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        v = {k: (cells[i].strip() if i < len(cells) else "") for i, k in enumerate(keys) if k}
        col = {k: i + 1 for i, k in enumerate(keys) if k}
        try:
            if not v["ident"]:
                raise _CellError(col["ident"], "no id")
            if v["ident"] in seen:
                raise _CellError(col["ident"], f"id {v['ident']} is also on line {seen[v['ident']]}")
            if not v["name"]:
                raise _CellError(col["name"], "no name")
            try:
                rating = _rating(v["rating"])
            except ValueError as exc:
                raise _CellError(col["rating"], str(exc)) from None
            fide_id = v.get("fide_id", "")
            if fide_id and not fide_id.isdigit():
                raise _CellError(col["fide_id"], f"expected a FIDE id (digits), found {fide_id!r}")
            title = v.get("title", "").upper()
            if title and title not in TITLES:
                raise _CellError(col["title"], f"unknown title {title!r}")
        except _CellError as exc:
            problems.append((number, exc.column, exc.message))
            if len(problems) >= MAX_PROBLEMS:
                break
            continue
        seen[v["ident"]] = number
        rows.append(ListRow(
            ident=v["ident"][:20], name=v["name"][:80], fide_id=fide_id[:11],
            federation=v.get("federation", "").upper()[:3], sex=_sex(v.get("sex", "")), title=title,
            birth_year=_year(v.get("birth_year", "")), standard=rating,
        ))
    return rows, problems


class _CellError(Exception):
    def __init__(self, column: int, message: str):
        self.column = column
        self.message = message


def read_any(stream: IO[bytes], filename: str, kind: str) -> Iterator[ListRow]:
    """The reader a file needs: FIDE lists as XML or TXT (zipped or not), the others as CSV."""
    lower = filename.lower()
    if kind == "fide":
        head = stream.read(64)
        stream.seek(0)
        if lower.endswith((".xml", "xml.zip")) or b"<?xml" in head or b"<playerslist" in head:
            return read_fide_xml(stream)
        if lower.endswith(".zip") and head.startswith(b"PK"):
            names = [i.filename.lower() for i in zipfile.ZipFile(stream).infolist()]
            stream.seek(0)
            return read_fide_xml(stream) if any(n.endswith(".xml") for n in names) else read_fide_txt(stream)
        return read_fide_txt(stream)
    return read_csv_list(stream)


def batched(rows: Iterable[ListRow], size: int) -> Iterator[list[ListRow]]:
    batch: list[ListRow] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
