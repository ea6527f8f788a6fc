"""``manage.py createarbiter <username> [email] [--staff]``: an arbiter account.

``--staff`` makes it a staff account as well: it loads the site's rating lists (FIDE's
among them, and *Update all lists now*) for every arbiter of the site.  Any arbiter loads
national and custom lists of their own without it.

The password never goes on the command line (where ``ps`` and the shell history keep
it): it is asked twice at the terminal, or read from the first line of standard input
with ``--password-stdin``, or from the environment variable ``DJANGO_ARBITER_PASSWORD``.
The site's password validators (AUTH_PASSWORD_VALIDATORS) apply, as on any form.
"""

from __future__ import annotations

import getpass
import os
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

PASSWORD_ENV = "DJANGO_ARBITER_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create an arbiter account (a user who can create and run tournaments). The password is "
        f"asked at the terminal, or read from standard input (--password-stdin) or from ${PASSWORD_ENV}."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("email", nargs="?", default="")
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument(
            "--staff", action="store_true",
            help="a staff account too: it loads the site's rating lists (FIDE's) for everyone",
        )
        parser.add_argument(
            "--password-stdin", action="store_true",
            help="read the password from the first line of standard input (for scripts)",
        )

    def handle(self, *args, username, email, first_name, last_name, password_stdin, staff=False, **options):
        User = get_user_model()
        username = username.strip()
        if not username:
            raise CommandError("The username cannot be empty.")
        max_length = User._meta.get_field(User.USERNAME_FIELD).max_length
        if len(username) > max_length:
            raise CommandError(f"A username has at most {max_length} characters.")
        if User.objects.filter(username=username).exists():
            raise CommandError(f"A user called {username!r} already exists.")
        password = self._password(password_stdin)
        user = User(username=username, email=email, first_name=first_name, last_name=last_name, is_staff=staff)
        try:
            validate_password(password, user=user)
        except ValidationError as exc:
            raise CommandError("The password is refused: " + " ".join(exc.messages)) from exc
        user.set_password(password)
        user.save()
        self.stdout.write(self.style.SUCCESS(f"Arbiter {username!r} created" + (
            " (a staff account: it loads the site's rating lists)." if staff else ".")))

    def _password(self, from_stdin: bool) -> str:
        if from_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        elif os.environ.get(PASSWORD_ENV):
            password = os.environ[PASSWORD_ENV]
        elif sys.stdin.isatty():
            password = getpass.getpass("Password: ")
            if getpass.getpass("Password (again): ") != password:
                raise CommandError("The two passwords differ; nothing was created.")
        else:
            raise CommandError(
                f"No password: run at a terminal to be asked, or pass --password-stdin, or set {PASSWORD_ENV}."
            )
        if not password:
            raise CommandError("The password cannot be empty.")
        return password
