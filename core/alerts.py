"""Alerts a club sees (STYLE 20): a round that cannot be paired, a job that failed for
good, beat silent. Each is a row (core.models.Alert), raised once per key while it is open:
shown on the organiser's desk for its tournament (web.desk), e-mailed once to the
tournament's organisers and to ADMINS, and counted in /metrics (hg_alerts_open by kind).

Core knows no tournament: the tournaments app registers who the organisers of a
tournament are and which tournament a job concerns (`recipients_register`,
`job_tournament_register`, in its AppConfig.ready)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.core.mail import mail_admins, send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from core.models import Alert

log = logging.getLogger(__name__)

# The words of each kind, translated when shown or sent; params fill them.
MESSAGES = {
    Alert.Kind.ROUND_UNPAIRABLE: gettext_noop(
        "Round %(round)s could not be paired automatically: %(reason)s. Pair it from the desk."
    ),
    Alert.Kind.JOB_FAILED: gettext_noop(
        "A background job (%(task)s) failed for good: %(error)s. Tell whoever runs the server."
    ),
    Alert.Kind.BEAT_SILENT: gettext_noop(
        "The scheduler (celery beat) has been silent for %(seconds)s seconds: scheduled rounds "
        "and deadlines are not being enforced."
    ),
}

# tournament id -> (e-mail addresses of its organisers, the tournament's language)
_recipients: Callable[[int], tuple[list[str], str]] | None = None
# task name -> (the job's args -> the tournament it concerns, or None)
_job_tournaments: dict[str, Callable[[Sequence[Any]], int | None]] = {}


def recipients_register(find: Callable[[int], tuple[list[str], str]]) -> None:
    global _recipients
    _recipients = find


def job_tournament_register(task: str, find: Callable[[Sequence[Any]], int | None]) -> None:
    _job_tournaments[task] = find


def alert_message(alert: Alert) -> str:
    """The alert's words in the active language."""
    params = {"round": "", "reason": "", "task": "", "error": "", "seconds": ""}
    params.update({k: str(v) for k, v in (alert.params or {}).items()})
    return gettext(MESSAGES[Alert.Kind(alert.kind)]) % params


def alert_raise(
    *, kind: str, key: str, tournament_id: int | None = None, params: dict | None = None
) -> Alert | None:
    """Raise an alert unless one with `key` is open: the new one, or None. It is e-mailed
    once its transaction commits."""
    if Alert.objects.filter(key=key, resolved_at__isnull=True).exists():
        return None
    try:
        with transaction.atomic():
            alert = Alert.objects.create(
                kind=kind, key=key, tournament_id=tournament_id, params=params or {}
            )
    except IntegrityError:
        return None  # raised meanwhile by another process
    log.warning("alert raised: %s", key, extra={"alert": kind, "tournament_id": tournament_id})
    transaction.on_commit(lambda: _send(alert))
    return alert


def alert_resolve(*, key: str) -> int:
    """Close the open alert with `key` (its cause is gone): how many were closed."""
    return Alert.objects.filter(key=key, resolved_at__isnull=True).update(
        resolved_at=timezone.now()
    )


def alerts_open(*, tournament_id: int) -> list[Alert]:
    """The open alerts of a tournament, and those of the whole installation (no tournament):
    what its organisers' desk shows."""
    return list(
        Alert.objects.filter(resolved_at__isnull=True).filter(
            Q(tournament_id=tournament_id) | Q(tournament_id__isnull=True)
        )[:20]
    )


def job_failed_for_good(*, task: str, args: Sequence[Any], error: BaseException) -> Alert | None:
    """Celery's task_failure (config.celery): a job with no retry left."""
    find = _job_tournaments.get(task)
    tournament_id = None
    if find is not None:
        try:
            tournament_id = find(args)
        except Exception:  # noqa: BLE001 - the alert matters more than its tournament
            tournament_id = None
    detail = f"{type(error).__name__}"
    return alert_raise(
        kind=Alert.Kind.JOB_FAILED,
        key=f"job_failed:{task}:{list(args)!r}"[:200],
        tournament_id=tournament_id,
        params={"task": task, "error": detail},
    )


def _send(alert: Alert) -> None:
    """E-mail the alert to its tournament's organisers (in the tournament's language) and
    to ADMINS. A mail server that fails is logged, never raised: the desk shows it anyway."""
    addresses: list[str] = []
    language = settings.LANGUAGE_CODE
    if alert.tournament_id is not None and _recipients is not None:
        try:
            addresses, language = _recipients(alert.tournament_id)
        except Exception:  # noqa: BLE001
            log.warning("alert %s: its organisers not found", alert.key, exc_info=True)
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = gettext("Hollywood Gin needs attention")
        body = alert_message(alert)
    try:
        if addresses:
            send_mail(
                settings.EMAIL_SUBJECT_PREFIX + subject,
                body,
                settings.DEFAULT_FROM_EMAIL,
                addresses,
                fail_silently=False,
            )
        mail_admins(subject, f"{body}\n\n[{alert.kind} {alert.key}]", fail_silently=False)
    except Exception:  # noqa: BLE001
        log.warning("alert %s not e-mailed", alert.key, exc_info=True)
