"""Spent confirmations: each confirmation token acts once (see :mod:`pairing.views.confirm`)."""

from __future__ import annotations

from django.db import models


class SpentConfirmation(models.Model):
    """A confirmation token's nonce, written in the transaction of the act it confirmed.

    The unique key makes a second use of the same token (a double click, a replayed
    form) fail however close together the two requests come; rows older than a token's
    lifetime are of no use and are deleted as new ones are written.
    """

    nonce = models.CharField(max_length=32, unique=True)
    spent_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.nonce} ({self.spent_at:%Y-%m-%d %H:%M})"
