"""Rating tables of the FIDE Rating Regulations (Handbook B.02), as used by C.07 art. 10.

Transcribed from the tables reproduced in the commission's exercises
(``fide-tiebreak-exercises-2023.txt``, section 5.2, pages 36-37).

* :data:`DP_BY_PERCENT` -- B.02 8.1.1: the rating difference ``dp`` for a fractional
  score ``p``, indexed by ``p`` in hundredths (0 .. 100).  The printed table is
  symmetric (``dp(p) = -dp(1 - p)``); the upper half is stored and mirrored.
* :func:`expected_hundredths` -- B.02 8.1.2: the expected score ``PD`` (in hundredths)
  of the higher-rated side for a rating difference ``d``; the lower-rated side gets
  ``100 - PD``.
"""

from __future__ import annotations

from bisect import bisect_left

# p = 0.50, 0.51, ... 1.00  ->  dp
_DP_UPPER: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,  # .50 - .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,  # .60 - .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,  # .70 - .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,  # .80 - .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,  # .90 - .99
    800,  # 1.00
)  # fmt: skip

DP_BY_PERCENT: tuple[int, ...] = tuple(-_DP_UPPER[50 - i] for i in range(50)) + _DP_UPPER

# Upper bound of each rating-difference band; band i gives PD = 0.50 + i/100.
# A difference above 735 gives 1.00.
_D_UPPER_BOUNDS: tuple[int, ...] = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,  # .50 - .59
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,  # .60 - .69
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,  # .70 - .79
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,  # .80 - .89
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,  # .90 - .99
)  # fmt: skip


def expected_hundredths(difference: int) -> int:
    """B.02 8.1.2: expected score, in hundredths, of a player rated ``difference`` above the opponent.

    No 400-point cap is applied (C.07 PTP uses the raw difference).  O(log 50).
    """
    band = bisect_left(_D_UPPER_BOUNDS, abs(difference))
    high = 50 + band  # band == 50 -> 100
    return high if difference >= 0 else 100 - high


# expected_hundredths(d) for d in -736 .. 736, for the PTP search (index d + 736).
EXPECTED_BY_DIFFERENCE: tuple[int, ...] = tuple(expected_hundredths(d) for d in range(-736, 737))


def dp_for_percent(p_hundredths: int) -> int:
    """B.02 8.1.1: rating difference for a fractional score given in hundredths (0 .. 100)."""
    if not 0 <= p_hundredths <= 100:
        raise ValueError(f"fractional score out of range: {p_hundredths}/100")
    return DP_BY_PERCENT[p_hundredths]
