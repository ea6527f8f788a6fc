"""Invitations to a tournament's arbiter team."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .tournament import Tournament


class DeputyInvitation(models.Model):
    """The chief arbiter asked the account called ``username`` to be a deputy.

    It names a username as typed, whether or not such an account exists, so that inviting
    tells the chief arbiter nothing about which accounts exist (audit finding 10).  The
    account of that name sees it on its dashboard; the invitation gives no rights until
    it is accepted, and then becomes a deputy place.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "username"], name="one_invitation_per_username"),
        ]

    def __str__(self) -> str:
        return f"{self.username} invited to {self.tournament}"
