"""Pairing-integrity events (VCL4THP Q112–115): every act that departs from the engine's
pairing or from recorded history, with the ``###`` line it puts in the TRF-2026 report
and the restore point taken just before it."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class IntegrityKind(models.TextChoices):
    FIDE_MODE_EXIT = "fide-exit", _("FIDE mode exited")
    SETTINGS = "settings", _("Settings changed after round 1")
    MANUAL_PAIRING = "mpa", _("Round paired or changed by hand")
    RESULT = "result", _("Result corrected after the next round was paired")
    RATING_RESULT = "rating", _("Result corrected for the rating report only")
    FORBIDDEN = "forbidden", _("Forbidden pair changed after round 1")
    IMPORT = "import", _("Imported rounds that break the pairing rules")
    TPN = "tpn", _("Pairing numbers exchanged")
    FULL_BYE = "full-bye", _("Full-point bye")
    MISSED_ROUND = "missed", _("Points for a late entry's missed rounds, given after its first round was paired")
    UNDO = "undo", _("Undone: back to a restore point")


class IntegrityEvent(models.Model):
    """One pairing-integrity event.  ``line`` is the text after ``### `` in the report;
    ``restore_point`` the tournament as it was just before (see
    :mod:`pairing.services.restore`), null for an undo itself."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    kind = models.CharField(max_length=12, choices=IntegrityKind.choices)
    round_number = models.PositiveSmallIntegerField(help_text=_("The round the event concerns (0: before round 1)."))
    line = models.TextField(help_text=_("The ### line of the TRF-2026 report, without '### '."))
    detail = models.TextField(blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    username = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    restore_point = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    numbers = models.JSONField(
        null=True, blank=True,
        help_text=_("The players (ids) in pairing-number order when the event was recorded: the numbers its line "
                    "uses."),
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in IntegrityKind]), name="integrity_event_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"### {self.line}"

    @property
    def report_line(self) -> str:
        return f"### {self.line}"
