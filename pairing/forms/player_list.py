"""Many players at once: a pasted or uploaded list (CSV with commas, semicolons or
tabs), and a TRF file to import."""

from __future__ import annotations

import csv
import datetime
from dataclasses import dataclass

from django import forms

from ..models import TITLE_ORDER, Player, Tournament
from .fields import (
    CONTROL_CHARACTER,
    FED_RE,
    FIDE_ID_RE,
    MAX_FILE_BYTES,
    _birth_date_problem,
    _refuse_nul,
    control_character_problem,
)


@dataclass
class ParsedPlayer:
    line: int
    values: dict


LIST_COLUMNS = ["name", "rating", "title", "federation", "fide_id", "birth_date", "sex", "club"]


_DELIMITER_NAMES = {"\t": "tab", ";": "semicolon", ",": "comma"}


def parse_player_list(text: str, tournament: Tournament) -> tuple[list[ParsedPlayer], list[str]]:
    """Parse a pasted or uploaded list, one player a line.

    Columns (comma, semicolon or tab separated): name, rating, title, federation,
    FIDE id, birth date (YYYY-MM-DD), sex (m/f), club; only name and rating are
    required; an empty rating means unrated, given a provisional rating of 1000.
    A first line starting with ``name`` is a header and skipped.  ``"Name, Given"``
    needs quotes when commas separate columns.  Returns (players, errors); errors
    name the line.
    """
    lines = text.splitlines()  # any line ending: \r\n, \n, a lone \r, ...
    sample = "\n".join(lines[:5])
    delimiter = "\t" if "\t" in sample else (";" if ";" in sample else ",")
    # one line, one player: each line is read on its own, so that a quote left open
    # is an error on its line instead of swallowing the lines after it
    rows: list[list[str] | str] = []  # the columns of a line, or why it cannot be split
    for line in lines:
        try:
            rows.append(next(csv.reader([line], delimiter=delimiter, skipinitialspace=True, strict=True), []))
        except csv.Error as exc:
            what = "a quote is not closed" if "end of data" in str(exc) else str(exc)
            rows.append(
                f"{what} (columns separated by {_DELIMITER_NAMES[delimiter]}s; "
                'a name with the separator in it goes in double quotes: "Name, Given")'
            )
    players: list[ParsedPlayer] = []
    errors: list[str] = []
    seen_ids: dict[str, int] = {}
    existing_ids = set(
        Player.objects.filter(tournament=tournament).exclude(fide_id="").values_list("fide_id", flat=True)
    )
    for line_no, row in enumerate(rows, start=1):
        if isinstance(row, str):
            errors.append(f"Line {line_no}: {row}.")
            continue
        row = [c.strip() for c in row]
        if not any(row):
            continue
        if line_no == 1 and row[0].lower() == "name":
            continue
        problems = []
        raw = row
        bad = [
            column.replace("_", " ") for column, cell in zip(LIST_COLUMNS, row, strict=False) if control_character_problem(cell)
        ]
        if bad:
            problems.append(f"the {' and '.join(bad)} {CONTROL_CHARACTER}")
        if len(row) > len(LIST_COLUMNS):
            problems.append(f"{len(row)} columns, at most {len(LIST_COLUMNS)} expected")
        row = row + [""] * (len(LIST_COLUMNS) - len(row))
        v = dict(zip(LIST_COLUMNS, row, strict=False))
        name = " ".join(v["name"].split())
        if not name:
            problems.append("no name")
        elif len(name) > 33:
            problems.append("name longer than 33 characters")
        provisional = False
        rating = 0
        if not v["rating"]:
            rating, provisional = 1000, True
        elif not (v["rating"].isascii() and v["rating"].isdigit()) or not 1 <= int(v["rating"]) <= 3500:
            problems.append(f"rating {v['rating']!r} is not a number between 1 and 3500")
        else:
            rating = int(v["rating"])
        title = v["title"].upper()
        if title not in TITLE_ORDER:
            problems.append(f"unknown title {v['title']!r} (GM, IM, WGM, FM, WIM, CM, WFM, WCM or empty)")
        fed = v["federation"].upper()
        if fed and not FED_RE.match(fed):
            problems.append(f"federation {v['federation']!r} is not a three-letter code")
        fide_id = v["fide_id"]
        if fide_id:
            if not FIDE_ID_RE.match(fide_id):
                problems.append(f"FIDE id {fide_id!r} is not a number")
            elif fide_id in existing_ids:
                problems.append(f"FIDE id {fide_id} is already registered")
            elif fide_id in seen_ids:
                problems.append(f"FIDE id {fide_id} also on line {seen_ids[fide_id]}")
            else:
                seen_ids[fide_id] = line_no
        birth = None
        if v["birth_date"]:
            try:
                birth = datetime.date.fromisoformat(v["birth_date"])
            except ValueError:
                problems.append(f"birth date {v['birth_date']!r} is not YYYY-MM-DD")
            else:
                if _birth_date_problem(birth):
                    problems.append(_birth_date_problem(birth))
        sex = v["sex"].lower()
        if sex not in ("", "m", "f"):
            problems.append(f"sex {v['sex']!r} must be m, f or empty")
        if len(v["club"]) > 80:
            problems.append("club longer than 80 characters")
        if problems and _unquoted_comma_name(raw, delimiter):
            problems = [
                f"the name looks like {row[0]!r} and {row[1]!r} split at a comma; quote names that contain "
                f'a comma ("{row[0]}, {row[1]}") or separate the columns with semicolons or tabs'
            ]
        if problems:
            errors.append(f"Line {line_no}: " + "; ".join(problems) + ".")
            continue
        players.append(
            ParsedPlayer(
                line_no,
                dict(
                    name=name,
                    rating=rating,
                    rating_provisional=provisional,
                    title=title,
                    federation=fed,
                    fide_id=fide_id,
                    birth_date=birth,
                    sex=sex,
                    club=v["club"],
                ),
            )
        )
    if not players and not errors:
        errors.append("The list is empty.")
    return players, errors


# Issue 21, rough edge 1: a name twice in the list, or already registered, is asked about
# before anything is added (the box appears with the question).
SAME_NAMES = "same_names"


def namesakes(players: list[ParsedPlayer], tournament: Tournament) -> list[str]:
    """One sentence per line whose name is on an earlier line or already registered."""
    registered: dict[str, list[Player]] = {}
    for p in Player.objects.filter(tournament=tournament).order_by("tpn"):
        registered.setdefault(p.name.casefold(), []).append(p)
    first_line: dict[str, int] = {}
    out = []
    for parsed in players:
        name = parsed.values["name"]
        key = name.casefold()
        if key in registered:
            numbers = ", ".join(str(p.tpn) for p in registered[key])
            out.append(f"Line {parsed.line}: {name} is already registered (number {numbers}).")
        elif key in first_line:
            out.append(f"Line {parsed.line}: {name} is also on line {first_line[key]}.")
        first_line.setdefault(key, parsed.line)
    return out


def _unquoted_comma_name(row: list[str], delimiter: str) -> bool:
    """``Zupan, Ana, 2105`` without quotes: the given name lands in the rating column and
    the rating one column further right."""
    if delimiter != "," or len(row) < 3:
        return False
    given, rating = row[1], row[2]
    looks_like_a_name = any(c.isalpha() for c in given) and all(c.isalpha() or c in " .-'" for c in given)
    return looks_like_a_name and (rating == "" or rating.isdigit())


def _uploaded_text(upload, latin1_fallback: bool) -> str:
    """The text of an uploaded file ('' without one): at most MAX_FILE_BYTES, UTF-8 (a
    byte-order mark is dropped) or, where allowed, Latin-1; no NUL character."""
    if upload is None:
        return ""
    if upload.size > MAX_FILE_BYTES:
        raise forms.ValidationError(f"The file is larger than {MAX_FILE_BYTES // 1024 // 1024} MB.")
    raw = upload.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if not latin1_fallback:
            raise forms.ValidationError("The file is not UTF-8 text.") from exc
        text = raw.decode("latin-1")
    _refuse_nul(text)
    return text


class PlayerListForm(forms.Form):
    text = forms.CharField(
        label="Players, one a line",
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "Carlsen, Magnus; 2830; GM; NOR; 1503014"}),
    )
    file = forms.FileField(label="…or a CSV file", required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        self.asks_about_names = False
        super().__init__(*args, **kwargs)
        if self.data.get(SAME_NAMES):
            self.fields[SAME_NAMES] = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        text = _uploaded_text(data.get("file"), latin1_fallback=False) or data.get("text") or ""
        if not text.strip():
            raise forms.ValidationError("Paste a list or choose a file.")
        players, errors = parse_player_list(text, self.tournament)
        if errors:
            raise forms.ValidationError(errors)
        if not data.get(SAME_NAMES):
            questions = namesakes(players, self.tournament)
            if questions:
                self.asks_about_names = True
                self.fields[SAME_NAMES] = forms.BooleanField(
                    required=False, label="These are different players with the same names: add them all"
                )
                if data.get("file"):
                    # the browser cannot send the file again by itself: its text comes
                    # back in the text box, to be sent with the box ticked
                    self.data = self.data.copy()
                    self.data["text"] = text
                raise forms.ValidationError(questions)
        data["players"] = players
        return data


class TrfImportForm(forms.Form):
    text = forms.CharField(label="TRF-16 text", required=False, widget=forms.Textarea(attrs={"rows": 10}))
    file = forms.FileField(label="…or a .trf file", required=False)

    def clean(self):
        data = super().clean()
        text = _uploaded_text(data.get("file"), latin1_fallback=True) or data.get("text") or ""
        if not text.strip():
            raise forms.ValidationError("Paste the TRF text or choose a file.")
        data["trf"] = text
        return data
