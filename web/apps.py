from django.apps import AppConfig


class WebConfig(AppConfig):
    """The HTML pages: public tournaments, standings and scoresheets."""

    name = "web"
    label = "web"
