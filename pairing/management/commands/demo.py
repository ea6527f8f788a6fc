"""A demo arbiter and three realistic tournaments of 40 players and 9 rounds each: the Dubov
one with three rounds played and round 4 in progress, the Dutch one with four rounds
played and round 5 paired as a draft (its explanation to read), the Burstein one with its
four seeding rounds and round 5 played and round 6 paired as a draft (each bracket's
Index to read); a small Dubov tournament paired by the rules of 1997 (20 players, 7
rounds, three played and round 4 a draft); and a club's weekend event of two sections a
week ahead (online entries open, a full section with its waiting list, check-in under way,
categories and prizes set).  Idempotent: a second run creates only what is missing and prints the credentials."""

from __future__ import annotations

import datetime
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from pairing.forms import PrizeForm
from pairing.models import Bye, ByeKind, ColourMethod, Event, GameResult, PairingSystem, Player, Tournament
from pairing.services import checkin, entries, prizes, rounds
from pairing.services.numbering import renumber
from pairing.services.players import withdraw
from pairing.services.results import record_result
from pairing.services.rounds import publish

USERNAME = "arbiter"
PASSWORD = "dubov-demo"
DEPUTY = "deputy"
SLUG = "demo-open"
DUTCH_SLUG = "demo-dutch"
EVENT_SLUG = "demo-weekend"
BURSTEIN_SLUG = "demo-burstein"
DUBOV_1997_SLUG = "demo-dubov-1997"

FAMILY = [
    "Novak", "Schmidt", "Rossi", "Kowalski", "Petrov", "Jensen", "Horvat", "Dubois", "Silva", "Nagy",
    "Ivanova", "Berg", "Moreau", "Fischer", "Costa", "Lindqvist", "Popescu", "Kovac", "Meyer", "Santos",
    "Varga", "Keller", "Bianchi", "Wagner", "Marin", "Olsen", "Lehmann", "Garcia", "Toth", "Weber",
    "Nielsen", "Romano", "Hoffmann", "Kral", "Ferrari", "Dvorak", "Laurent", "Mendes", "Aalto", "Brandt",
]
GIVEN = [
    "Anna", "Jan", "Marco", "Piotr", "Elena", "Lars", "Ivan", "Claire", "Rui", "Zsofia",
    "Maria", "Erik", "Luc", "Felix", "Ines", "Karin", "Andrei", "Tomas", "Lena", "Paulo",
    "Bence", "Nina", "Giulia", "Stefan", "Ana", "Sven", "Jonas", "Lucia", "Peter", "Mia",
    "Rasmus", "Sara", "Tobias", "Eva", "Luca", "Petra", "Hugo", "Beatriz", "Eino", "Greta",
]
FEDS = ["GER", "ITA", "POL", "NED", "FRA", "HUN", "CZE", "AUT", "ESP", "SWE"]


def _result(rng: random.Random, white: Player, black: Player) -> str:
    expected = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
    draw = 0.3
    roll = rng.random()
    if rng.random() < 0.01:
        return GameResult.WHITE_FORFEIT_WIN
    if roll < expected - draw / 2:
        return GameResult.WHITE_WINS
    if roll < expected + draw / 2:
        return GameResult.DRAW
    return GameResult.BLACK_WINS


def _demo_tournament(user, deputy, **fields) -> Tournament:
    """A public demo tournament of ``user`` (``deputy`` its deputy), colours by lot, the
    demo's tie-breaks, in Slovenia unless ``fields`` say otherwise."""
    fields = {"federation": "SLO", "initial_colour_method": ColourMethod.LOT, "tiebreaks": "BH-C1, BH, SB, DE",
              "public": True, "owner": user, **fields}
    t = Tournament.objects.create(**fields)
    t.deputies.add(deputy)
    return t


def _play_then_draft(t: Tournament, user, rng: random.Random, played: int, withdrawn_after=None) -> None:
    """Rounds 1..``played`` paired, published and every result entered; round
    ``played + 1`` paired as a draft.  ``withdrawn_after``: {round: player} withdrawn from
    the next round once that round's results are in."""
    withdrawn_after = withdrawn_after or {}
    for number in range(1, played + 1):
        rnd = rounds.pair_next_round(t, user)
        publish(rnd, user)
        for g in rnd.games():
            record_result(g, _result(rng, g.white, g.black), user)
        if number in withdrawn_after:
            withdraw(withdrawn_after[number], number + 1, user)
    rounds.pair_next_round(t, user)


class Command(BaseCommand):
    help = "Create the demo arbiter and the demo tournament (safe to run again)."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "The demo creates accounts whose passwords are printed in the README; it runs only on a "
                "development copy (DJANGO_DEBUG=true, as `make run` sets it), never on a live site."
            )
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=USERNAME, defaults={"first_name": "Demo", "last_name": "Arbiter", "email": "arbiter@example.org"}
        )
        if created:
            user.set_password(PASSWORD)
            user.save()
        deputy, created = User.objects.get_or_create(username=DEPUTY, defaults={"first_name": "Demo deputy"})
        if created:
            deputy.set_password(PASSWORD)
            deputy.save()
        for slug, make, name in ((SLUG, self._tournament, "Demo tournament"),
                                 (DUTCH_SLUG, self._dutch_tournament, "Dutch demo tournament"),
                                 (BURSTEIN_SLUG, self._burstein_tournament, "Burstein demo tournament"),
                                 (DUBOV_1997_SLUG, self._dubov_1997_tournament, "Dubov 1997 demo tournament")):
            if not Tournament.objects.filter(slug=slug).exists():
                make(user, deputy)
                self.stdout.write(self.style.SUCCESS(f"{name} created."))
            else:
                self.stdout.write(f"{name} already there.")
        if not Event.objects.filter(slug=EVENT_SLUG).exists():
            self._weekend(user, deputy)
            self.stdout.write(self.style.SUCCESS("Demo event created."))
        else:
            self.stdout.write("Demo event already there.")
        self.stdout.write(
            f"Demo login: username {USERNAME!r}, password {PASSWORD!r} "
            f"(deputy: {DEPUTY!r}, same password) -> http://127.0.0.1:8000/"
        )

    def _tournament(self, user, deputy) -> None:
        rng = random.Random(2026)
        with transaction.atomic():
            t = _demo_tournament(
                user, deputy,
                slug=SLUG,
                name="Demo Open 2026",
                place="Ljubljana",
                start_date=datetime.date(2026, 11, 20),
                end_date=datetime.date(2026, 11, 28),
                time_control="90'/40 + 30' + 30\"",
                rounds=9,
                initial_colour="w",
            )
            _players(t, rng)
            players = list(t.player_set.order_by("tpn"))
            # A requested half-point bye in round 2 and a zero-point bye in round 4.
            Bye.objects.create(tournament=t, player=players[17], round_number=2, kind=ByeKind.HALF)
            Bye.objects.create(tournament=t, player=players[30], round_number=4, kind=ByeKind.ZERO)
            for number in range(1, 5):
                rnd = rounds.pair_next_round(t, user)
                publish(rnd, user)
                games = list(rnd.games())
                entered = games if number < 4 else games[: len(games) // 2]
                for g in entered:
                    record_result(g, _result(rng, g.white, g.black), user)

    def _dutch_tournament(self, user, deputy) -> None:
        """The same size as the Dubov demo, paired with the FIDE Dutch system: rounds 1-4
        complete (a half-point bye in round 2, a withdrawal after round 3), round 5 a draft."""
        rng = random.Random(2027)
        with transaction.atomic():
            t = _demo_tournament(
                user, deputy,
                slug=DUTCH_SLUG,
                name="Demo Dutch Open 2026",
                place="Maribor",
                start_date=datetime.date(2026, 12, 4),
                end_date=datetime.date(2026, 12, 12),
                time_control="90+30",
                rounds=9,
                system=PairingSystem.DUTCH,
                initial_colour="b",
            )
            _players(t, rng, shift=13)
            players = list(t.player_set.order_by("tpn"))
            Bye.objects.create(tournament=t, player=players[21], round_number=2, kind=ByeKind.HALF)
            # the draft: its explanation is on the round's page
            _play_then_draft(t, user, rng, played=4, withdrawn_after={3: players[35]})

    def _burstein_tournament(self, user, deputy) -> None:
        """The same size again, paired with the FIDE Burstein system: rounds 1-4 are its
        seeding rounds (1.6.2: half of 9 rounded down, at most 4), paired by the Dutch
        rules; round 5 is the first the Index pairs; round 6 a draft.  A half-point bye in
        round 2, one player's zero-point byes in rounds 4 and 5 (1.7.2: a run up to the
        round paired counts as draws for their opponents' Index), a withdrawal after
        round 3."""
        rng = random.Random(2028)
        with transaction.atomic():
            t = _demo_tournament(
                user, deputy,
                slug=BURSTEIN_SLUG,
                name="Demo Burstein Open 2026",
                place="Celje",
                start_date=datetime.date(2026, 12, 18),
                end_date=datetime.date(2026, 12, 26),
                time_control="90+30",
                rounds=9,
                system=PairingSystem.BURSTEIN,
                initial_colour="w",
            )
            _players(t, rng, shift=26)
            players = list(t.player_set.order_by("tpn"))
            Bye.objects.create(tournament=t, player=players[14], round_number=2, kind=ByeKind.HALF)
            for number in (4, 5):
                Bye.objects.create(tournament=t, player=players[27], round_number=number, kind=ByeKind.ZERO)
            # the draft: its explanation, with every bracket's Index, is on the round's page
            _play_then_draft(t, user, rng, played=5, withdrawn_after={3: players[33]})

    def _dubov_1997_tournament(self, user, deputy) -> None:
        """A small Dubov tournament paired by the rules of 1997 (docs/dubov-1997.md): 20
        players, 7 rounds, rounds 1-3 complete (a half-point bye in round 2), round 4 a
        draft whose explanation names the articles of 1997 that decided; the ARO list shows
        the unrounded AROs."""
        rng = random.Random(1997)
        with transaction.atomic():
            t = _demo_tournament(
                user, deputy,
                slug=DUBOV_1997_SLUG,
                name="Demo Dubov 1997 Rapid",
                place="Koper",
                start_date=datetime.date(2027, 1, 9),
                end_date=datetime.date(2027, 1, 10),
                time_control="15+10",
                rounds=7,
                dubov_rules=1997,
                initial_colour="w",
            )
            _players(t, rng, shift=33, count=20, top=2380, step=37, family_shift=19)
            players = list(t.player_set.order_by("tpn"))
            Bye.objects.create(tournament=t, player=players[8], round_number=2, kind=ByeKind.HALF)
            # the draft: its explanation names the rules of 1997 where they decided
            _play_then_draft(t, user, rng, played=3)

    def _weekend(self, user, deputy) -> None:
        """Demo Club Weekend, a week from today: an Open (Dubov, 14 players, 9 checked in,
        two online entries waiting for approval, categories and prizes set) and an
        Under 1600 (FIDE Dutch, 6 places, full, one entry on its waiting list).  Public,
        online entries and self check-in on; the entries' mail is not sent."""
        rng = random.Random(2028)
        start = timezone.localdate() + datetime.timedelta(days=7)
        with transaction.atomic(), override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"):
            e = Event.objects.create(
                slug=EVENT_SLUG, name="Demo Club Weekend", place="Bled", organiser="ŠK Bled", owner=user,
                start_date=start, end_date=start + datetime.timedelta(days=1), entries_open=True,
                entries_close=timezone.now() + datetime.timedelta(days=6), self_checkin=True,
            )
            e.new_checkin_secret()
            e.save()
            common = {"event": e, "owner": user, "place": e.place, "federation": "SLO", "start_date": e.start_date,
                      "end_date": e.end_date, "time_control": "60+30", "rounds": 5, "public": True,
                      "initial_colour_method": ColourMethod.LOT, "tiebreaks": "BH-C1, BH, SB, DE"}
            open_ = Tournament.objects.create(slug="demo-weekend-open", name="Weekend Open", **common)
            u1600 = Tournament.objects.create(slug="demo-weekend-u1600", name="Weekend Under 1600",
                                              system=PairingSystem.DUTCH, entry_limit=6, **common)
            for t in (open_, u1600):
                t.deputies.add(deputy)
            _players(open_, rng, shift=5, count=14, top=2250, step=45, family_shift=11)
            _players(u1600, rng, shift=21, count=6, top=1590, step=50, titled=False, family_shift=27)
            for p in Player.objects.filter(tournament__event=e):  # the categories count birth years
                Player.objects.filter(pk=p.pk).update(birth_year=p.birth_date.year)
            for p in open_.player_set.order_by("tpn")[:9]:
                checkin.set_present(p, True, deputy)
            for name, section in (("Zajc, Tina", open_), ("Petek, Rok", open_), ("Kos, Maja", u1600)):
                entries.submit(e, section, name, "", f"{name.split(',')[0].lower()}@example.org", address="demo")
            form = PrizeForm({
                "categories": "Women: women\nU1800: rating -1799\nSeniors: over 65", "sharing": "hort",
                "prizes": "place: 200, 120, 80\nWomen: 50\nU1800: 50, 30\nSeniors: 40", "one_prize": "larger",
                "rounding": "1", "currency": "EUR", "club_best": "3",
            })
            if not form.is_valid():  # pragma: no cover - the demo's own lines
                raise CommandError(f"demo prizes: {form.errors.as_text()}")
            prizes.save(open_, form.cleaned_data, user)


def _players(t: Tournament, rng: random.Random, shift: int = 0, count: int = 40, top: int = 2520, step: int = 26,
             titled: bool = True, family_shift: int = 0) -> None:
    """``count`` players (40), titled at the top, the last two unrated (a provisional
    rating); given names shifted by ``shift`` so that two demo fields are not the same
    people."""
    titles = ["GM", "IM", "IM", "FM", "WGM", "FM", "CM", "WIM", "FM", "CM", "WFM"] if titled else []
    women = {"Anna", "Elena", "Claire", "Zsofia", "Maria", "Ines", "Karin", "Lena", "Nina", "Giulia", "Ana",
             "Lucia", "Mia", "Sara", "Eva", "Petra", "Beatriz", "Greta"}
    for i in range(count):
        rating = top - i * step - rng.randint(0, 20)
        given = GIVEN[(i + shift) % len(GIVEN)]
        Player.objects.create(
            tournament=t,
            title=titles[i] if i < len(titles) else "",
            name=f"{FAMILY[(i + family_shift) % len(FAMILY)]}, {given}",
            rating=rating if i < count - 2 else 1200,
            rating_provisional=i >= count - 2,
            federation=FEDS[i % len(FEDS)],
            fide_id="" if i >= count - 2 else str(1400000 + (i + shift) * 7919),
            birth_date=datetime.date(1960 + (i * 7) % 50, 1 + i % 12, 1 + (i * 3) % 28),
            sex="f" if given in women else "m",
            club=f"ŠK {['Ljubljana', 'Maribor', 'Celje', 'Koper'][i % 4]}",
        )
    renumber(t)
