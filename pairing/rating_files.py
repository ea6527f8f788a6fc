"""Reading rating-list files: FIDE's combined list (XML in a zip, or the fixed-column
TXT variant), national lists and custom lists (CSV).  Pure Python, no Django: each
reader yields :class:`ListRow` one at a time, so a 1.2-million-player file is never
held in memory, and raises :class:`RatingFileError` naming the line (and column) of
the first rows it cannot read.

Names are searched without accents, case or word order: :func:`search_keys` gives the
two keys stored per row ("surname given" and "given surname", lower case, ASCII).

A damaged or hostile file is a :class:`RatingFileError` that says what and where, never
another exception: a damaged zip, a control character (line break, NUL) in a value, a
value longer than its column, digits that are not ASCII digits.  Caps keep a small file
from taking the server's memory or time (a zip bomb): the unzipped size
(:data:`MAX_UNZIPPED_BYTES`, larger for the command that loads FIDE's whole list), the
TXT reader's line (:data:`MAX_LINE_CHARS`), an XML field's text (:data:`MAX_FIELD_CHARS`)
and fields per player (:data:`MAX_PLAYER_FIELDS`), a CSV file (:data:`MAX_CSV_BYTES`).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

MAX_PROBLEMS = 20
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "HM"}

# Caps (a file over one is refused, the cap named).  FIDE's whole XML list unzips to
# well under 1 GB; an upload is at most 10 MB zipped, and XML or TXT lists compress
# about tenfold, so 256 MB unzipped is room to spare for any list an upload can hold.
MAX_UNZIPPED_BYTES = 256 * 1024 * 1024
FULL_LIST_MAX_UNZIPPED_BYTES = 4 * 1024 * 1024 * 1024  # manage.py import_rating_list
MAX_LINE_CHARS = 1_000  # FIDE's TXT lines are about 160 characters
MAX_FIELD_CHARS = 200  # the longest column of an entry is 80 characters
MAX_PLAYER_FIELDS = 64  # FIDE's <player> has 19
MAX_CSV_BYTES = 16 * 1024 * 1024  # CSV lists are read whole (they are checked whole first)
_WIDTHS = {"ident": 20, "fide_id": 11, "fideid": 11, "name": 80}
_NAMES = {"ident": "id", "fide_id": "FIDE id", "fideid": "FIDE id", "country": "federation", "birthday": "birth year",
          "birth_year": "birth year", "w_title": "woman's title", "k": "K factor", "rating": "rating"}


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


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes '²' and other scripts' digits."""
    return text.isascii() and text.isdigit()


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _check_text(key: str, text: str) -> str:
    """``text`` unless it holds a control character (a line break, NUL, ...) or is longer
    than its column; ValueError naming the field otherwise."""
    field = _NAMES.get(key, key.replace("_", " "))
    bad = _CONTROL.search(text)
    if bad:
        raise ValueError(f"the {field} holds a control character (U+{ord(bad.group()):04X}), which no list value may hold")
    width = _WIDTHS.get(key, MAX_FIELD_CHARS)
    if len(text.strip()) > width:
        raise ValueError(f"the {field} is {len(text.strip()):,} characters long; it may have at most {width}")
    return text


def printable(text: str) -> str:
    """``text`` without control characters (a file's name as the browser sent it)."""
    return _CONTROL.sub("", text)


def _rating(text: str) -> int | None:
    text = text.strip()
    if not text or text == "0":
        return None
    if not _digits(text):
        raise ValueError(f"expected a rating, found {text!r}")
    value = int(text)
    if not 1 <= value <= 3500:
        raise ValueError(f"rating {value} out of range (1-3500)")
    return value


def _small(text: str) -> int | None:
    """A K factor (or the like): None unless ASCII digits; ValueError above 100."""
    text = text.strip()
    if not _digits(text):
        return None
    value = int(text)
    if value > 100:
        raise ValueError(f"K factor {value} out of range (0-100)")
    return value


def _sex(text: str) -> str:
    return {"M": "m", "F": "f", "W": "f"}.get(text.strip().upper()[:1], "")


def _title(text: str) -> str:
    t = text.strip().upper()
    return t if t in TITLES else ""


def _year(text: str) -> int | None:
    text = text.strip()[:4]
    return int(text) if _digits(text) and 1880 <= int(text) <= 2100 else None


# ---------------------------------------------------------------- FIDE XML


_XML_FIELDS = {
    "fideid", "name", "country", "sex", "title", "w_title", "rating", "k", "rapid_rating", "rapid_k",
    "blitz_rating", "blitz_k", "birthday", "flag",
}


_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError, ValueError)


def _damaged(exc: Exception) -> RatingFileError:
    return RatingFileError([(0, 0, f"the zip is damaged or cannot be read ({exc or type(exc).__name__})")])


def _too_big(cap: int) -> RatingFileError:
    return RatingFileError([(0, 0, f"the list unzips to more than {cap:,} bytes, the most that is read "
                                   f"(the cap on a list's unzipped size)")])


class _Capped(io.RawIOBase):
    """``source`` read through, refused past ``cap`` bytes; a damaged zip member's
    errors (bad CRC, bad data) become :class:`RatingFileError`."""

    def __init__(self, source: IO[bytes], cap: int):
        self.source, self.cap, self.seen = source, cap, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        try:
            data = self.source.read(len(buffer))
        except RatingFileError:
            raise
        except _DAMAGED as exc:
            raise _damaged(exc) from None
        self.seen += len(data)
        if self.seen > self.cap:
            raise _too_big(self.cap)
        buffer[: len(data)] = data
        return len(data)


def _open_member(stream: IO[bytes], suffixes: tuple[str, ...], cap: int = MAX_UNZIPPED_BYTES) -> IO[bytes]:
    """The first member of a zip whose name ends with one of ``suffixes`` (the stream
    itself when it is not a zip), read through :class:`_Capped` (at most ``cap`` bytes)."""
    head = stream.read(4)
    stream.seek(0)
    if head != b"PK\x03\x04":
        return io.BufferedReader(_Capped(stream, cap))
    try:
        archive = zipfile.ZipFile(stream)
        for info in archive.infolist():
            if info.filename.lower().endswith(suffixes):
                if info.file_size > cap:
                    raise _too_big(cap)
                return io.BufferedReader(_Capped(archive.open(info), cap))
    except RatingFileError:
        raise
    except _DAMAGED as exc:
        raise _damaged(exc) from None
    raise RatingFileError([(0, 0, f"the zip holds no {' or '.join(suffixes)} file")])


def read_fide_xml(stream: IO[bytes], cap: int = MAX_UNZIPPED_BYTES) -> Iterator[ListRow]:
    """FIDE's ``players_list_xml`` (zipped or not): one ``<player>`` per player, read
    with lxml's incremental parser (each element is dropped once read).  Every element's
    text is checked as it ends (:data:`MAX_FIELD_CHARS`) and a player holds at most
    :data:`MAX_PLAYER_FIELDS` elements, so memory stays small whatever the file."""
    from lxml import etree

    source = _open_member(stream, (".xml",), cap)
    count = fields = 0
    try:
        for _event, elem in etree.iterparse(source, events=("end",), resolve_entities=False, no_network=True):
            if elem.tag != "player":
                fields += 1
                for text in (elem.text, elem.tail):
                    if text and len(text) > MAX_FIELD_CHARS and text.strip():
                        raise RatingFileError([(elem.sourceline or 0, 0, f"player {count + 1}: the text of <{elem.tag}> "
                                                f"is {len(text):,} characters long; a field holds at most "
                                                f"{MAX_FIELD_CHARS} (the cap on a field's length)")])
                if fields > MAX_PLAYER_FIELDS:
                    raise RatingFileError([(elem.sourceline or 0, 0, f"player {count + 1} has more than "
                                            f"{MAX_PLAYER_FIELDS} elements (the cap on a player's fields)")])
                continue
            count += 1
            fields = 0
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
    except (etree.LxmlError, UnicodeError) as exc:
        raise RatingFileError([(0, 0, f"the XML cannot be read: {exc}")]) from None


def _xml_row(v: dict[str, str]) -> ListRow:
    v = {k: _check_text(k, text) for k, text in v.items()}
    fide_id = v.get("fideid", "").strip()
    if not _digits(fide_id):
        raise ValueError(f"expected a FIDE id, found {fide_id[:20]!r}")
    if len(fide_id) > _WIDTHS["fide_id"]:
        raise ValueError(f"the FIDE id {fide_id[:20]!r} has more than {_WIDTHS['fide_id']} digits")
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


def read_fide_txt(stream: IO[bytes], cap: int = MAX_UNZIPPED_BYTES) -> Iterator[ListRow]:
    """FIDE's fixed-column TXT list (zipped or not), columns found from its header;
    a line longer than :data:`MAX_LINE_CHARS` is refused before it is read whole."""
    source = io.TextIOWrapper(_open_member(stream, (".txt",), cap), encoding="utf-8", errors="replace", newline="")
    columns: list[tuple[str, int, int]] | None = None
    number = 0
    while True:
        line = source.readline(MAX_LINE_CHARS + 2)
        if not line:
            break
        number += 1
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            raise RatingFileError([(number, MAX_LINE_CHARS + 1, f"the line is longer than {MAX_LINE_CHARS:,} "
                                    "characters (the cap on a line of FIDE's TXT list)")])
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
    reported (up to 20) and none is returned.  Two passes over the text (at most
    :data:`MAX_CSV_BYTES`), the first keeping only the problems, so the rows are never
    all in memory at once."""
    raw = stream.read(MAX_CSV_BYTES + 1)
    if len(raw) > MAX_CSV_BYTES:
        raise RatingFileError([(0, 0, f"the file is larger than {MAX_CSV_BYTES:,} bytes, the most a CSV list may be")])
    text = _decode(raw)
    del raw
    problems = [item for kind, item in _csv_rows(text) if kind == "problem"]
    if problems:
        raise RatingFileError(problems)
    for _kind, row in _csv_rows(text):
        yield row


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _csv_rows(text: str) -> Iterator[tuple[str, ListRow | tuple[int, int, str]]]:
    """("row", ListRow) for each good row and ("problem", (line, column, message)) for
    each bad one, up to :data:`MAX_PROBLEMS` problems."""
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        yield "problem", (1, 0, f"not a CSV line: {exc}")
        return
    if header is None:
        yield "problem", (0, 0, "the file is empty")
        return
    keys = [_CSV_NAMES.get(h.strip().casefold(), "") for h in header]
    missing = [k for k in CSV_REQUIRED if k not in keys]
    if missing:
        names = {"ident": "id", "name": "name", "rating": "rating"}
        yield "problem", (1, 0, "the header needs the columns " + ", ".join(names[k] for k in missing)
                          + " (optional: federation, title, birth year, FIDE id, sex)")
        return
    problems = 0
    seen: dict[str, int] = {}
    number = 1
    while True:
        try:
            cells = next(reader, None)
        except csv.Error as exc:
            yield "problem", (reader.line_num, 0, f"not a CSV line: {exc}")
            return
        if cells is None:
            break
        number = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        v = {k: (cells[i].strip() if i < len(cells) else "") for i, k in enumerate(keys) if k}
        col = {k: i + 1 for i, k in enumerate(keys) if k}
        try:
            for k, text in v.items():
                try:
                    _check_text(k, text)
                except ValueError as exc:
                    raise _CellError(col[k], str(exc)) from None
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
            if fide_id and not _digits(fide_id):
                raise _CellError(col["fide_id"], f"expected a FIDE id (digits), found {fide_id!r}")
            title = v.get("title", "").upper()
            if title and title not in TITLES:
                raise _CellError(col["title"], f"unknown title {title!r}")
        except _CellError as exc:
            yield "problem", (number, exc.column, exc.message)
            problems += 1
            if problems >= MAX_PROBLEMS:
                return
            continue
        seen[v["ident"]] = number
        yield "row", ListRow(
            ident=v["ident"][:20], name=v["name"][:80], fide_id=fide_id[:11],
            federation=v.get("federation", "").upper()[:3], sex=_sex(v.get("sex", "")), title=title,
            birth_year=_year(v.get("birth_year", "")), standard=rating,
        )


class _CellError(Exception):
    def __init__(self, column: int, message: str):
        self.column = column
        self.message = message


def read_any(stream: IO[bytes], filename: str, kind: str, cap: int = MAX_UNZIPPED_BYTES) -> Iterator[ListRow]:
    """The reader a file needs: FIDE lists as XML or TXT (zipped or not), the others as
    CSV.  ``cap``: the most bytes a list may unzip to.  Whatever the file, the rows or a
    :class:`RatingFileError`."""
    return _guarded(_pick(stream, filename, kind, cap))


def _pick(stream: IO[bytes], filename: str, kind: str, cap: int) -> Iterator[ListRow]:
    lower = filename.lower()
    if kind == "fide":
        head = stream.read(64)
        stream.seek(0)
        if lower.endswith((".xml", "xml.zip")) or b"<?xml" in head or b"<playerslist" in head:
            yield from read_fide_xml(stream, cap)
            return
        if lower.endswith(".zip") and head.startswith(b"PK"):
            names = [i.filename.lower() for i in zipfile.ZipFile(stream).infolist()]
            stream.seek(0)
            yield from (read_fide_xml if any(n.endswith(".xml") for n in names) else read_fide_txt)(stream, cap)
            return
        yield from read_fide_txt(stream, cap)
        return
    yield from read_csv_list(stream)


def _guarded(rows: Iterator[ListRow]) -> Iterator[ListRow]:
    """The last line of defence: a reader's unforeseen error on a damaged file is a
    refusal that says so, never a server error."""
    try:
        yield from rows
    except RatingFileError:
        raise
    except (*_DAMAGED, csv.Error, UnicodeError, LookupError, OverflowError, MemoryError) as exc:
        raise RatingFileError([(0, 0, f"the file cannot be read ({type(exc).__name__}: {str(exc)[:200]})")]) from None


def batched(rows: Iterable[ListRow], size: int) -> Iterator[list[ListRow]]:
    batch: list[ListRow] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
