"""Create the demo organiser (and, once tournaments exist, a demo tournament)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "organiser-demo"  # noqa: S105 - local demo only, printed to the console


class Command(BaseCommand):
    help = "Create a demo organiser account and a demo club tournament played by bots."

    def handle(self, *args: object, **options: object) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo organiser: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}' "
                "(admin at http://127.0.0.1:8000/admin/)"
            )
        )
