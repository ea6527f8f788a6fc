"""Tournament data: fields, constraints, querysets and the invariants of one row.

Changes that touch several rows (pairing, results, players, byes, settings) are in
:mod:`pairing.services`; models never import services.  One module per kind of row;
everything is importable from ``pairing.models``.
"""

from .audit import AUDIT_LIST_SHOWN, AuditAction, AuditEntry, AuditEntryQuerySet
from .choices import (
    BYE_WORDS,
    COMMON_RESULTS,
    REQUESTED_BYES,
    RESULT_KEYS,
    SEEN_CHANGED,
    SIDES,
    SYSTEM_LABELS,
    TITLE_ORDER,
    AccelerationMethod,
    BergerNumbers,
    ByeKind,
    ColourChoice,
    ColourMethod,
    Conflict,
    DubovRulesText,
    FinalTies,
    GameResult,
    PairedBy,
    PairingSystem,
    RateOfPlay,
    RatingMethod,
    RoundStatus,
    Sex,
    TiebreakRules,
    TieOrder,
    Title,
    UnratedTiebreaks,
    audit_value,
    stale_form,
    tournament_rating,
    version_token,
)
from .confirmation import SpentConfirmation
from .entry import (
    LIVE_ENTRIES,
    ROUNDING_CHOICES,
    Category,
    CategoryKind,
    CheckIn,
    Entry,
    EntryState,
    OnePrize,
    Prize,
    PrizeSettings,
    Sharing,
)
from .event import Event, EventQuerySet, bump_event_revision
from .integrity import IntegrityEvent, IntegrityKind
from .jobs import OPEN as OPEN_JOBS
from .jobs import STEPS as JOB_STEPS
from .jobs import Job, JobKind, JobQuerySet, JobStatus, WorkerBeat
from .player import Player, PlayerQuerySet, RoundRating, name_key, namesakes
from .ratings import (
    DEFAULT_ORDER,
    FIDE_KEYS,
    FIDE_LABELS,
    ListKind,
    RatingEntry,
    RatingList,
    RatingListQuerySet,
    RatingSource,
    list_order_problems,
)
from .rounds import (
    Bye,
    ByeQuerySet,
    ForbiddenPair,
    ForbiddenPairQuerySet,
    Game,
    GameQuerySet,
    Round,
    ScheduledRound,
    Seat,
)
from .team import DeputyInvitation
from .tournament import Tournament, TournamentQuerySet, bump_revision

__all__ = [
    "BergerNumbers", "DubovRulesText", "PairedBy", "PairingSystem", "FinalTies", "TiebreakRules", "UnratedTiebreaks",
    "RoundRating",
    "RateOfPlay", "RatingMethod", "tournament_rating",
    "DEFAULT_ORDER", "FIDE_KEYS", "FIDE_LABELS", "list_order_problems", "ListKind", "RatingEntry", "RatingList", "RatingListQuerySet", "RatingSource",
    "AccelerationMethod",
    "BYE_WORDS",
    "COMMON_RESULTS",
    "stale_form",
    "DeputyInvitation",
    "IntegrityEvent", "IntegrityKind",
    "JOB_STEPS", "OPEN_JOBS", "Job", "JobKind", "JobQuerySet", "JobStatus", "WorkerBeat",
    "AUDIT_LIST_SHOWN", "REQUESTED_BYES", "RESULT_KEYS", "SEEN_CHANGED", "SIDES", "SYSTEM_LABELS", "TITLE_ORDER",
    "AuditAction", "AuditEntry", "AuditEntryQuerySet", "Bye", "ByeKind", "ByeQuerySet", "ColourChoice",
    "ColourMethod", "Conflict", "ForbiddenPair", "ForbiddenPairQuerySet", "Game", "GameQuerySet", "GameResult",
    "Player", "PlayerQuerySet", "Round", "RoundStatus", "ScheduledRound", "Seat", "Sex", "TieOrder", "Title", "Tournament",
    "TournamentQuerySet", "Event", "EventQuerySet", "bump_event_revision",
    "LIVE_ENTRIES", "ROUNDING_CHOICES", "Category", "CategoryKind", "CheckIn", "Entry", "EntryState", "OnePrize", "Prize",
    "PrizeSettings", "Sharing", "audit_value", "version_token", "bump_revision", "SpentConfirmation", "name_key", "namesakes",
]
