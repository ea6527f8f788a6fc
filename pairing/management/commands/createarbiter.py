from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create an arbiter account (a user who can create and run tournaments)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("password")
        parser.add_argument("email", nargs="?", default="")
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")

    def handle(self, *args, username, password, email, first_name, last_name, **options):
        User = get_user_model()
        if not username.strip():
            raise CommandError("The username cannot be empty.")
        if len(password) < 8:
            raise CommandError("Use a password of at least 8 characters.")
        if User.objects.filter(username=username).exists():
            raise CommandError(f"A user called {username!r} already exists.")
        User.objects.create_user(
            username=username, password=password, email=email, first_name=first_name, last_name=last_name
        )
        self.stdout.write(self.style.SUCCESS(f"Arbiter {username!r} created."))
