"""Chess960 starting positions in the standard numbering (0-959; 518 is the classical
array), as a back rank from a to h: ``position(518) == "RNBQKBNR"``.  Pure Python."""

from __future__ import annotations

# where the two knights go among the five squares left after the bishops and the queen
_KNIGHTS = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))


def position(number: int) -> str:
    """The back rank of Chess960 position ``number``: bishops on opposite colours, the
    king between the rooks.  Raises ValueError outside 0-959."""
    if not 0 <= number <= 959:
        raise ValueError(f"a Chess960 position is numbered 0 to 959, not {number}")
    rank: list[str | None] = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"  # b, d, f or h: the light squares of the first rank
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"  # a, c, e or g
    n, queen = divmod(n, 6)
    empty = [i for i, piece in enumerate(rank) if piece is None]
    rank[empty[queen]] = "Q"
    empty = [i for i, piece in enumerate(rank) if piece is None]
    for k in _KNIGHTS[n]:
        rank[empty[k]] = "N"
    for square, piece in zip((i for i, p in enumerate(rank) if p is None), "RKR", strict=True):
        rank[square] = piece
    return "".join(rank)  # type: ignore[arg-type]
