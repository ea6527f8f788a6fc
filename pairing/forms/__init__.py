"""Forms: every rule a model constraint enforces is also checked here first, so the
arbiter gets a sentence instead of a database error.  One module per page family:
:mod:`.tournament`, :mod:`.players`, :mod:`.player_list`, :mod:`.rounds`; shared checks
in :mod:`.fields`.  Forms validate and build rows; the services save them."""

from .entries import HONEYPOT, EntryActionForm, EntryForm
from .events import EventForm
from .fields import MAX_FILE_BYTES
from .player_list import LIST_COLUMNS, ParsedPlayer, PlayerListForm, TrfImportForm, parse_player_list
from .players import ForbiddenPairForm, PlayerForm, WithdrawForm
from .prizes import PrizeForm
from .ratings import RatingListUploadForm
from .rounds import OnePlayerForm, PoolPairForm, SwapForm
from .tournament import DeputyForm, TournamentForm

__all__ = [
    "LIST_COLUMNS",
    "MAX_FILE_BYTES",
    "DeputyForm",
    "EventForm",
    "PrizeForm",
    "EntryForm",
    "EntryActionForm",
    "HONEYPOT",
    "ForbiddenPairForm",
    "ParsedPlayer",
    "PlayerForm",
    "PlayerListForm",
    "OnePlayerForm",
    "PoolPairForm",
    "RatingListUploadForm",
    "SwapForm",
    "TournamentForm",
    "TrfImportForm",
    "WithdrawForm",
    "parse_player_list",
]
