"""Forms: every rule a model constraint enforces is also checked here first, so the
arbiter gets a sentence instead of a database error."""

from __future__ import annotations

import csv
import datetime
import re
from dataclasses import dataclass
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify

from .models import TITLE_ORDER, ColourMethod, ForbiddenPair, Player, Tournament
from .services.numbering import renumber

MAX_FILE_BYTES = 10 * 1024 * 1024
FED_RE = re.compile(r"^[A-Z]{3}$")
FIDE_ID_RE = re.compile(r"^[0-9]{1,11}$")


def _clean_federation(value: str) -> str:
    value = (value or "").strip().upper()
    if value and not FED_RE.match(value):
        raise forms.ValidationError("Use the three-letter FIDE code, e.g. GER or ENG.")
    return value


def _birth_date_problem(birth: datetime.date | None) -> str:
    """A birth date in the future or before 1900 is a typing error."""
    if birth is not None and not datetime.date(1900, 1, 1) <= birth <= datetime.date.today():
        return f"birth date {birth.isoformat()} is not between 1900 and today"
    return ""


def _clean_fide_id(value: str) -> str:
    value = (value or "").strip()
    if value and not FIDE_ID_RE.match(value):
        raise forms.ValidationError("A FIDE id is a number of up to 11 digits.")
    return value


class TournamentForm(forms.ModelForm):
    slug = forms.SlugField(
        required=False, max_length=60, help_text="Part of the address; made from the name when left empty."
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "place",
            "federation",
            "start_date",
            "end_date",
            "time_control",
            "rounds",
            "point_win",
            "point_draw",
            "point_loss",
            "point_pab",
            "point_half_bye",
            "initial_colour_method",
            "initial_colour",
            "tiebreaks",
            "public",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "initial_colour_method": forms.RadioSelect,
            "initial_colour": forms.RadioSelect,
        }
        labels = {
            "initial_colour_method": "Initial colour",
            "initial_colour": "Colour of pairing number 1 in round 1 (when chosen)",
            "point_win": "Win",
            "point_draw": "Draw",
            "point_loss": "Loss",
            "point_pab": "Pairing-allocated bye (PAB)",
            "point_half_bye": "Requested half-point bye",
        }
        help_texts = {
            "tiebreaks": "FIDE C.07 codes in order, e.g. BH-C1, BH, SB, DE.",
            "public": "Pairings and standings visible without logging in.",
        }

    POINT_FIELDS = ("point_win", "point_draw", "point_loss", "point_pab", "point_half_bye")

    confirm_points = forms.BooleanField(
        required=False,
        label="Change the points of the rounds already played",
        help_text="Every score so far is recomputed with the new points, although those rounds were paired on the old ones.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rounds_published = self.instance.rounds_published() if self.instance.pk else 0
        # one message for every number out of range (clean_rounds), not Django's "≥ 0"
        self.fields["rounds"].validators = []
        self.fields["rounds"].widget.attrs.update(min=1, max=99)
        if self.rounds_published:
            # Round 1 is paired: the initial colour is history now.
            self.fields["initial_colour_method"].disabled = True
            self.fields["initial_colour"].disabled = True
        else:
            del self.fields["confirm_points"]

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))[:60]
        if not slug:
            if self.cleaned_data.get("name"):
                raise forms.ValidationError(
                    "The name has no letters or digits an address can use; type an address (a-z, 0-9, hyphens)."
                )
            raise forms.ValidationError("Give the tournament a name or an address.")
        clash = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(f"The address {slug!r} is taken; choose another.")
        return slug

    def clean_federation(self) -> str:
        return _clean_federation(self.cleaned_data.get("federation", ""))

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if rounds is None or not 1 <= rounds <= 99:
            raise forms.ValidationError("A tournament has between 1 and 99 rounds.")
        if rounds < self.rounds_published:
            raise forms.ValidationError(f"{self.rounds_published} rounds are already paired.")
        return rounds

    def clean_tiebreaks(self) -> str:
        from .tiebreaks import parse_order

        text = self.cleaned_data.get("tiebreaks", "")
        try:
            order = parse_order(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        twice = sorted({tb.value for tb in order if order.count(tb) > 1})
        if twice:
            raise forms.ValidationError(f"{', '.join(twice)} is listed twice; each tie-break goes in the order once.")
        return ", ".join(tb.value for tb in order)

    def clean(self):
        data = super().clean()
        win, draw, loss = data.get("point_win"), data.get("point_draw"), data.get("point_loss")
        pab, half = data.get("point_pab"), data.get("point_half_bye")
        if None not in (win, draw, loss):
            if not win > draw >= loss >= 0:
                self.add_error("point_draw", "Points must satisfy win > draw ≥ loss ≥ 0.")
            for name, value in (("point_pab", pab), ("point_half_bye", half)):
                if value is not None and not Decimal(0) <= value <= win:
                    self.add_error(name, "Between 0 and the points for a win.")
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", "The tournament cannot end before it starts.")
        changed = [f for f in self.POINT_FIELDS if f in self.changed_data]
        if self.rounds_published and changed and not data.get("confirm_points"):
            self.add_error(
                "confirm_points",
                f"{self.rounds_published} round(s) were paired on the old points. Tick this box to recompute every "
                "score with the new ones, or leave the points as they were.",
            )
        return data

    def save(self, commit: bool = True) -> Tournament:
        t = super().save(commit=False)
        if not self.rounds_published and t.initial_colour_method == ColourMethod.LOT:
            if "initial_colour_method" in self.changed_data or not t.pk:
                t.draw_initial_colour()
        if commit:
            t.save()
        return t


class DeputyForm(forms.Form):
    username = forms.CharField(max_length=150)

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        try:
            return get_user_model().objects.get(username=name)
        except get_user_model().DoesNotExist as exc:
            raise forms.ValidationError(f"No user called {name!r}.") from exc


class PlayerForm(forms.ModelForm):
    # A text box (numeric keyboard on phones), not <input type=number>: a browser sends
    # an empty value for "abc" typed in a number box, and the arbiter was told the
    # rating is required instead of what is wrong with it.
    rating = forms.IntegerField(
        min_value=1,
        max_value=3500,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "min_value": "A rating between 1 and 3500.",
            "max_value": "A rating between 1 and 3500.",
            "invalid": "A rating is a whole number between 1 and 3500.",
            "required": "A rating is required; an unrated player needs a provisional one (tick Unrated).",
        },
    )

    class Meta:
        model = Player
        fields = [
            "title",
            "name",
            "rating",
            "rating_provisional",
            "federation",
            "fide_id",
            "birth_date",
            "sex",
            "club",
        ]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"})}
        labels = {"rating_provisional": "Unrated (provisional rating)"}

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)
        self.fields["rating"].help_text = "Unrated players need a provisional rating (Dubov 1.1)."
        self.fields["name"].widget.attrs["autofocus"] = True

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Enter the player's name.")
        return name

    def clean_federation(self) -> str:
        return _clean_federation(self.cleaned_data.get("federation", ""))

    def clean_birth_date(self) -> datetime.date | None:
        birth = self.cleaned_data.get("birth_date")
        problem = _birth_date_problem(birth)
        if problem:
            raise forms.ValidationError(problem[0].upper() + problem[1:] + ".")
        return birth

    def clean_fide_id(self) -> str:
        fide_id = _clean_fide_id(self.cleaned_data.get("fide_id", ""))
        if fide_id:
            clash = Player.objects.filter(tournament=self.tournament, fide_id=fide_id).exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(f"FIDE id {fide_id} is already registered ({clash.first().name}).")
        return fide_id

    def save(self, commit: bool = True) -> Player:
        player = super().save(commit=False)
        player.tournament = self.tournament
        if commit:
            player.save()
            renumber(self.tournament)
            player.refresh_from_db()
        return player


# ---------------------------------------------------------------- lists


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


def _unquoted_comma_name(row: list[str], delimiter: str) -> bool:
    """``Zupan, Ana, 2105`` without quotes: the given name lands in the rating column and
    the rating one column further right."""
    if delimiter != "," or len(row) < 3:
        return False
    given, rating = row[1], row[2]
    looks_like_a_name = any(c.isalpha() for c in given) and all(c.isalpha() or c in " .-'" for c in given)
    return looks_like_a_name and (rating == "" or rating.isdigit())


def _refuse_nul(text: str) -> None:
    """An uploaded file with NUL characters is not a text file (and PostgreSQL stores no
    NUL in text); a pasted text is checked by the CharField's own validator."""
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise forms.ValidationError(f"Line {line}: the file contains a NUL character; it is not a text file.")


class PlayerListForm(forms.Form):
    text = forms.CharField(
        label="Players, one a line",
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "Carlsen, Magnus; 2830; GM; NOR; 1503014"}),
    )
    file = forms.FileField(label="…or a CSV file", required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        text = data.get("text") or ""
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_FILE_BYTES:
                raise forms.ValidationError(f"The file is larger than {MAX_FILE_BYTES // 1024 // 1024} MB.")
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError("The file is not UTF-8 text.") from exc
            _refuse_nul(text)
        if not text.strip():
            raise forms.ValidationError("Paste a list or choose a file.")
        players, errors = parse_player_list(text, self.tournament)
        if errors:
            raise forms.ValidationError(errors)
        data["players"] = players
        return data


class TrfImportForm(forms.Form):
    text = forms.CharField(label="TRF-16 text", required=False, widget=forms.Textarea(attrs={"rows": 10}))
    file = forms.FileField(label="…or a .trf file", required=False)

    def clean(self):
        data = super().clean()
        text = data.get("text") or ""
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_FILE_BYTES:
                raise forms.ValidationError(f"The file is larger than {MAX_FILE_BYTES // 1024 // 1024} MB.")
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            _refuse_nul(text)
        if not text.strip():
            raise forms.ValidationError("Paste the TRF text or choose a file.")
        data["trf"] = text
        return data


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(
        required=False, min_value=1, max_value=99,
        help_text="Not paired from this round on; empty: back in the tournament.",
    )


class PlainSelect(forms.Select):
    """A flat <select> rendered in one pass: Django's widget renders a template per
    option (about 0.1 ms each), which made a 5,000-player draft page a second slower."""

    def render(self, name, value, attrs=None, renderer=None):
        chosen = {str(v) for v in self.format_value(value)}
        options = format_html_join(
            "", "<option value=\"{}\"{}>{}</option>",
            ((v, " selected" if str(v) in chosen else "", label) for v, label in self.choices),
        )
        return format_html("<select{}>{}</select>", flatatt(self.build_attrs(self.attrs, {**(attrs or {}), "name": name})), options)


class SwapForm(forms.Form):
    a = forms.TypedChoiceField(coerce=int, label="Player", widget=PlainSelect)
    b = forms.TypedChoiceField(coerce=int, label="swaps places with", widget=PlainSelect)

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(p.pk, f"{p.tpn}. {p.name}") for p in players]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            raise forms.ValidationError("Choose two different players.")
        return data


class ForbiddenPairForm(forms.Form):
    """Two players of the tournament who must not be paired with each other."""

    CHOICE_ERRORS = {"required": "Choose two players.", "invalid_choice": "Choose a player of this tournament."}
    a = forms.TypedChoiceField(coerce=int, label="Player", error_messages=CHOICE_ERRORS)
    b = forms.TypedChoiceField(coerce=int, label="must not be paired with", error_messages=CHOICE_ERRORS)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.players = {p.pk: p for p in tournament.player_set.by_tpn()}
        choices = [("", "—")] + [(p.pk, f"{p.tpn}. {p.name}") for p in self.players.values()]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices

    def clean(self):
        data = super().clean()
        a, b = data.get("a"), data.get("b")
        if a is None or b is None:
            return data
        if a == b:
            raise forms.ValidationError("Choose two different players.")
        pa, pb = self.players[a], self.players[b]
        low, high = sorted((a, b))
        if ForbiddenPair.objects.filter(player_a_id=low, player_b_id=high).exists():
            raise forms.ValidationError(f"{pa.name} and {pb.name} are already a forbidden pair.")
        data["player_a"], data["player_b"] = pa, pb
        return data
