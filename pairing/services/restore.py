"""Restore points: the tournament's pairing data as it was, and going back to it.

A restore point holds the settings the pairings depend on and every row of the
tournament's players, rounds, games, seats, byes and forbidden pairs (their column
values, kept as JSON on the :class:`~pairing.models.IntegrityEvent`).  Restoring writes
those rows back with their own keys, in bulk, so links to players and rounds stay valid.
The audit trail, the integrity events, the arbiter team and FIDE mode are not part of
it: an undo is itself logged, and FIDE mode, once left, stays left.
"""

from __future__ import annotations

import datetime

from ..models import Bye, ForbiddenPair, Game, Player, Round, Seat, Tournament

SETTINGS = [
    "rounds", "point_win", "point_draw", "point_loss", "point_pab", "point_half_bye",
    "initial_colour", "initial_colour_method", "tiebreaks", "ranking_frozen",
]

# in the order they can be written back (each row's foreign keys exist by then)
_MODELS = [
    ("player", Player, "tournament"),
    ("round", Round, "tournament"),
    ("game", Game, "round__tournament"),
    ("seat", Seat, "round__tournament"),
    ("bye", Bye, "tournament"),
    ("forbiddenpair", ForbiddenPair, "tournament"),
]


def take(t: Tournament) -> dict:
    """The restore point of ``t`` now (call it under the tournament lock).  One query per
    table; a few MB for a 5,000-player open."""
    current = Tournament.objects.get(pk=t.pk)
    rows = {
        name: [{k: _exact(v) for k, v in row.items()} for row in model.objects.filter(**{path: t}).order_by("pk").values()]
        for name, model, path in _MODELS
    }
    return {"settings": {f: getattr(current, f) for f in SETTINGS}, "tables": rows}


def _exact(value):
    """Times to the microsecond (the JSON field's encoder keeps milliseconds only)."""
    return value.isoformat() if isinstance(value, datetime.datetime) else value


def restore(t: Tournament, point: dict) -> None:
    """Put ``t`` back as it was at ``point`` (call it in a transaction, under the lock)."""
    Round.objects.filter(tournament=t).delete()  # games and seats go with their rounds
    Bye.objects.filter(tournament=t).delete()
    ForbiddenPair.objects.filter(tournament=t).delete()
    Player.objects.filter(tournament=t).delete()
    for name, model, _ in _MODELS:
        fields = {f.attname: f for f in model._meta.concrete_fields}
        objs = []
        for row in point["tables"][name]:
            # JSON gave dates, decimals and times back as text: each field reads its own
            objs.append(model(**{k: fields[k].to_python(v) for k, v in row.items() if k in fields}))
        model.objects.bulk_create(objs, batch_size=1000)
    Tournament.objects.filter(pk=t.pk).update(**point["settings"])
