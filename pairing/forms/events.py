"""An event's settings, moving a player to another section."""

from __future__ import annotations

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import Event
from .fields import refuse_control_characters


class EventForm(forms.ModelForm):
    slug = forms.SlugField(
        label=_("Web address"), required=False, max_length=60,
        help_text=_("The event's page is at /e/<this>/; made from the name when left empty."),
        error_messages={"invalid": _("A web address takes lower-case letters, digits and hyphens only.")},
    )

    class Meta:
        model = Event
        fields = ["name", "slug", "place", "start_date", "end_date", "organiser", "entries_open", "entries_close",
                  "self_checkin"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "entries_close": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        refuse_control_characters(self)

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))[:60]
        if not slug:
            raise forms.ValidationError(_("Give the event a name or an address."))
        if Event.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(gettext("The address %(slug)r is taken; choose another.") % {"slug": slug})
        return slug

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", gettext("The event ends before it starts."))
        return data

    def save(self, commit: bool = True) -> Event:
        event = super().save(commit=False)
        if event.self_checkin and not event.checkin_secret:
            event.new_checkin_secret()
        if commit:
            event.save()
        return event
