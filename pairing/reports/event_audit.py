"""An event's audit trail: the changes that concern the whole event, read from the audit
trails of its sections (where the services write them) — the event's settings and its
sections, online entries and every change of their state, check-in and its close, the
moves of players between sections, and the prize lists (changed, published, withdrawn).

An act that touches several sections is written in each section's trail (a move between
two sections, a change of the event's settings); the event's trail shows it once, with
the sections it is written in."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from ..models import AuditAction, AuditEntry, Event, Tournament

MOVE = "move"  # a player moved between sections (a Players entry that names the section)
KINDS = (AuditAction.SECTION, AuditAction.ENTRY, AuditAction.CHECKIN, MOVE, AuditAction.PRIZES)
_MOVES = Q(action=AuditAction.PLAYER, before__has_key="section")
SAME_ACT_SECONDS = 2  # one act written in several trails: its entries are this close


def kind_choices() -> list[tuple[str, str]]:
    labels = dict(AuditAction.choices)
    return [(k, labels[k] if k != MOVE else _("Players moved between sections")) for k in KINDS]


def visible_sections(event: Event, user) -> QuerySet[Tournament]:
    """The event's chief arbiter reads every section's changes; an arbiter of some of its
    sections those of his own sections."""
    sections = event.sections.all()
    if event.owner_id == user.pk:
        return sections
    return sections.filter(Q(owner=user) | Q(deputies=user)).distinct()


def entries(event: Event, user, kind: str = "") -> QuerySet[AuditEntry]:
    """The audit entries of the event's kinds (``kind``: one of them), newest first."""
    qs = AuditEntry.objects.filter(tournament__in=visible_sections(event, user)).select_related("tournament", "user")
    if kind == MOVE:
        return qs.filter(_MOVES)
    if kind in KINDS:
        return qs.filter(action=kind)
    return qs.filter(Q(action__in=[k for k in KINDS if k != MOVE]) | _MOVES)


@dataclass
class Line:
    """One act: its entry, and every section whose trail holds it."""

    entry: AuditEntry
    sections: list[Tournament] = field(default_factory=list)


def _same_act(a: AuditEntry, b: AuditEntry) -> bool:
    return ((a.action, a.object_type, a.object_id, a.detail, a.who) == (b.action, b.object_type, b.object_id, b.detail, b.who)
            and a.tournament_id != b.tournament_id and abs((a.at - b.at).total_seconds()) <= SAME_ACT_SECONDS)


def lines(rows) -> list[Line]:
    """``rows`` (newest first) with the copies of one act in several sections' trails
    shown once: neighbours with the same kind, object, sentence and author, written
    within SAME_ACT_SECONDS of each other in different sections."""
    out: list[Line] = []
    for a in rows:
        last = out[-1] if out else None
        if last is not None and _same_act(last.entry, a) and a.tournament not in last.sections:
            last.sections.append(a.tournament)
        else:
            out.append(Line(a, [a.tournament]))
    return out
