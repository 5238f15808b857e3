"""Print a one-time sign-in link for a member of staff or an organiser: the way back in
when password logins are locked out (core.login_throttle) or the password is lost.

    python manage.py staff_signin_link olive
    python manage.py staff_signin_link olive --base-url https://gin.example.org

The link opens the account once, within STAFF_SIGNIN_LINK_MINUTES (15), and clears the
account's failed logins; it is for the person it names only (hand it over as a password).
Players sign in with the desk's one-time codes instead."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from players.services import SigninLinkError, staff_signin_token_issue


class Command(BaseCommand):
    help = "Print a one-time sign-in link for a member of staff or an organiser."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--base-url", default="", help="e.g. https://gin.example.org (default: the path only)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            token = staff_signin_token_issue(username=options["username"])
        except SigninLinkError as exc:
            raise CommandError(exc.message) from exc
        path = reverse("desk-staff-signin", kwargs={"token": token})
        self.stdout.write(options["base_url"].rstrip("/") + path)
