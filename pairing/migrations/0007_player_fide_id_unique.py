"""A FIDE id is unique within a tournament (when set): two adds at once both saved the
same id, and the rating report repeated it (audit finding 7).

A database that already holds such repeats keeps the id on the player registered first
(lowest row id) and clears it on the others, writing a line of the tournament's audit
trail for each, so that the arbiter can see whom to check; the constraint could not be
created otherwise.
"""

from django.db import migrations, models


def clear_repeated_fide_ids(apps, schema_editor):
    Player = apps.get_model("pairing", "Player")
    AuditEntry = apps.get_model("pairing", "AuditEntry")
    seen: set[tuple[int, str]] = set()
    for p in Player.objects.exclude(fide_id="").order_by("tournament_id", "pk").iterator():
        key = (p.tournament_id, p.fide_id)
        if key not in seen:
            seen.add(key)
            continue
        AuditEntry.objects.create(
            tournament_id=p.tournament_id,
            action="player",
            object_type="player",
            object_id=p.pk,
            label=p.name[:200],
            before={"fide_id": p.fide_id},
            after={"fide_id": ""},
            detail=f"{p.name}: FIDE id {p.fide_id} cleared, another player of the tournament has it "
            "(an upgrade makes FIDE ids unique per tournament).",
        )
        Player.objects.filter(pk=p.pk).update(fide_id="")


class Migration(migrations.Migration):
    dependencies = [
        ("pairing", "0006_player_games_restrict"),
    ]

    operations = [
        migrations.RunPython(clear_repeated_fide_ids, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("fide_id", ""), _negated=True),
                fields=("tournament", "fide_id"),
                name="player_fide_id_unique_per_tournament",
            ),
        ),
    ]
