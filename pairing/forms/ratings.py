"""Loading a rating list from the lists page: a staff account loads the site's lists
(FIDE's among them, from a file or a download address); any arbiter loads national or
custom lists of their own, from a file."""

from __future__ import annotations

import datetime

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import ListKind
from .fields import MAX_FILE_BYTES, refuse_control_characters


class RatingListUploadForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=ListKind.choices, initial=ListKind.FIDE,
                             widget=forms.RadioSelect)
    name = forms.CharField(
        label=_("List name"), max_length=60, required=False,
        help_text=_("A national or custom list's name, e.g. 'SLO national' (FIDE's list is called FIDE)."),
    )
    month = forms.CharField(
        label=_("Valid from (month)"), required=False, widget=forms.TextInput(attrs={"type": "month"}),
        help_text=_("YYYY-MM; empty: this month."),
    )
    # what a CSV list holds is said beside the form (its column names in <code>)
    file = forms.FileField(
        label=_("File"), required=False,
        help_text=_("FIDE: players_list_xml.zip (the whole list, about 40 MB) or the TXT list. National and custom "
                    "lists: a CSV file."),
    )
    url = forms.URLField(
        label=_("Download address"), required=False, max_length=500, assume_scheme="https",
        help_text=_("A national or custom list's address, kept with the list: the daily refresh and Update all lists "
                    "now load it again whenever it changes. Without a file, the list is loaded from it now."),
    )

    def __init__(self, *args, staff: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.staff = staff
        if not staff:  # an arbiter's own lists: national or custom, from a file
            self.fields["kind"].choices = [c for c in ListKind.choices if c[0] != ListKind.FIDE]
            self.fields["kind"].initial = ListKind.NATIONAL
            self.fields["file"].help_text = _("A CSV file.")
            del self.fields["url"]
        self.max_bytes = settings.MAX_LIST_UPLOAD_BYTES if staff else MAX_FILE_BYTES

    def clean_month(self) -> datetime.date | None:
        text = self.cleaned_data.get("month", "").strip()
        if not text:
            return None
        try:
            return datetime.datetime.strptime(text, "%Y-%m").date()
        except ValueError:
            raise forms.ValidationError(_("A month as YYYY-MM, e.g. 2026-11.")) from None

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload is not None and upload.size > self.max_bytes:
            raise forms.ValidationError(
                gettext("The file is %(size)s MB; uploads take up to %(most)s MB.")
                % {"size": f"{upload.size / 1e6:.1f}", "most": f"{self.max_bytes / 1e6:.0f}"}
            )
        return upload

    def clean_url(self) -> str:
        url = (self.cleaned_data.get("url") or "").strip()
        if url and not url.lower().startswith(("http://", "https://")):
            raise forms.ValidationError(_("An http or https address."))
        return url

    def clean(self):
        refuse_control_characters(self)
        data = super().clean()
        kind = data.get("kind")
        name = (data.get("name") or "").strip()
        if kind != ListKind.FIDE and not name:
            self.add_error("name", gettext("A national or custom list needs a name."))
        if kind == ListKind.FIDE and name not in ("", "FIDE"):
            self.add_error("name", gettext("FIDE's list is always called FIDE; leave the name empty."))
        if kind != ListKind.FIDE and name.casefold() == "fide":
            self.add_error("name", gettext("FIDE is the name of FIDE's list; give this list another name."))
        if kind == ListKind.FIDE and data.get("url"):
            self.add_error("url", gettext("FIDE's address is a setting of the site (DJANGO_FIDE_RATING_LIST_URL)."))
        if not data.get("file") and not data.get("url") and "file" not in self.errors:
            self.add_error("file", gettext("Choose a file or give a download address.") if self.staff
                           else gettext("Choose a file."))
        data["name"] = "FIDE" if kind == ListKind.FIDE else name
        return data
