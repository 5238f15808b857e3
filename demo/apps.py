from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Bots, simulated tournaments and the demo data of `make run`."""

    name = "demo"
    label = "demo"
