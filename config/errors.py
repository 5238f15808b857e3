"""Error reporting: Sentry when SENTRY_DSN is set (Django's and Celery's integrations:
unhandled errors of requests and jobs, with the request id as a tag), nothing sent
otherwise; without it, Django e-mails a server error to ADMINS (core.logs) and a job that
failed for good raises an alert (core.alerts), which e-mails them too."""

from __future__ import annotations

from typing import Any

from core.context import request_id_var


def sentry_init(*, dsn: str, environment: str, traces_sample_rate: float) -> None:
    # Imported only when SENTRY_DSN is set: no Sentry code loads otherwise.
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,  # people by id, never by name or address (STYLE 19)
        before_send=_with_request_id,
    )


def _with_request_id(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    request_id = request_id_var.get()
    if request_id:
        event.setdefault("tags", {})["request_id"] = request_id
    return event
