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


def _late_file(xxe: str) -> str:
    """Four players; 2 entered in round 2, re-slotted above 3 and 4: round 1 was paired
    with the numbers of then (1, 3, 4 as 1, 2, 3)."""
    return "\n".join([
        "012 Late",
        "001    1      One                               2400".ljust(91) + "   3 w 1     2 b 1",
        "001    2      Two                               2300".ljust(91) + "0000 - Z     1 w 0",
        "001    3      Three                             2200".ljust(91) + "   1 b 0  0000 - U",
        "001    4      Four                              2100".ljust(91) + "0000 - U  0000 - Z",
        xxe,
        "XXR 3",
    ]) + "\n"


def test_an_xxe_record_leaves_a_late_entry_out_of_the_numbers_of_the_rounds_before_it():
    t = parse_trf(_late_file("XXE   2    2"))
    assert t.entry_rounds() == {2: 2}
    assert t.numbers_in(1) == {1: 1, 3: 2, 4: 3, 2: 4}
    assert t.numbers_in(2) == {1: 1, 2: 2, 3: 3, 4: 4}
    first = t.snapshot(1)
    assert {p.id: p.tpn for p in first.players} == {1: 1, 2: 4, 3: 2, 4: 3}
    assert 2 in first.absent


def test_an_xxe_record_naming_an_unknown_player_or_round_1_is_refused_where_it_is():
    for xxe, col in (("XXE   2    9", 12), ("XXE   1    2", 5)):
        with pytest.raises(TrfError) as err:
            parse_trf(_late_file(xxe))
        assert (err.value.problems[0].line, err.value.problems[0].column) == (6, col), err.value
