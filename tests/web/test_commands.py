"""The demo command and the migrations check."""

from __future__ import annotations

import io

from django.core.management import call_command

from pairing.models import Round, RoundStatus, Tournament


def test_demo_builds_a_tournament_in_progress_and_is_idempotent(db, settings):
    settings.DEBUG = True  # as `make run` (the test runner turns DEBUG off)
    out = io.StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=out)
    assert "password 'dubov-demo'" in out.getvalue()
    t = Tournament.objects.get(slug="demo-open")
    assert t.player_set.count() == 40 and t.rounds == 9
    statuses = list(t.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 3 + [RoundStatus.PUBLISHED]
    done, total = Round.objects.get(tournament=t, number=4).progress()
    assert 0 < done < total


def test_demo_has_dutch_and_burstein_tournaments_of_the_same_size_with_a_draft_to_read(db, settings):
    """The Dutch section of the demo (issue 34): 40 players, 9 rounds, the FIDE Dutch
    system, rounds 1-4 complete and round 5 a draft with the Dutch explanation; the Burstein
    section (issue 40) below; a run on a database that has only the Dubov demo adds them,
    and a second run changes nothing."""
    settings.DEBUG = True
    call_command("demo", stdout=io.StringIO())
    # a database from before the Dutch and the Burstein demos
    Tournament.objects.filter(slug__in=["demo-dutch", "demo-burstein"]).delete()
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "Demo tournament already there." in out.getvalue() and "Dutch demo tournament created." in out.getvalue()
    assert "Burstein demo tournament created." in out.getvalue()
    call_command("demo", stdout=out)
    t = Tournament.objects.get(slug="demo-dutch")
    assert (t.system, t.player_set.count(), t.rounds, t.public) == ("dutch", 40, 9, True)
    statuses = list(t.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 4 + [RoundStatus.DRAFT]
    draft = t.round_set.get(number=5)
    assert draft.explanation["system"] == "dutch" and draft.explanation["brackets"]
    assert t.player_set.filter(withdrawn_from_round=4).count() == 1
    assert Tournament.objects.filter(slug__in=["demo-open", "demo-dutch", "demo-burstein"]).count() == 3
    _the_burstein_demo()


def _the_burstein_demo() -> None:
    """The Burstein section of the demo (issue 40): 40 players, 9 rounds, the FIDE Burstein
    system; rounds 1-4 (its seeding rounds, paired by the Dutch rules) and 5 complete,
    round 6 a draft explained bracket by bracket with every player's Index; one player's
    two zero-point byes end their history (1.7.2)."""
    t = Tournament.objects.get(slug="demo-burstein")
    assert (t.system, t.player_set.count(), t.rounds, t.public) == ("burstein", 40, 9, True)
    statuses = list(t.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 5 + [RoundStatus.DRAFT]
    seeding = [r.explanation for r in t.round_set.filter(number__lte=4).order_by("number")]
    assert all(ex["system"] == "dutch" and ex["seeding"]["of"] == 4 for ex in seeding)
    draft = t.round_set.get(number=6)
    assert draft.explanation["system"] == "burstein" and all(b["index"] for b in draft.explanation["brackets"])
    assert t.bye_set.filter(kind="Z", round_number__in=[4, 5]).values("player").distinct().count() == 1


def test_no_migration_is_missing(db):
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_demo_has_a_club_weekend_of_two_sections_on_the_front_page(db, settings, client):
    """The demo event (issue 37): two public sections a week ahead, online entries open,
    the Under 1600 full with an entry on its waiting list, check-in under way, prizes
    set; on the front page for visitors; a second run changes nothing."""
    from pairing.models import CheckIn, Entry, Event, Player

    settings.DEBUG = True
    call_command("demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "Demo event already there." in out.getvalue()
    e = Event.objects.get(slug="demo-weekend")
    assert e.entries_accepted() and e.self_checkin and e.checkin_secret
    open_, u1600 = e.sections.order_by("name")
    assert (open_.name, open_.system, open_.player_set.count()) == ("Weekend Open", "dubov", 14)
    assert (u1600.name, u1600.system, u1600.player_set.count(), u1600.entry_limit) == (
        "Weekend Under 1600", "dutch", 6, 6)
    assert sorted(Entry.objects.filter(event=e).values_list("section__name", "state")) == [
        ("Weekend Open", "pending"), ("Weekend Open", "pending"), ("Weekend Under 1600", "waiting")]
    assert CheckIn.objects.filter(player__tournament=open_, present=True).count() == 9
    assert open_.categories.count() == 3 and open_.prizes.count() == 7
    names = list(Player.objects.filter(tournament__event=e).values_list("name", flat=True))
    assert len(names) == len(set(names))  # one list of the event's players, nobody twice
    page = client.get("/").content.decode()
    assert "Demo Club Weekend" in page and "Weekend Under 1600" in page and 'href="/e/demo-weekend/enter/"' in page


def test_demo_has_a_small_dubov_tournament_paired_by_the_rules_of_1997(db, settings):
    """The rules of 1997 in the demo (issue 40): 20 players, 7 rounds, the Dubov system with
    the rules of 1997, rounds 1-3 complete and round 4 a draft whose explanation is the
    1997 one (unrounded AROs, the colour rules of 1997 3); a run on a database without it
    adds it, and a second run changes nothing."""
    settings.DEBUG = True
    call_command("demo", stdout=io.StringIO())
    Tournament.objects.filter(slug="demo-dubov-1997").delete()  # a database from before it
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "Demo tournament already there." in out.getvalue()
    assert "Dubov 1997 demo tournament created." in out.getvalue()
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "Dubov 1997 demo tournament already there." in out.getvalue()
    t = Tournament.objects.get(slug="demo-dubov-1997")
    assert (t.system, t.dubov_rules, t.system_label, t.player_set.count(), t.rounds, t.public) == (
        "dubov", 1997, "FIDE Dubov system, rules of 1997", 20, 7, True)
    statuses = list(t.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 3 + [RoundStatus.DRAFT]
    draft = t.round_set.get(number=4)
    assert draft.explanation["system"] == "dubov" and draft.explanation["brackets"]
    assert "(1997)" in str(draft.explanation)  # a colour rule of 1997 3 decided some board
    slugs = ["demo-open", "demo-dutch", "demo-burstein", "demo-dubov-1997"]
    assert Tournament.objects.filter(slug__in=slugs).count() == 4
