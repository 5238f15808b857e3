from django.apps import AppConfig


class FederationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.federation"
    label = "federation"
    verbose_name = "Federations and their member lists"
