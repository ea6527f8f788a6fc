"""The tournament's settings and its deputies."""

from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import ColourMethod, Tournament
from .fields import _clean_federation, control_character_problem, refuse_control_characters


class TournamentForm(forms.ModelForm):
    slug = forms.SlugField(
        label=_("Web address"),
        required=False,
        max_length=60,
        help_text=_("The tournament's pages are at /t/<this>/ (letters, digits and hyphens); "
        "made from the name when left empty."),
        error_messages={"invalid": _("A web address takes lower-case letters, digits and hyphens only.")},
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "place",
            "federation",
            "start_date",
            "end_date",
            "time_control",
            "rounds",
            "system",
            "dubov_rules",
            "rr_cycles",
            "rr_reverse_last_two",
            "point_win",
            "point_draw",
            "point_loss",
            "point_pab",
            "point_half_bye",
            "initial_colour_method",
            "initial_colour",
            "tiebreaks",
            "tiebreak_rules",
            "unrated_tiebreaks",
            "unrated_tiebreak_rating",
            "final_ties",
            "long_event",
            "ratings_per_round",
            "tie_order",
            "acceleration",
            "rate_of_play",
            "rating_method",
            "rating_lists",
            "consistency_checks",
            "chief_arbiter",
            "deputy_arbiters",
            "chess960",
            "public",
            "entry_limit",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "initial_colour_method": forms.RadioSelect,
            "initial_colour": forms.RadioSelect,
            "acceleration": forms.RadioSelect,
            "system": forms.RadioSelect,
            "dubov_rules": forms.RadioSelect,
            "rr_cycles": forms.RadioSelect,
            "unrated_tiebreaks": forms.RadioSelect,
            "final_ties": forms.RadioSelect,
            "deputy_arbiters": forms.Textarea(attrs={"rows": 3}),
        }
        labels = {
            "initial_colour_method": _("Initial colour"),
            "initial_colour": _("Colour of pairing number 1 in round 1 (when chosen)"),
            "point_win": _("Win"),
            "point_draw": _("Draw"),
            "point_loss": _("Loss"),
            "point_pab": _("Pairing-allocated bye (PAB)"),
            "point_half_bye": _("Requested half-point bye"),
        }
        help_texts = {
            "tiebreaks": _("FIDE C.07 codes in order, e.g. BH-C1, BH, SB, DE."),
            "rating_lists": _("Comma-separated, first list first: fide-standard, fide-rapid, fide-blitz, "
                              "fide-rapid-effective, fide-blitz-effective, list:<name of a national or custom list>. "
                              "Empty: the default for the rate of play."),
            "public": _("Pairings and standings visible without logging in."),
        }

    POINT_FIELDS = ("point_win", "point_draw", "point_loss", "point_pab", "point_half_bye")
    # Fixed by the rules once play starts: locked in FIDE mode after round 1 is paired
    # (VCL4THP Q57, Q75, Q85, Q200); outside FIDE mode a change asks at Level 3.
    FIXED_FIELDS = ("rounds", *POINT_FIELDS, "tiebreaks", "tie_order")
    # the rules for applying the tie-break list, published before round 1 (C.07 10 for
    # unrated players): locked with it in FIDE mode once round 1 is paired
    TIEBREAK_RULE_FIELDS = (
        "tiebreak_rules", "unrated_tiebreaks", "unrated_tiebreak_rating", "final_ties", "ratings_per_round",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        refuse_control_characters(self)
        self.rounds_published = self.instance.rounds_published() if self.instance.pk else 0
        self.started = self.rounds_published >= 1  # a draft of round 1 can still be discarded
        # left out of a form (an older page): the order stays as it is
        self.fields["tie_order"].required = False
        # one message for every number out of range (clean_rounds), not Django's "≥ 0"
        self.fields["rounds"].validators = []
        self.fields["rounds"].widget.attrs.update(min=1, max=99)
        # left out of an older page: these stay as they are
        for name in ("acceleration", "rate_of_play", "rating_method", "system", "dubov_rules", "rr_cycles",
                     "unrated_tiebreaks", "final_ties"):
            self.fields[name].required = False
        rules = self.fields["tiebreak_rules"]
        rules.choices = [("", _("By the start date (the 2026 text from 1 March 2026)")), *rules.choices[1:]]
        if self.instance.pk:
            rules.help_text = gettext("Now: the %(year)s text.") % {"year": self.instance.effective_tiebreak_rules()}
            if not self.instance.long_event and self.instance.longer_than_30_days():
                self.fields["long_event"].help_text = (
                    gettext("Suggested: the tournament's dates span more than 30 days.") + " " + str(self.fields["long_event"].help_text)
                )
        if self.rounds_published:
            # Round 1 is paired: the initial colour is history now.
            self.fields["initial_colour_method"].disabled = True
            self.fields["initial_colour"].disabled = True
            # VCL4THP Q109-110: acceleration is neither removed nor changed after round 1
            self.fields["acceleration"].disabled = True
            self.fields["acceleration"].help_text = _("Locked: round 1 has been published.")
            # VCL4THP Q93: the pairing system (the Dubov rules with it), and a round robin's
            # shape, are fixed after round 1
            for name in ("system", "dubov_rules", "rr_cycles", "rr_reverse_last_two"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Locked: round 1 has been published.")
            if self.instance.system != "dubov":
                del self.fields["dubov_rules"]  # locked with another system: nothing to show
            # the tournament rating makes the pairing numbers: fixed once round 1 is out
            self.fields["rating_method"].disabled = True
            self.fields["rating_method"].help_text = _("Locked: round 1 has been published.")
        if self.started and self.instance.fide_mode:
            # a disabled field keeps the stored value whatever a POST says
            for name in (*self.FIXED_FIELDS, *self.TIEBREAK_RULE_FIELDS):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Locked: the tournament is in FIDE mode and round 1 has been published.")
        self._schedule_fields()

    # -- the round schedule: a date and a time per round ------------------

    def _schedule_rounds(self) -> int:
        """How many rounds the schedule shows: the number of rounds sent (a POST that
        changes it is judged on it), else the tournament's."""
        if self.is_bound and not self.fields["rounds"].disabled:
            sent = str(self.data.get("rounds", "")).strip()
            if sent.isdigit() and 1 <= int(sent) <= 99:
                return int(sent)
        return self.instance.rounds or 1

    def _schedule_fields(self) -> None:
        # a page without the schedule (an older one) leaves it as it is
        self.schedule_sent = not self.is_bound or any(
            k.startswith("round_") and k.endswith(("_date", "_time")) for k in self.data)
        stored = {r.number: r for r in self.instance.schedule.all()} if self.instance.pk else {}
        self.schedule_rows = []
        for n in range(1, self._schedule_rounds() + 1):
            row = stored.get(n)
            date_name, time_name = f"round_{n}_date", f"round_{n}_time"
            self.fields[date_name] = forms.DateField(
                label=gettext("Round %(n)s") % {"n": n}, required=False,
                initial=row.date if row else None, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
            self.fields[time_name] = forms.TimeField(
                label=gettext("Time of round %(n)s") % {"n": n}, required=False,
                initial=row.time if row else None, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
            self.schedule_rows.append((n, date_name, time_name))

    def _clean_schedule(self, data: dict) -> None:
        """A round is played within the tournament's dates; a time needs its date."""
        start, end = data.get("start_date"), data.get("end_date")
        for n, date_name, time_name in self.schedule_rows:
            day, time = data.get(date_name), data.get(time_name)
            if time is not None and day is None:
                self.add_error(date_name, gettext("Round %(n)s: give the date with the time.") % {"n": n})
            elif day is not None and start and day < start:
                self.add_error(date_name, gettext("Round %(n)s on %(day)s: before the tournament starts (%(start)s).")
                               % {"n": n, "day": day.isoformat(), "start": start.isoformat()})
            elif day is not None and end and day > end:
                self.add_error(date_name, gettext("Round %(n)s on %(day)s: after the tournament ends (%(end)s).")
                               % {"n": n, "day": day.isoformat(), "end": end.isoformat()})

    def schedule(self) -> dict[int, tuple]:
        """{round: (date, time or None)} of the valid form (rounds without a date left out)."""
        return {n: (self.cleaned_data[d], self.cleaned_data.get(tm)) for n, d, tm in self.schedule_rows
                if self.cleaned_data.get(d)}

    def schedule_fields(self):
        """(round, date field, time field) for the template."""
        return [(n, self[d], self[tm]) for n, d, tm in self.schedule_rows]

    def clean_acceleration(self) -> str:
        return self.cleaned_data.get("acceleration") or self.instance.acceleration or "none"

    def clean_system(self) -> str:
        return self.cleaned_data.get("system") or self.instance.system or "dubov"

    def clean_dubov_rules(self) -> int:
        return int(self.cleaned_data.get("dubov_rules") or self.instance.dubov_rules or 2025)

    def clean_rr_cycles(self) -> int:
        return int(self.cleaned_data.get("rr_cycles") or self.instance.rr_cycles or 1)

    ARBITER = re.compile(r"((IA|FA|NA) )?[^\W\d_][^\d]*?( \d{4,11})?")

    def _arbiter_line(self, line: str, where: str) -> str:
        if control_character_problem(line.replace("\t", " ")):
            raise forms.ValidationError(f"{where}: {control_character_problem(line)}.")
        line = " ".join(line.split())
        if line and not self.ARBITER.fullmatch(line):
            raise forms.ValidationError(
                gettext("%(where)s: write the title (IA, FA, NA, or none), the name and the FIDE id, e.g. "
                  "'IA Jane Doe 1234567'; found %(line)r.") % {"where": where, "line": line})
        if len(line) > 80:
            raise forms.ValidationError(gettext("%(where)s: at most 80 characters.") % {"where": where})
        return line

    def clean_chief_arbiter(self) -> str:
        return self._arbiter_line(self.cleaned_data.get("chief_arbiter", ""), gettext("Chief arbiter"))

    def clean_deputy_arbiters(self) -> str:
        lines = [ln for ln in self.cleaned_data.get("deputy_arbiters", "").splitlines() if ln.strip()]
        return "\n".join(self._arbiter_line(ln, gettext("Line %(n)s") % {"n": i}) for i, ln in enumerate(lines, start=1))

    def clean_unrated_tiebreaks(self) -> str:
        return self.cleaned_data.get("unrated_tiebreaks") or self.instance.unrated_tiebreaks or "drop"

    def clean_final_ties(self) -> str:
        return self.cleaned_data.get("final_ties") or self.instance.final_ties or "share"

    def clean_rate_of_play(self) -> str:
        return self.cleaned_data.get("rate_of_play") or self.instance.rate_of_play or "standard"

    def clean_rating_method(self) -> str:
        return self.cleaned_data.get("rating_method") or self.instance.rating_method or "FIDON"

    def clean_rating_lists(self) -> str:
        from ..models import list_order_problems

        text = ", ".join(k.strip() for k in self.cleaned_data.get("rating_lists", "").split(",") if k.strip())
        problems = list_order_problems(text, self.instance.list_owners())
        if problems:
            raise forms.ValidationError(problems)
        return text

    def clean_tie_order(self) -> str:
        return self.cleaned_data.get("tie_order") or self.instance.tie_order or "name"

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))[:60]
        if not slug:
            if self.cleaned_data.get("name"):
                raise forms.ValidationError(
                    _("The name has no letters or digits an address can use; type an address (a-z, 0-9, hyphens).")
                )
            raise forms.ValidationError(_("Give the tournament a name or an address."))
        clash = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(gettext("The address %(slug)r is taken; choose another.") % {"slug": slug})
        return slug

    def clean_federation(self) -> str:
        return _clean_federation(self.cleaned_data.get("federation", ""))

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if rounds is None or not 1 <= rounds <= 99:
            raise forms.ValidationError(_("A tournament has between 1 and 99 rounds."))
        if rounds < self.rounds_published:
            raise forms.ValidationError(gettext("%(n)s rounds are already paired.") % {"n": self.rounds_published})
        self._keep_burstein_seeding_rounds(rounds)
        return rounds

    def _keep_burstein_seeding_rounds(self, rounds: int) -> None:
        """Burstein 1.6.2: the seeding rounds (paired by the Dutch rules) are half the rounds,
        at most four.  Once rounds are published, a new number of rounds may not move a
        published round to the other side of that line: it was paired, and is checked, as
        one or the other."""
        from ..engine import burstein_seeding_rounds

        if self.instance.system != "burstein" or not self.rounds_published:
            return
        before, after = burstein_seeding_rounds(self.instance.rounds), burstein_seeding_rounds(rounds)
        moved = [n for n in range(min(before, after) + 1, max(before, after) + 1) if n <= self.rounds_published]
        if moved:
            raise forms.ValidationError(gettext(
                "With %(rounds)s rounds the Burstein system has %(after)s seeding rounds (1.6.2: half the rounds, "
                "at most four), not %(before)s: round %(round)s, published, was paired as %(kind)s. Choose a number "
                "of rounds with %(before)s seeding rounds.") % {
                    "rounds": rounds, "after": after, "before": before, "round": moved[0],
                    "kind": gettext("a seeding round") if after < before else gettext("a round after them")})

    def clean_tiebreaks(self) -> str:
        from ..tiebreaks import parse_order

        text = self.cleaned_data.get("tiebreaks", "")
        try:
            order = parse_order(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        twice = sorted({tb.value for tb in order if order.count(tb) > 1})
        if twice:
            raise forms.ValidationError(gettext("%(codes)s is listed twice; each tie-break goes in the order once.") % {"codes": ", ".join(twice)})
        return ", ".join(tb.value for tb in order)

    def clean(self):
        data = super().clean()
        win, draw, loss = data.get("point_win"), data.get("point_draw"), data.get("point_loss")
        pab, half = data.get("point_pab"), data.get("point_half_bye")
        if None not in (win, draw, loss):
            if not win > draw >= loss >= 0:
                self.add_error("point_draw", gettext("Points must satisfy win > draw ≥ loss ≥ 0."))
            for name, value in (("point_pab", pab), ("point_half_bye", half)):
                if value is not None and not Decimal(0) <= value <= win:
                    self.add_error(name, gettext("Between 0 and the points for a win."))
        if data.get("acceleration") == "baku" and None not in (win, draw, loss) and (win, draw, loss) != self.STANDARD:
            self.add_error(
                "acceleration",
                gettext("Baku acceleration applies only with the standard scoring: win 1, draw ½, loss 0 (C.04.5.1)."),
            )
        if data.get("system") == "round-robin":
            self._round_robin(data)
        if data.get("dubov_rules") == 1997 and data.get("system") not in (None, "dubov") \
                and not self.fields["dubov_rules"].disabled:
            self.add_error("dubov_rules", gettext("The rules of 1997 are the Dubov system's: choose the FIDE Dubov "
                                                  "system, or the 2025 text."))
        self._tiebreak_rules(data)
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", gettext("The tournament cannot end before it starts."))
        else:
            self._clean_schedule(data)
        if self.instance.fide_mode and None not in (win, draw, loss):
            self._fide_mode_values(win, draw, loss, pab)
        return data

    STANDARD = (Decimal("1"), Decimal("0.5"), Decimal("0"))

    def _tiebreak_rules(self, data: dict) -> None:
        """A fixed rating for unrated players needs the rating; each round's rating only
        for an event over 30 days (C.07 10)."""
        rating = data.get("unrated_tiebreak_rating")
        if data.get("unrated_tiebreaks") == "fixed":
            if rating is None:
                self.add_error("unrated_tiebreak_rating", gettext("Give the rating unrated players count at."))
            elif not 1 <= rating <= 3500:
                self.add_error("unrated_tiebreak_rating", gettext("A rating between 1 and 3500."))
        elif rating is not None and not 1 <= rating <= 3500:
            self.add_error("unrated_tiebreak_rating", gettext("A rating between 1 and 3500."))
        if data.get("ratings_per_round") and not data.get("long_event"):
            self.add_error(
                "ratings_per_round",
                gettext("Each round's rating is for events over 30 days: tick 'event over 30 days' too."),
            )

    def _fide_mode_values(self, win: Decimal, draw: Decimal, loss: Decimal, pab: Decimal | None) -> None:
        """Values FIDE mode does not accept at all (VCL4THP Q74, Q81, Q83)."""
        if 2 * draw > win + loss:
            self.add_error(
                "point_draw",
                gettext("In FIDE mode two draws cannot be worth more than a win and a loss "
                  "(%(draw)s + %(draw)s > %(win)s + %(loss)s).") % {"draw": draw, "win": win, "loss": loss},
            )
        if pab is not None and (win, draw, loss) == self.STANDARD and pab not in self.STANDARD:
            self.add_error("point_pab", gettext("In FIDE mode, with 1-½-0 scoring, the PAB is worth 1, ½ or 0."))

    BUCHHOLZ = ("BH", "FB", "AOB", "ARO", "APRO", "APPO")

    def _round_robin(self, data: dict) -> None:
        """A round robin is not accelerated, and ranks without the Buchholz family: in it
        every player meets the same opponents (C.07)."""
        if data.get("acceleration") == "baku":
            self.add_error("acceleration", gettext("Acceleration is for Swiss tournaments; a round robin has none."))
        from ..tiebreaks import parse_order

        try:
            order = parse_order(data.get("tiebreaks") or "")
        except ValueError:
            return
        refused = [tb.value for tb in order if tb.value.split("-")[0] in self.BUCHHOLZ]
        if refused:
            self.add_error(
                "tiebreaks",
                gettext("%(codes)s: the Buchholz family compares opponents, who are the same for everyone in a "
                  "round robin (C.07). Use e.g. DE, SB, WIN, KS.") % {"codes": ", ".join(refused)},
            )

    def fixed_changes(self) -> list[str]:
        """The settings fixed by the rules that this form changes."""
        return [f for f in self.FIXED_FIELDS if f in self.changed_data]

    def save(self, commit: bool = True) -> Tournament:
        t = super().save(commit=False)
        if not self.rounds_published and t.initial_colour_method == ColourMethod.LOT:
            if "initial_colour_method" in self.changed_data or not t.pk:
                t.draw_initial_colour()
        if commit:
            t.save()
            if self.schedule_sent:
                self.save_schedule(t)
        return t

    def save_schedule(self, t: Tournament) -> None:
        """Store the round schedule of the form: one row per round with a date, none for
        the others (a round beyond the number of rounds goes too)."""
        from ..models import ScheduledRound

        wanted = self.schedule()
        rows = {r.number: r for r in t.schedule.all()}
        for n, row in rows.items():
            if n not in wanted:
                row.delete()
        for n, (day, time) in wanted.items():
            row = rows.get(n)
            if row is None:
                ScheduledRound.objects.create(tournament=t, number=n, date=day, time=time)
            elif (row.date, row.time) != (day, time):
                row.date, row.time = day, time
                row.save(update_fields=["date", "time"])


class DeputyForm(forms.Form):
    """A username for the arbiter team.  It is not looked up: whether an account of
    that name exists is not disclosed (the invitation waits for it)."""

    username = forms.CharField(max_length=150)

    def clean_username(self):
        return self.cleaned_data["username"].strip()

    def clean(self):
        refuse_control_characters(self)
        return super().clean()
