"""Loading a rating list from the lists page."""

from __future__ import annotations

import datetime

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import ListKind
from .fields import MAX_FILE_BYTES, refuse_control_characters


class RatingListUploadForm(forms.Form):
    kind = forms.ChoiceField(choices=ListKind.choices, initial=ListKind.FIDE, widget=forms.RadioSelect)
    name = forms.CharField(
        max_length=60, required=False,
        help_text=_("A national or custom list's name, e.g. 'SLO national' (FIDE's list is called FIDE)."),
    )
    month = forms.CharField(
        label=_("Valid from (month)"), required=False, widget=forms.TextInput(attrs={"type": "month"}),
        help_text=_("YYYY-MM; empty: this month."),
    )
    file = forms.FileField(
        help_text=_("FIDE: players_list_xml.zip or the TXT list (the whole FIDE list is larger than an upload "
        "may be: load it with manage.py import_rating_list --download). National and custom lists: CSV "
        "with id, name, rating (optional federation, title, birth year, FIDE id, sex)."),
    )

    def clean_month(self) -> datetime.date | None:
        text = self.cleaned_data.get("month", "").strip()
        if not text:
            return None
        try:
            return datetime.datetime.strptime(text, "%Y-%m").date()
        except ValueError:
            raise forms.ValidationError(_("A month as YYYY-MM, e.g. 2026-11.")) from None

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                gettext("The file is %(size)s MB; uploads take up to %(most)s MB "
                  "(load FIDE's whole list with manage.py import_rating_list).")
                % {"size": f"{upload.size / 1e6:.1f}", "most": f"{MAX_FILE_BYTES / 1e6:.0f}"}
            )
        return upload

    def clean(self):
        refuse_control_characters(self)
        data = super().clean()
        if data.get("kind") != ListKind.FIDE and not (data.get("name") or "").strip():
            self.add_error("name", "A national or custom list needs a name.")
        if data.get("kind") == ListKind.FIDE and (data.get("name") or "").strip() not in ("", "FIDE"):
            self.add_error("name", "FIDE's list is always called FIDE; leave the name empty.")
        return data
