"""The shared kernel's models: idempotency records, the outbox, access tokens, heartbeats
and alerts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class IdempotencyRecord(models.Model):
    """The first successful response to a POST sent with an `Idempotency-Key` header.

    A retry with the same key (same user, method and path) gets this response back and writes
    nothing; the unique constraint makes a concurrent duplicate fail instead of writing twice.
    `fingerprint` is a hash of the request body, so reusing a key for a different request is
    refused rather than silently answered with an unrelated response. The answer is kept as
    a `reference` the endpoint re-renders it from, or else compressed in `body_z`; `body`
    (plain JSON) is only in records made before 3.0.0 (core.idempotency).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_records"
    )
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    reference = models.JSONField(null=True)
    body_z = models.BinaryField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "players_idempotencyrecord"  # the table predates the move to core
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key", "method", "path"], name="unique_idempotency_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"


class OutboxMessage(models.Model):
    """A job to queue, written in the transaction of the change that calls for it.

    The transactional outbox (core.outbox): the job is recorded with the write, so it can
    be neither lost (the broker down at commit) nor sent for a write that rolled back; it
    is relayed to the broker right after commit with short timeouts, and otherwise by the
    periodic drain (`core.outbox_drain`)."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    eta = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    # The request that called for the job (core.requestid): its log lines carry it.
    # db_default: the previous release, running while `migrate` runs, inserts without it.
    request_id = models.CharField(max_length=200, blank=True, default="", db_default="")

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"],
                name="outbox_unsent",
                condition=models.Q(sent_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)!r}"


class AccessToken(models.Model):
    """An API token with a lifecycle: a login's (`kind` "login", lasting
    TOKEN_LOGIN_HOURS) or a named one for a bot or an integration (`kind` "named", with an
    optional expiry). Only a digest of the key is stored: the key is shown once, when it is
    issued. Revoking marks the row (`revoked_at`): a client is told why its key is refused."""

    class Kind(models.TextChoices):
        LOGIN = "login", "Login"
        NAMED = "named", "Named (bots, integrations)"

    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=11, editable=False, help_text="The key's first signs.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LOGIN)
    name = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Revoked (logout, or by its owner): refused as `token_revoked`, not as an unknown key,
    # until TOKENS_REFUSED_KEPT_DAYS have passed and a login of its owner deletes it.
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name or self.kind} ({self.prefix}…)"


class Heartbeat(models.Model):
    """When a background process last said it was alive (core.heartbeats): `beat` (celery
    beat's scheduler, each tick) and `worker:<node name>` (each Celery worker, on a timer).
    /readyz fails when the newest of a kind is older than its threshold."""

    name = models.CharField(max_length=200, primary_key=True)
    beat_at = models.DateTimeField()

    class Meta:
        verbose_name = _("heartbeat")
        verbose_name_plural = _("heartbeats")

    def __str__(self) -> str:
        return f"{self.name} @ {self.beat_at:%Y-%m-%d %H:%M:%S}"


class Alert(models.Model):
    """Something a person must look at (core.alerts): a round that cannot be paired, a job
    that failed for good, beat silent. Raised once per `key` while open, shown on the desk
    to the organisers of its tournament (if it has one), e-mailed to them and to ADMINS.
    `params` fill the translated message; they name things by id, never by a person's name."""

    class Kind(models.TextChoices):
        ROUND_UNPAIRABLE = "round_unpairable", _("A round cannot be paired")
        JOB_FAILED = "job_failed", _("A job failed for good")
        BEAT_SILENT = "beat_silent", _("The scheduler (beat) is silent")

    kind = models.CharField(max_length=40, choices=Kind.choices)
    key = models.CharField(max_length=200)
    tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    params = models.JSONField(default=dict, blank=True)
    raised_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=models.Q(resolved_at__isnull=True), name="alert_open_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"
