"""The public entry form of an event."""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from .fields import FIDE_ID_RE, refuse_control_characters

# the field people leave empty and form-filling robots do not (hidden by the page's CSS)
HONEYPOT = "leave_empty"
# joiners some scripts write names with (Persian, Indic); every other invisible format
# character (Unicode Cf: direction overrides, zero-width spaces, soft hyphens) is refused
# in a name a stranger types, which the arbiters and, once approved, visitors read
NAME_JOINERS = {"\u200c", "\u200d"}


def invisible_characters(text: str) -> bool:
    return any(unicodedata.category(c) == "Cf" and c not in NAME_JOINERS for c in text)


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=33, help_text=_("Family name, given name"))
    fide_id = forms.CharField(
        label=_("FIDE id"), max_length=11, required=False,
        help_text=_("Your rating, title and federation are taken from the rating list by this number. "
                    "Empty if you have none."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    section = forms.ChoiceField(label=_("Section"))
    email = forms.EmailField(label=_("E-mail"), max_length=120,
                             help_text=_("Only for the answer about your entry; never shown."))
    started = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, sections, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["section"].choices = [(t.slug, t.name) for t in sections]
        self.fields[HONEYPOT] = forms.CharField(
            label=_("Leave this field empty"), required=False, max_length=200,
            widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
        )
        refuse_control_characters(self)

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Enter your name."))
        if invisible_characters(name):
            raise forms.ValidationError(_("The name contains an invisible formatting character (a change of writing "
                                          "direction, a zero-width space...): type it again."))
        return name

    def clean_fide_id(self) -> str:
        value = self.cleaned_data.get("fide_id", "").strip()
        if value and not (value.isascii() and FIDE_ID_RE.match(value)):
            raise forms.ValidationError(_("A FIDE id is a number of up to 11 digits."))
        return value

    def clean(self):
        data = super().clean()
        if self.cleaned_data.get(HONEYPOT):
            raise forms.ValidationError(_("Leave the last field empty, then send the form again."))
        return data


class EntryActionForm(forms.Form):
    """The arbiters' bulk action on entries: which, what, and where to (a move)."""

    action = forms.ChoiceField(choices=[("approve", "approve"), ("refuse", "refuse"), ("move", "move")])
    entry = forms.TypedMultipleChoiceField(coerce=int, choices=())
    section = forms.CharField(required=False, max_length=60)
    note = forms.CharField(required=False, max_length=200)

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [(e.pk, e.pk) for e in entries]
        self.fields["entry"].error_messages["required"] = _("Tick at least one entry.")
        self.fields["entry"].error_messages["invalid_choice"] = _("An entry ticked is no longer there: reload the page.")
