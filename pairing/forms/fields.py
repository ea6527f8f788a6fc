"""Checks shared by the single-player form and the list import: federation, FIDE id,
birth date, the upload limits; and a flat ``<select>`` for long player lists."""

from __future__ import annotations

import datetime
import re

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

MAX_FILE_BYTES = 10 * 1024 * 1024
FED_RE = re.compile(r"^[A-Z]{3}$")
FIDE_ID_RE = re.compile(r"^[0-9]{1,11}$")


CONTROL_CHARACTER = _("contains a line break or another control character")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def control_character_problem(value: str) -> str:
    """'' or why ``value`` cannot go in a single-line field: a line break written into a
    fixed-column file (the TRF export) starts a forged record (audit finding 4)."""
    if _CONTROL.search(value or ""):
        return str(CONTROL_CHARACTER)
    return ""


def refuse_control_characters(form: forms.BaseForm) -> None:
    """Every single-line text field of ``form`` (not a text area) refuses control
    characters, with a message that names the field."""
    for field in form.fields.values():
        if isinstance(field, forms.CharField) and not isinstance(field.widget, forms.Textarea):
            label = str(field.label or gettext("This field"))

            def check(value, label=label):
                if control_character_problem(value):
                    raise forms.ValidationError(
                        gettext("%(field)s may not contain a line break or another control character.") % {"field": label}
                    )

            field.validators.append(check)


def _clean_federation(value: str) -> str:
    value = (value or "").strip().upper()
    if value and not FED_RE.match(value):
        raise forms.ValidationError(_("Use the three-letter FIDE code, e.g. GER or ENG."))
    return value


def _birth_date_problem(birth: datetime.date | None) -> str:
    """A birth date in the future or before 1900 is a typing error."""
    if birth is not None and not datetime.date(1900, 1, 1) <= birth <= datetime.date.today():
        return gettext("birth date %(date)s is not between 1900 and today") % {"date": birth.isoformat()}
    return ""


def _clean_fide_id(value: str) -> str:
    value = (value or "").strip()
    if value and not FIDE_ID_RE.match(value):
        raise forms.ValidationError(_("A FIDE id is a number of up to 11 digits."))
    return value


def _refuse_nul(text: str) -> None:
    """An uploaded file with NUL characters is not a text file (and PostgreSQL stores no
    NUL in text); a pasted text is checked by the CharField's own validator."""
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise forms.ValidationError(gettext("Line %(n)s: the file contains a NUL character; it is not a text file.") % {"n": line})


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
