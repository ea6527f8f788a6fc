"""Many players at once: a pasted or uploaded list (CSV with commas, semicolons or
tabs), and a TRF file to import."""

from __future__ import annotations

import csv
import datetime
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

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
COLUMN_NAMES = {
    "name": _("name"), "rating": _("rating"), "title": _("title"), "federation": _("federation"),
    "fide_id": _("FIDE id"), "birth_date": _("birth date"), "sex": _("sex"), "club": _("club"),
}


_DELIMITER_NAMES = {"\t": _("tabs"), ";": _("semicolons"), ",": _("commas")}


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
            what = gettext("a quote is not closed") if "end of data" in str(exc) else str(exc)
            rows.append(
                gettext('%(what)s (columns separated by %(separator)s; a name with the separator in it goes in double '
                  'quotes: "Name, Given")') % {"what": what, "separator": _DELIMITER_NAMES[delimiter]}
            )
    players: list[ParsedPlayer] = []
    errors: list[str] = []
    seen_ids: dict[str, int] = {}
    existing_ids = set(
        Player.objects.filter(tournament=tournament).exclude(fide_id="").values_list("fide_id", flat=True)
    )
    for line_no, row in enumerate(rows, start=1):
        if isinstance(row, str):
            errors.append(gettext("Line %(n)s: %(problem)s.") % {"n": line_no, "problem": row})
            continue
        row = [c.strip() for c in row]
        if not any(row):
            continue
        if line_no == 1 and row[0].lower() == "name":
            continue
        problems = []
        raw = row
        bad = [
            str(COLUMN_NAMES[column]) for column, cell in zip(LIST_COLUMNS, row, strict=False) if control_character_problem(cell)
        ]
        if bad:
            problems.append(gettext("the %(columns)s %(problem)s") % {"columns": gettext(" and ").join(bad), "problem": CONTROL_CHARACTER})
        if len(row) > len(LIST_COLUMNS):
            problems.append(gettext("%(n)s columns, at most %(most)s expected") % {"n": len(row), "most": len(LIST_COLUMNS)})
        row = row + [""] * (len(LIST_COLUMNS) - len(row))
        v = dict(zip(LIST_COLUMNS, row, strict=False))
        name = " ".join(v["name"].split())
        if not name:
            problems.append(gettext("no name"))
        elif len(name) > 33:
            problems.append(gettext("name longer than 33 characters"))
        provisional = False
        rating = 0
        if not v["rating"]:
            rating, provisional = 1000, True
        elif not (v["rating"].isascii() and v["rating"].isdigit()) or not 1 <= int(v["rating"]) <= 3500:
            problems.append(gettext("rating %(value)r is not a number between 1 and 3500") % {"value": v["rating"]})
        else:
            rating = int(v["rating"])
        title = v["title"].upper()
        if title not in TITLE_ORDER:
            problems.append(gettext("unknown title %(value)r (GM, IM, WGM, FM, WIM, CM, WFM, WCM or empty)") % {"value": v["title"]})
        fed = v["federation"].upper()
        if fed and not FED_RE.match(fed):
            problems.append(gettext("federation %(value)r is not a three-letter code") % {"value": v["federation"]})
        fide_id = v["fide_id"]
        if fide_id:
            if not FIDE_ID_RE.match(fide_id):
                problems.append(gettext("FIDE id %(value)r is not a number") % {"value": fide_id})
            elif fide_id in existing_ids:
                problems.append(gettext("FIDE id %(value)s is already registered") % {"value": fide_id})
            elif fide_id in seen_ids:
                problems.append(gettext("FIDE id %(value)s also on line %(n)s") % {"value": fide_id, "n": seen_ids[fide_id]})
            else:
                seen_ids[fide_id] = line_no
        birth = None
        if v["birth_date"]:
            try:
                birth = datetime.date.fromisoformat(v["birth_date"])
            except ValueError:
                problems.append(gettext("birth date %(value)r is not YYYY-MM-DD") % {"value": v["birth_date"]})
            else:
                if _birth_date_problem(birth):
                    problems.append(_birth_date_problem(birth))
        sex = v["sex"].lower()
        if sex not in ("", "m", "f"):
            problems.append(gettext("sex %(value)r must be m, f or empty") % {"value": v["sex"]})
        if len(v["club"]) > 80:
            problems.append(gettext("club longer than 80 characters"))
        if problems and _unquoted_comma_name(raw, delimiter):
            problems = [
                gettext('the name looks like %(a)r and %(b)r split at a comma; quote names that contain a comma '
                  '("%(a)s, %(b)s") or separate the columns with semicolons or tabs') % {"a": row[0], "b": row[1]}
            ]
        if problems:
            errors.append(gettext("Line %(n)s: %(problem)s.") % {"n": line_no, "problem": "; ".join(problems)})
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
        errors.append(gettext("The list is empty."))
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
            out.append(gettext("Line %(n)s: %(name)s is already registered (number %(numbers)s).") % {"n": parsed.line, "name": name, "numbers": numbers})
        elif key in first_line:
            out.append(gettext("Line %(n)s: %(name)s is also on line %(first)s.") % {"n": parsed.line, "name": name, "first": first_line[key]})
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
        raise forms.ValidationError(gettext("The file is larger than %(n)s MB.") % {"n": MAX_FILE_BYTES // 1024 // 1024})
    raw = upload.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if not latin1_fallback:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from exc
        text = raw.decode("latin-1")
    _refuse_nul(text)
    return text


class PlayerListForm(forms.Form):
    text = forms.CharField(
        label=_("Players, one a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "Carlsen, Magnus; 2830; GM; NOR; 1503014"}),
    )
    file = forms.FileField(label=_("…or a CSV file"), required=False)

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
            raise forms.ValidationError(_("Paste a list or choose a file."))
        players, errors = parse_player_list(text, self.tournament)
        if errors:
            raise forms.ValidationError(errors)
        if not data.get(SAME_NAMES):
            questions = namesakes(players, self.tournament)
            if questions:
                self.asks_about_names = True
                self.fields[SAME_NAMES] = forms.BooleanField(
                    required=False, label=_("These are different players with the same names: add them all")
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
    text = forms.CharField(label=_("TRF-16 text"), required=False, widget=forms.Textarea(attrs={"rows": 10}))
    file = forms.FileField(label=_("…or a .trf file"), required=False)

    def clean(self):
        data = super().clean()
        text = _uploaded_text(data.get("file"), latin1_fallback=True) or data.get("text") or ""
        if not text.strip():
            raise forms.ValidationError(_("Paste the TRF text or choose a file."))
        data["trf"] = text
        return data
