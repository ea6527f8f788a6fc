"""A one-time device pass: ``manage.py device_pass <username> [--site https://club.example]``.

Prints a link that lets one new device log in as that account while failed logins
(someone guessing from the same address) keep the name locked; the arbiter opens it on
the device, confirms, and logs in with their password.  It works once, for an hour
(arbiter_site.accounts, "device passes").  Give it by a way only the arbiter reads.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from arbiter_site.accounts import PASS_MAX_AGE, device_pass_path


class Command(BaseCommand):
    help = "Print a one-time link that lets a new device log in as USERNAME past a login lock-out."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--site", default="", help="the site's address, put in front of the link's path")

    def handle(self, *args, **opts):
        model = get_user_model()
        user = model.objects.filter(**{model.USERNAME_FIELD: opts["username"]}).first()
        if user is None:
            raise CommandError(f"no account {opts['username']!r}")
        link = opts["site"].rstrip("/") + device_pass_path(user)
        self.stdout.write(f"{link}\nOne use, within {PASS_MAX_AGE // 60} minutes, on the device that is to log in.")
