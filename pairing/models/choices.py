"""Choices, the result codes and the small helpers every model shares."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..engine.trf import rating_by_method


class Title(models.TextChoices):
    GM = "GM", "GM"
    IM = "IM", "IM"
    WGM = "WGM", "WGM"
    FM = "FM", "FM"
    WIM = "WIM", "WIM"
    CM = "CM", "CM"
    WFM = "WFM", "WFM"
    WCM = "WCM", "WCM"
    NONE = "", "—"


# C.04.2 general handling rules: the order of titles in the initial ranking list.
TITLE_ORDER = {t: i for i, t in enumerate(["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", ""])}


class ColourChoice(models.TextChoices):
    WHITE = "w", _("White")
    BLACK = "b", _("Black")


class ColourMethod(models.TextChoices):
    LOT = "lot", _("Drawn by lot")
    CHOSEN = "chosen", _("Chosen by the arbiter")


class PairingSystem(models.TextChoices):
    """Chosen when the tournament is created; fixed once round 1 is published (Q93).
    The Swiss systems are the engine's (``pairing.engine.System``, same values)."""

    DUTCH = "dutch", _("Swiss, FIDE Dutch system (C.04.3, 2026 text)")
    DUBOV = "dubov", _("Swiss, FIDE Dubov system (C.04.4.1)")
    BURSTEIN = "burstein", _("Swiss, FIDE Burstein system (C.04.4.2, 2026 text)")
    ROUND_ROBIN = "round-robin", _("Round robin, Berger tables (C.05 Annex 1)")


class DubovRulesText(models.IntegerChoices):
    """Which text of the Dubov system pairs (the engine's ``DubovRules``): the one applied
    from 1 July 2025, or the rules of 1997 for events whose regulations declare them
    (docs/dubov-1997.md).  Chosen with the system; fixed once round 1 is published."""

    TEXT_2025 = 2025, _("2025 (the text applied from 1 July 2025)")
    TEXT_1997 = 1997, _("1997 (the rules of 1997, as Vega pairs 'Dubov')")


# The system in a few words, where a page names it beside other facts ("9 rounds, FIDE Dubov
# system"); a system missing here is named by its full label.  Tournament.system_label.
SYSTEM_LABELS = {
    PairingSystem.DUTCH: _("FIDE Dutch system"),
    PairingSystem.DUBOV: _("FIDE Dubov system"),
    PairingSystem.BURSTEIN: _("FIDE Burstein system"),
    PairingSystem.ROUND_ROBIN: _("round robin"),
}


class BergerNumbers(models.TextChoices):
    """How a round robin's Berger numbers (its pairing numbers) are given before round 1."""

    RATING = "rating", _("By rating (the initial ranking rules)")
    LOT = "lot", _("Drawn by lot")
    HAND = "hand", _("Given by hand")


class AccelerationMethod(models.TextChoices):
    """Acceleration of the first rounds (C.04.5); chosen before round 1, locked after."""

    NONE = "none", _("None")
    BAKU = "baku", _("Baku acceleration (C.04.5.1)")


class RateOfPlay(models.TextChoices):
    STANDARD = "standard", _("Standard")
    RAPID = "rapid", _("Rapid")
    BLITZ = "blitz", _("Blitz")


class RatingMethod(models.TextChoices):
    """TRF-2026 tag 172: how the tournament rating (pairing numbers, rating tie-breaks)
    comes from the FIDE and the national rating."""

    FIDON = "FIDON", _("FIDON: FIDE rating if defined, otherwise national rating")
    FIDE = "FIDE", _("FIDE: FIDE rating only")
    NRO = "NRO", _("NRO: national rating only")
    NIDOF = "NIDOF", _("NIDOF: national rating if defined, otherwise FIDE rating")
    HBFN = "HBFN", _("HBFN: the higher of FIDE and national rating")
    LBFN = "LBFN", _("LBFN: the lower of FIDE and national rating")
    OTHER = "OTHER", _("OTHER: the rating the arbiter types")


def tournament_rating(method: str, fide: int | None, national: int | None) -> int | None:
    """The tournament rating by ``method`` (None: not defined by it, the arbiter's
    typed rating stands)."""
    if method == RatingMethod.OTHER:
        return None
    return rating_by_method(str(method), fide, national)


class TieOrder(models.TextChoices):
    """Pairing numbers of players equal on rating and title (C.04.2: announced by the
    tournament), after which the name decides."""

    NAME = "name", _("Name (alphabetical)")
    FIDE_ID = "fide-id", _("FIDE id (lowest first)")
    OLDEST = "oldest", _("Oldest first (birth date)")
    YOUNGEST = "youngest", _("Youngest first (birth date)")


class TiebreakRules(models.IntegerChoices):
    """Which text of the FIDE tie-break regulations (C.07) the standings follow."""

    C07_2023 = 2023, _("C.07 of 2023 (in force until 28 February 2026)")
    C07_2026 = 2026, _("C.07 of 1 March 2026")


class UnratedTiebreaks(models.TextChoices):
    """Unrated players in the rating-based tie-breaks (C.07 10; VCL4THP Q208-209)."""

    DROP = "drop", _("Drop the rating-based tie-breaks when unrated players are present (C.07 10)")
    FIXED = "fixed", _("Count unrated players at a fixed rating (give it below)")
    LOWEST = "lowest", _("Count unrated players at the lowest rating in the field")


class FinalTies(models.TextChoices):
    """Players still tied after the whole tie-break list (C.07; VCL4THP Q203-206)."""

    SHARE = "share", _("They share the place (1, 2, 2, 4)")
    LOTS = "lots", _("A drawing of lots orders them (drawn once, repeatable)")


class Sex(models.TextChoices):
    MALE = "m", _("Male")
    FEMALE = "f", _("Female")
    NONE = "", "—"


class GameResult(models.TextChoices):
    PENDING = "", "—"
    WHITE_WINS = "1-0", "1-0"
    DRAW = "1/2-1/2", "½-½"
    BLACK_WINS = "0-1", "0-1"
    WHITE_FORFEIT_WIN = "+-", "+ −"
    BLACK_FORFEIT_WIN = "-+", "− +"
    DOUBLE_FORFEIT = "--", "− −"
    # over the board, but scored otherwise (a late arrival, a decision of the arbiter)
    WHITE_HALF = "1/2-0", "½-0"
    BLACK_HALF = "0-1/2", "0-½"
    BOTH_LOSE = "0-0", "0-0"
    # played, but under one move: counts for pairing as a game, not rated (TRF W D L)
    WHITE_WINS_UNRATED = "W-L", _("1-0 unrated")
    DRAW_UNRATED = "D-D", _("½-½ unrated")
    BLACK_WINS_UNRATED = "L-W", _("0-1 unrated")
    # adjourned or postponed: a draw for pairing and standings until its result comes
    ADJOURNED = "adj", _("adjourned")


# The results an arbiter meets every round; the others are offered under "more".
COMMON_RESULTS = (
    GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS,
    GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN, GameResult.DOUBLE_FORFEIT,
)


# Keys an arbiter presses on a board row (and the button values without JS).
RESULT_KEYS = {
    "1": GameResult.WHITE_WINS,
    "=": GameResult.DRAW,
    "5": GameResult.DRAW,
    "0": GameResult.BLACK_WINS,
    "+": GameResult.WHITE_FORFEIT_WIN,
    "-": GameResult.BLACK_FORFEIT_WIN,
    "*": GameResult.DOUBLE_FORFEIT,
    "a": GameResult.WHITE_HALF,
    "b": GameResult.BLACK_HALF,
    "z": GameResult.BOTH_LOSE,
    "w": GameResult.WHITE_WINS_UNRATED,
    "d": GameResult.DRAW_UNRATED,
    "l": GameResult.BLACK_WINS_UNRATED,
    "?": GameResult.ADJOURNED,
}


class ByeKind(models.TextChoices):
    PAIRING = "U", _("Pairing-allocated bye")
    HALF = "H", _("Half-point bye (requested)")
    ZERO = "Z", _("Zero-point bye (requested)")
    FULL = "F", _("Full-point bye")


REQUESTED_BYES = (ByeKind.HALF, ByeKind.ZERO, ByeKind.FULL)

# A bye kind inside a sentence ("Ana: zero-point bye"), without the labels' "(requested)".
BYE_WORDS = {
    ByeKind.PAIRING: "pairing-allocated bye", ByeKind.HALF: "half-point bye", ByeKind.ZERO: "zero-point bye",
    ByeKind.FULL: "full-point bye", "": "plays",
}


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")
    COMPLETE = "complete", _("Complete")


class PairedBy(models.TextChoices):
    """How a round's pairing was made, for the rating report's ``### Paired by`` lines
    (``Round.program`` names the program and release)."""

    UNKNOWN = "", _("Not recorded (paired before this was recorded)")
    ENGINE = "engine", _("The pairing engine")
    HAND = "hand", _("By hand (a manual-pairing session that differs from the engine)")
    BERGER = "berger", _("The Berger table")
    IMPORT = "import", _("Imported from a TRF file")


SIDES = {
    GameResult.WHITE_WINS: ("1", "0"),
    GameResult.DRAW: ("=", "="),
    GameResult.BLACK_WINS: ("0", "1"),
    GameResult.WHITE_FORFEIT_WIN: ("+", "-"),
    GameResult.BLACK_FORFEIT_WIN: ("-", "+"),
    GameResult.DOUBLE_FORFEIT: ("-", "-"),
    GameResult.WHITE_HALF: ("=", "0"),
    GameResult.BLACK_HALF: ("0", "="),
    GameResult.BOTH_LOSE: ("0", "0"),
    GameResult.WHITE_WINS_UNRATED: ("W", "L"),
    GameResult.DRAW_UNRATED: ("D", "D"),
    GameResult.BLACK_WINS_UNRATED: ("L", "W"),
    GameResult.ADJOURNED: ("?", "?"),
}


class Conflict(Exception):
    """Someone else changed the row since the arbiter loaded the page."""


def version_token(values: dict) -> str:
    """A short digest of a row's editable values.  An edit form carries the one the
    arbiter saw (``seen``), so a save over another arbiter's change is noticed."""
    raw = json.dumps(values, sort_keys=True, cls=DjangoJSONEncoder)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def stale_form(what: str) -> str:
    """A changing form sent without the version it was made from (``seen``/``expected``):
    refused, since without it a stale page would overwrite another arbiter's change."""
    from django.utils.translation import gettext

    return gettext(
        "This page did not say which %(what)s it showed (an old or incomplete page). "
        "Nothing was saved: reload it and try again."
    ) % {"what": what}


SEEN_CHANGED = _(
    "%(what)s changed since you opened this page (another arbiter saved first; see the audit trail). "
    "Nothing was saved. Check the values and save again to replace theirs."
)


def audit_value(value):
    """A model field value as it is stored in the audit trail (JSON: dates as ISO text,
    decimals as text, choices by value)."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value

