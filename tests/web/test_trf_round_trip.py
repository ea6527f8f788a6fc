"""Issue 17, property: export -> import into an empty tournament -> export again gives
the same file, over generated tournaments (draws, forfeits, half-, zero- and full-point
byes, withdrawals, late entries), with an unrated player and an adjourned game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.engine.__main__ import main as engine_main
from pairing.models import Game, GameResult, Tournament
from pairing.services import interchange
from pairing.services.results import record_result


class _Undo(Exception):
    pass


def generated(tmp: Path, seed: int) -> str:
    path = tmp / f"g{seed}.trf"
    saved, sys.stderr = sys.stderr, open("/dev/null", "w")  # noqa: SIM115 - the seed is printed there
    try:
        code = engine_main(["--dubov", "-g", "--seed", str(seed), "--players", str(9 + seed % 14), "--rounds", "7",
                            "--played", str(4 + seed % 3), "--bye-rate", "0.08", "--forfeit-rate", "0.04",
                            "--withdrawal-rate", "0.03", "--late-entry-rate", "0.05", "--forbidden-pairs", "0",
                            "--acceleration", "none", "-o", str(path)])
    finally:
        sys.stderr.close()
        sys.stderr = saved
    assert code == 0
    text = path.read_text()
    # one player without a rating (unrated: a provisional rating, marked so)
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("001    2"))
    lines[i] = lines[i][:48] + "    " + lines[i][52:]
    return "\n".join(lines) + "\n"


def imported(owner, slug: str, text: str) -> Tournament:
    t = Tournament.objects.create(slug=slug, name="Round Trip Open", place="Bled", rounds=7, owner=owner)
    interchange.import_trf(t, text, owner, confirmations=1)
    return Tournament.objects.get(pk=t.pk)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(1, 10**6))
@pytest.mark.django_db
def test_issue_17_export_import_export_gives_the_same_file(chief, tmp_path_factory, seed):
    source_text = generated(tmp_path_factory.mktemp("rt"), seed)
    try:
        with transaction.atomic():
            first = imported(chief, "first", source_text)
            # an adjourned game in the last round: the copy carries it as '?'
            last = first.rounds_published()
            game = Game.objects.filter(round__tournament=first, round__number=last).order_by("board").first()
            if game is not None:
                record_result(game, GameResult.ADJOURNED, chief, confirmations=1)
            exported = interchange.export_trf(first, integrity=True)
            second = imported(chief, "second", exported)
            again = interchange.export_trf(second, integrity=True)
            assert again == exported
            # what the round trip must keep, said once more in the app's own terms.  A
            # requested zero-point bye in every round to the last is written as a
            # withdrawal is (TRF has no record of its own for one), so it comes back as
            # a withdrawal from that round (docs/fide-mode.md, reading 16)
            zero_to_end = {}
            played = first.rounds_published()
            for p in first.player_set.all():
                rounds = set(first.bye_set.filter(player=p, kind="Z").values_list("round_number", flat=True))
                start = first.rounds
                while start in rounds and start > played:  # only rounds not in the file are 240 records
                    start -= 1
                if start < first.rounds:
                    zero_to_end[p.tpn] = start + 1
            for a, b in zip(first.player_set.order_by("tpn"), second.player_set.order_by("tpn"), strict=True):
                assert (a.name, a.rating, a.rating_provisional) == (b.name, b.rating, b.rating_provisional)
                assert b.withdrawn_from_round == (a.withdrawn_from_round or zero_to_end.get(a.tpn)), a.name
            byes = {(n, r, k) for n, r, k in first.bye_set.values_list("player__tpn", "round_number", "kind")
                    if not (k == "Z" and n in zero_to_end and r >= zero_to_end[n])}
            assert byes <= set(second.bye_set.values_list("player__tpn", "round_number", "kind"))
            assert (second.place, second.start_date) == (first.place, first.start_date)
            assert Game.objects.filter(round__tournament=second, result=GameResult.ADJOURNED).count() == (
                1 if game is not None else 0)
            raise _Undo
    except _Undo:
        pass
