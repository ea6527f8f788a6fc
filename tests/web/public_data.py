"""Tournaments written straight into the database, for the public pages' tests:
every game chosen by hand, so that the expected figures can be worked out by hand."""

from __future__ import annotations

from django.utils import timezone

from pairing.services.numbering import renumber


def add_round(t, number: int, boards, byes=(), status: str = "complete"):
    """Round ``number`` with ``boards`` [(board, white, black, result)] and ``byes``
    [(player, kind)], published (``status`` "complete" or "published").  A change of the
    tournament's state: its revision moves, as publishing through the services moves it
    (the public pages are kept per revision)."""
    from pairing.models import Bye, Game, Round, bump_revision

    rnd = Round.objects.create(tournament=t, number=number, status=status, published_at=timezone.now())
    Game.objects.create_boards(rnd, ((bd, w.pk, b.pk, r) for bd, w, b, r in boards))
    for player, kind in byes:
        Bye.objects.create(tournament=t, player=player, round_number=number, kind=kind)
    bump_revision(t.pk)
    return rnd


def six_player_tournament(t):
    """Six players (A 2000 ... F 1500, TPN 1-6), three complete rounds:

    R1  A-D 1-0   E-B 0-1   C-F ½-½
    R2  B-A 0-1   E-C +-  (forfeit)   D half-point bye, F pairing-allocated bye
    R3  A-C 1-0   F-B 0-1   D-E 1-0

    Scores: A 3, B 2, D 1½, F 1½, E 1, C ½.  Returns the players by letter.
    """
    from pairing.models import ByeKind, GameResult, Player

    ratings = {"A": 2000, "B": 1900, "C": 1800, "D": 1700, "E": 1600, "F": 1500}
    for letter, rating in ratings.items():
        Player.objects.create(tournament=t, name=f"{letter}layer, {letter}", rating=rating)
    renumber(t)
    p = {pl.name[0]: pl for pl in t.player_set.all()}
    W, D, B = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS
    add_round(t, 1, [(1, p["A"], p["D"], W), (2, p["E"], p["B"], B), (3, p["C"], p["F"], D)])
    add_round(
        t, 2, [(1, p["B"], p["A"], B), (2, p["E"], p["C"], GameResult.WHITE_FORFEIT_WIN)],
        byes=[(p["D"], ByeKind.HALF), (p["F"], ByeKind.PAIRING)],
    )
    add_round(t, 3, [(1, p["A"], p["C"], W), (2, p["F"], p["B"], B), (3, p["D"], p["E"], W)])
    return p


def field(t, n: int):
    """``n`` players (even), two complete rounds and a third in play: round 1 pairs
    1-2, 3-4 ...; round 2 pairs 2-3, 4-5 ... n-1 (White wins, board 1 drawn); round 3
    pairs 1-3, 2-4, 5-7 ... without results."""
    from pairing.models import GameResult
    from tests.web.helpers import add_players

    ps = add_players(t, n, step=max(1, min(10, 2000 // n)))  # ratings stay above 400
    W, D = GameResult.WHITE_WINS, GameResult.DRAW
    add_round(t, 1, [(i // 2 + 1, ps[i], ps[i + 1], D if i == 0 else W) for i in range(0, n, 2)])
    r2 = [(ps[i], ps[(i + 1) % n]) for i in range(1, n, 2)]
    add_round(t, 2, [(k + 1, w, b, W) for k, (w, b) in enumerate(r2)])
    r3 = []
    for start in range(0, n, 4):
        quad = ps[start:start + 4]
        if len(quad) == 4:
            r3 += [(quad[0], quad[2]), (quad[3], quad[1])]
        else:
            r3 += [(quad[0], quad[1])]
    add_round(t, 3, [(k + 1, w, b, "") for k, (w, b) in enumerate(r3)], status="published")
    return ps
