"""Events as visitors and arbiters read them: the front page's lists (current, coming,
recent), the search by name, an event's sections with where they stand, and the one
player list of an event."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Max, Prefetch, Q, Sum
from django.utils import timezone

from ..models import Event, Player, RoundStatus, Tournament

RECENT_DAYS = 60
RECENT_SHOWN = 20
# the front page is computed again after every change of any public section (a result
# anywhere): its size, hence its time, is bounded; the events past these are found by
# the search (benchmarks/bench_front_page.py)
CURRENT_SHOWN = 50
COMING_SHOWN = 30
FOUND_SHOWN = 50


@dataclass
class SectionLine:
    section: Tournament
    players: int
    published: int  # rounds published
    in_play: bool  # the last published round still has results to come
    prizes_published: bool = False

    @property
    def finished(self) -> bool:
        return self.published >= self.section.rounds and not self.in_play


@dataclass
class EventLine:
    event: Event
    sections: list[SectionLine] = field(default_factory=list)

    @property
    def accepts_entries(self) -> bool:
        return self.event.entries_accepted()


def section_lines(sections) -> list[SectionLine]:
    """Each section with its number of players, rounds published and whether its prize
    list is published: one query each for the players, the rounds and the prize lists,
    for any number of sections."""
    sections = list(sections)
    ids = [t.pk for t in sections]
    players = dict(Player.objects.filter(tournament_id__in=ids).values("tournament_id")
                   .annotate(n=Count("pk")).values_list("tournament_id", "n"))
    from ..models import PrizeSettings, Round

    published: dict[int, tuple[int, str]] = {}
    rows = (Round.objects.filter(tournament_id__in=ids).exclude(status=RoundStatus.DRAFT)
            .order_by("tournament_id", "number").values_list("tournament_id", "number", "status"))
    for tid, number, status in rows:
        published[tid] = (number, status)
    prizes = set(PrizeSettings.objects.filter(section_id__in=ids, published_at__isnull=False)
                 .values_list("section_id", flat=True))
    out = []
    for t in sections:
        number, status = published.get(t.pk, (0, ""))
        out.append(SectionLine(t, players.get(t.pk, 0), number, status == RoundStatus.PUBLISHED, t.pk in prizes))
    return out


def event_line(event: Event, public_only: bool) -> EventLine:
    sections = event.sections.order_by("name")
    if public_only:
        sections = sections.filter(public=True)
    return EventLine(event, section_lines(sections))


def _lines(events, public_only: bool = True) -> list[EventLine]:
    events = list(events.prefetch_related(
        Prefetch("sections", queryset=Tournament.objects.filter(public=True).order_by("name") if public_only
                 else Tournament.objects.order_by("name"))
    ))
    lines = section_lines([t for e in events for t in e.sections.all()])
    by_event: dict[int, list[SectionLine]] = {}
    for line in lines:
        by_event.setdefault(line.section.event_id, []).append(line)
    return [EventLine(e, by_event.get(e.pk, [])) for e in events]


@dataclass
class FrontPage:
    current: list[EventLine]
    coming: list[EventLine]
    recent: list[EventLine]
    more_current: int = 0  # events on now not shown (past CURRENT_SHOWN)
    more_coming: int = 0


def front_page(today: datetime.date | None = None) -> FrontPage:
    """The public events: on now (started, not ended; an event without dates counts as on
    while it has a section; CURRENT_SHOWN at most), coming (starting later, the nearest
    COMING_SHOWN), and recent (ended within RECENT_DAYS, newest first, RECENT_SHOWN at
    most), with how many on now and coming are not shown."""
    today = today or timezone.localdate()
    public = Event.objects.public()
    current = public.filter(
        (Q(start_date__lte=today) | Q(start_date__isnull=True)) & (Q(end_date__gte=today) | Q(end_date__isnull=True))
    ).order_by("start_date", "name")
    coming = public.filter(start_date__gt=today).order_by("start_date", "name")
    recent = public.filter(end_date__lt=today, end_date__gte=today - datetime.timedelta(days=RECENT_DAYS)).order_by(
        "-end_date", "name")[:RECENT_SHOWN]
    more_current = max(0, current.count() - CURRENT_SHOWN)
    more_coming = max(0, coming.count() - COMING_SHOWN)
    return FrontPage(_lines(current[:CURRENT_SHOWN]), _lines(coming[:COMING_SHOWN]), _lines(recent),
                     more_current, more_coming)


def front_page_version(today: datetime.date | None = None) -> str:
    """The state the front page shows, in a few figures read in one query each: a change
    of any event or section (revisions only grow), the day, and the entry forms that
    have closed since (a closing time passes without a change)."""
    today = today or timezone.localdate()
    now = timezone.now()
    events = Event.objects.aggregate(n=Count("pk"), last=Max("pk"), rev=Sum("revision"),
                                     closed=Count("pk", filter=Q(entries_close__lte=now)))
    sections = Tournament.objects.aggregate(n=Count("pk"), rev=Sum("revision"))
    return "front:{}:{n}.{last}.{rev}.{closed}:{}.{}".format(today.isoformat(), sections["n"], sections["rev"] or 0,
                                                          **{k: v or 0 for k, v in events.items()})


def event_version(event: Event) -> str:
    """The state an event's public page shows: its own revision, its sections' (one
    query), and whether its entries have closed."""
    sections = event.sections.aggregate(n=Count("pk"), rev=Sum("revision"), last=Max("pk"))
    closed = int(not event.entries_accepted())
    created = int(event.created.timestamp() * 1_000_000) if event.created else 0
    return f"event:e{event.pk}.{created}.{event.revision}:{sections['n']}.{sections['last']}.{sections['rev'] or 0}.{closed}"


@dataclass
class Found:
    events: list[Event]
    players: list[Player]


def search(text: str) -> Found:
    """Public events whose name, place or organiser holds ``text``, and players of public
    sections whose name holds it (case aside)."""
    text = " ".join(text.split())[:60]
    if len(text) < 2:
        return Found([], [])
    events = list(Event.objects.public().filter(
        Q(name__icontains=text) | Q(place__icontains=text) | Q(organiser__icontains=text)).order_by("-start_date", "name")[:FOUND_SHOWN])
    players = list(Player.objects.filter(tournament__public=True, name__icontains=text)
                   .select_related("tournament", "tournament__event").order_by("name", "tournament__name")[:FOUND_SHOWN])
    return Found(events, players)


def event_players(event: Event) -> list[Player]:
    """Every player of the event's sections, by name, with ``tournament`` (the section)."""
    return list(Player.objects.filter(tournament__event=event).select_related("tournament")
                .order_by("name", "tournament__name", "pk"))
