"""The audit trail: who changed what, when, before and after."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from .choices import BYE_WORDS, ColourChoice, ColourMethod, GameResult
from .tournament import Tournament, bump_revision

# Stored codes written as the app's pages write them (issue 21, rough edge 8: the trail
# showed "initial colour b" and "1/2-1/2").
_CODES = {
    "initial_colour": dict(ColourChoice.choices),
    "initial_colour_method": dict(ColourMethod.choices),
    "result": {k: v for k, v in GameResult.choices if k},
}


class AuditAction(models.TextChoices):
    """The kinds of change the audit trail records (its filter on the audit page)."""

    CREATE = "create", _("Tournament created")
    SETTINGS = "settings", _("Settings")
    DEPUTY = "deputy", _("Deputy arbiters")
    PLAYER = "player", _("Players")
    IMPORT = "import", _("Imports")
    WITHDRAW = "withdraw", _("Withdrawals")
    BYE = "bye", _("Byes and absences")
    FORBIDDEN = "forbidden", _("Forbidden pairs")
    PAIR = "pair", _("Pairing")
    SWAP = "swap", _("Manual changes to a draft")
    DISCARD = "discard", _("Drafts discarded")
    PUBLISH = "publish", _("Rounds published")
    RESULT = "result", _("Results")
    INTEGRITY = "integrity", _("Pairing-integrity events")
    SECTION = "section", _("Events and sections")
    ENTRY = "entry", _("Online entries")
    CHECKIN = "checkin", _("Check-in")
    PRIZES = "prizes", _("Prizes")


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    def of_kind(self, action: str) -> AuditEntryQuerySet:
        return self.filter(action=action) if action in AuditAction.values else self


class AuditEntry(models.Model):
    """One change to a tournament: who, when, what (``action`` and the object), the
    values before and after, and a readable sentence.

    Written by the service that makes the change, inside its transaction, so a
    change without its entry (or an entry without its change) cannot be committed.
    Writing one moves the tournament's :attr:`~pairing.models.Tournament.revision` on
    (:func:`~pairing.models.tournament.bump_revision`), in the same transaction.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    username = models.CharField(max_length=150, blank=True, help_text=_("Kept if the account is deleted."))
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20, choices=AuditAction.choices)
    object_type = models.CharField(max_length=20, blank=True, help_text=_("tournament, player, round, game, ..."))
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    label = models.CharField(max_length=200, blank=True, help_text=_("The object as the arbiter knows it."))
    before = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    detail = models.TextField(blank=True)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["tournament", "-at"], name="audit_tournament_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.detail}"

    @classmethod
    def log(
        cls,
        tournament: Tournament,
        user,
        action: str,
        detail: str,
        *,
        obj: models.Model | None = None,
        object_type: str = "",
        object_id: int | None = None,
        label: str = "",
        before=None,
        after=None,
        username: str = "",
    ) -> AuditEntry:
        """``username``: who acted when it is no account (an online entrant, a player
        checking in by the QR code)."""
        known = user is not None and user.is_authenticated
        bump_revision(tournament.pk)
        return cls.objects.create(
            tournament=tournament,
            user=user if known else None,
            username=user.get_username() if known else username[:150],
            action=action,
            object_type=object_type or (obj._meta.model_name if obj is not None else ""),
            object_id=object_id if object_id is not None else (obj.pk if obj is not None else None),
            label=(label or (str(obj) if obj is not None else ""))[:200],
            before=before,
            after=after,
            detail=detail,
        )

    @property
    def who(self) -> str:
        return self.username or (self.user.get_username() if self.user_id else "") or "system"

    def changes(self) -> list[tuple[str, str, str]]:
        """``(field, before, after)`` as text, for the audit page."""
        b = self.before if isinstance(self.before, dict) else {}
        a = self.after if isinstance(self.after, dict) else {}

        def text(key: str, value) -> str:
            if self.action == AuditAction.BYE and isinstance(value, str):
                return BYE_WORDS.get(value, value)
            codes = _CODES.get(key)
            if codes and isinstance(value, str) and value in codes:
                return codes[value]
            return _audit_text(value)

        return [(k.replace("_", " "), text(k, b.get(k)), text(k, a.get(k))) for k in dict.fromkeys([*b, *a])]


AUDIT_LIST_SHOWN = 30  # a 5,000-player import stays readable; the entry keeps them all


def _audit_text(value) -> str:
    """A stored before/after value as a line of text (boards as ``1: A – B``)."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        shown = value[:AUDIT_LIST_SHOWN]
        text = "; ".join(
            f"{v[0]}: {v[1]} – {v[2]}" if isinstance(v, list) and len(v) == 3 else _audit_text(v) for v in shown
        )
        more = len(value) - len(shown)
        return text + (f"; … and {more} more ({len(value)} in all)" if more else "")
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_audit_text(v)}" for k, v in value.items())
    return str(value)

