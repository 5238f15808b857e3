"""Clubs and players. A player may have a login (a Django user) or be a bot."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_clubs", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="player",
    )
    name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="players"
    )
    is_bot = models.BooleanField(default=False)
    rating = models.IntegerField(default=1500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class IdempotencyRecord(models.Model):
    """The first successful response to a POST sent with an `Idempotency-Key` header.

    A retry with the same key (same user, method and path) gets this response back and writes
    nothing; the unique constraint makes a concurrent duplicate fail instead of writing twice.
    `fingerprint` is a hash of the request body, so reusing a key for a different request is
    refused rather than silently answered with an unrelated response.
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
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key", "method", "path"], name="unique_idempotency_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"
