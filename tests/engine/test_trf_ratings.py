"""The ratings a TRF-2026 file pairs with (issue 32, defect 1): the 001 FIDE rating, the
NRS records and tag 172."""

from __future__ import annotations

import pytest

from pairing.engine.trf import TrfError, parse_trf, rating_by_method


@pytest.mark.parametrize(
    ("method", "fide", "national", "expected"),
    [
        ("FIDE", 1800, 1900, 1800), ("FIDE", None, 1900, None),
        ("NRO", 1800, 1900, 1900), ("NRO", 1800, None, None),
        ("FIDON", 1800, 1900, 1800), ("FIDON", None, 1900, 1900),
        ("NIDOF", 1800, 1900, 1900), ("NIDOF", 1800, None, 1800),
        ("HBFN", 1800, 1900, 1900), ("LBFN", 1800, 1900, 1800), ("HBFN", None, None, None),
        ("OTHER", None, 1900, 1900), (None, 1800, 1900, 1800),
    ],
)
def test_172_methods_combine_the_fide_and_the_national_rating(method, fide, national, expected):
    assert rating_by_method(method, fide, national) == expected


def _file(method_line: str, nrs: str) -> str:
    return "\n".join([
        "012 Ratings",
        method_line,
        "001    1      Rated, Ann                        1800".ljust(91) + "   2 w 1",
        "001    2      Unrated, Bob                          ".ljust(91) + "   1 b 0",
        nrs,
        "XXR 3",
    ]) + "\n"


def test_an_unrated_players_provisional_rating_is_read_from_the_nrs_record_beside_the_empty_fide_rating():
    nrs = "FID    2" + " " * 40 + "1650"
    t = parse_trf(_file("172 FID FIDON", nrs))
    assert t.pairing_ratings() == {1: 1800, 2: 1650}
    assert [p.rating for p in t.snapshot(2).players] == [1800, 1650]


def test_the_172_method_decides_between_the_fide_and_the_national_rating():
    nrs = "GER    1" + " " * 40 + "1950"
    assert parse_trf(_file("172 GER HBFN", nrs)).pairing_ratings()[1] == 1950
    assert parse_trf(_file("172 GER LBFN", nrs)).pairing_ratings()[1] == 1800


def test_a_172_record_without_a_method_is_refused_where_it_is():
    with pytest.raises(TrfError) as err:
        parse_trf(_file("172 GER BEST", ""))
    assert err.value.problems[0].line == 2 and "rating method" in err.value.problems[0].message
