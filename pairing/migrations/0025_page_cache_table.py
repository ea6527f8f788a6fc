"""The table of the database cache (settings.CACHES, the default): the public pages of
every tournament, computed once per change and shared by all workers.  Made here rather
than by ``manage.py createcachetable`` so that every start that migrates has it."""

from django.core.management import call_command
from django.db import migrations

TABLE = "dubov_cache"  # settings.CACHE_TABLE


def create(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):

    dependencies = [
        ("pairing", "0024_late_entries"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
