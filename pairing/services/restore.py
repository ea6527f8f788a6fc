"""Restore points: the tournament's pairing data as it was, and going back to it.

A restore point holds the settings the pairings depend on and every row of the
tournament's players, rounds, games, seats, byes and forbidden pairs (Django's
serialised form, kept as JSON on the :class:`~pairing.models.IntegrityEvent`).
Restoring writes those rows back with their own keys, so links to players and rounds
stay valid.  The audit trail, the integrity events, the arbiter team and FIDE mode are
not part of it: an undo is itself logged, and FIDE mode, once left, stays left.
"""

from __future__ import annotations

from django.core import serializers

from ..models import Bye, ForbiddenPair, Game, Player, Round, Seat, Tournament

SETTINGS = [
    "rounds", "point_win", "point_draw", "point_loss", "point_pab", "point_half_bye",
    "initial_colour", "initial_colour_method", "tiebreaks", "ranking_frozen",
]

_MODELS = [
    (Player, "tournament"),
    (Round, "tournament"),
    (Game, "round__tournament"),
    (Seat, "round__tournament"),
    (Bye, "tournament"),
    (ForbiddenPair, "tournament"),
]


def take(t: Tournament) -> dict:
    """The restore point of ``t`` now (call it under the tournament lock)."""
    current = Tournament.objects.get(pk=t.pk)
    rows = []
    for model, path in _MODELS:
        rows.extend(serializers.serialize("python", model.objects.filter(**{path: t}).order_by("pk")))
    return {"settings": {f: getattr(current, f) for f in SETTINGS}, "rows": rows}


def restore(t: Tournament, point: dict) -> None:
    """Put ``t`` back as it was at ``point`` (call it in a transaction, under the lock)."""
    Round.objects.filter(tournament=t).delete()  # games and seats go with their rounds
    Bye.objects.filter(tournament=t).delete()
    ForbiddenPair.objects.filter(tournament=t).delete()
    Player.objects.filter(tournament=t).delete()
    for obj in serializers.deserialize("python", point["rows"]):
        obj.save()
    Tournament.objects.filter(pk=t.pk).update(**point["settings"])
