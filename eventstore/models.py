"""Stored events, snapshots and subscription checkpoints.

Only `eventstore` writes these rows. Events are append-only for real: the model and
its queryset refuse changes here, and database triggers (games
migration 0002_event_triggers, made again by eventstore 0005 on the partitioned table)
refuse UPDATE and DELETE on PostgreSQL and SQLite, and TRUNCATE on PostgreSQL.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models
from django.utils.translation import gettext, gettext_noop

from eventstore.errors import ImmutableEventError

__all__ = [
    "ChainKeyRecord",
    "Checkpoint",
    "ImmutableEventError",
    "PersonalText",
    "Snapshot",
    "StoredEvent",
    "Subscription",
]


def _refuse(what: str) -> NoReturn:
    raise ImmutableEventError(
        gettext_noop(
            "Stored events are append-only: %(what)s is refused. Record a new event instead."
        ),
        what=what,
    )


class StoredEventQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        _refuse("queryset update()")

    def delete(self) -> NoReturn:
        _refuse("queryset delete()")

    def bulk_update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("bulk_update()")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("update_or_create()")


class StoredEvent(models.Model):
    """One event of one stream. `position` orders events across all streams."""

    position = models.BigAutoField(primary_key=True)
    stream_id = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    schema_version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()
    metadata = models.JSONField(default=dict)
    recorded_at = models.DateTimeField()
    hash = models.CharField(max_length=64)
    # PostgreSQL only (NULL on SQLite): the id of the transaction that wrote the event,
    # for forensics (which events were written together).
    tx_id = models.BigIntegerField(null=True, blank=True)
    # HMAC of `hash` under a key the database does not hold (eventstore.seals); NULL on
    # events written before seals existed. Outside the hash, so old hashes still hold.
    seal = models.CharField(max_length=64, null=True, blank=True)
    # The id of the chain key the seal was made with (eventstore.seals); NULL: the first key.
    key_id = models.CharField(max_length=40, null=True, blank=True)

    objects = StoredEventQuerySet.as_manager()

    class Meta:
        db_table = "eventstore_event"  # partitioned on PostgreSQL: migration 0005
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id", "version"], name="eventstore_event_stream_version_uniq"
            ),
            models.CheckConstraint(
                condition=models.Q(version__gte=1), name="eventstore_event_version_gte_1"
            ),
        ]
        indexes = [models.Index(fields=["type"], name="eventstore_event_type_idx")]

    def __str__(self) -> str:
        return f"{self.stream_id}@{self.version} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            _refuse("save() on an existing event")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("delete()")


class Snapshot(models.Model):
    """A disposable cache of a stream's state at `version`; delete freely, it is rebuilt."""

    stream_id = models.CharField(max_length=200)
    kind = models.CharField(max_length=60)
    version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The chain hash of the event at `version`, a digest of each top-level key of the state,
    # and an HMAC over them under the key the database does not hold (eventstore.seals);
    # NULL on older snapshots.
    event_hash = models.CharField(max_length=64, null=True, blank=True)
    digests = models.JSONField(null=True, blank=True)  # sha256 of each top-level key
    seal = models.CharField(max_length=64, null=True, blank=True)
    key_id = models.CharField(max_length=40, null=True, blank=True)  # of the seal's key

    class Meta:
        db_table = "eventstore_snapshot"
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id", "kind", "version"],
                name="eventstore_snapshot_stream_kind_version",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.stream_id}@{self.version}"


class Checkpoint(models.Model):
    """A signed stream head: stream `stream_id` had reached `version`, whose event's chain
    hash was `hash`, at `created_at` (eventstore.checkpoints). Exported and handed out, it
    lets anyone holding one show that history was later rewritten or cut short."""

    stream_id = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    hash = models.CharField(max_length=64)
    signature = models.CharField(max_length=64)
    key_id = models.CharField(max_length=40, null=True, blank=True)  # of the signature's key
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "eventstore_checkpoint"
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id", "version"], name="eventstore_checkpoint_stream_version"
            )
        ]

    def __str__(self) -> str:
        return gettext("checkpoint %(stream)s@%(version)s") % {
            "stream": self.stream_id,
            "version": self.version,
        }


class Subscription(models.Model):
    """How far a follower of the global event order (projection, feed, webhook) has read."""

    name = models.CharField(max_length=100, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "eventstore_subscription"

    def __str__(self) -> str:
        return gettext("%(name)s at %(position)s") % {"name": self.name, "position": self.position}


class ChainKeyRecord(models.Model):
    """A chain key id that signed here, with a public check value of its secret
    (eventstore.keys): tells a key this install lacks (or holds another secret under the
    same id) from a forged seal. `unlabelled`: the key of the seals made before key ids
    were recorded. Never the key itself."""

    key_id = models.CharField(max_length=40, primary_key=True)
    check_value = models.CharField(max_length=64)
    unlabelled = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "eventstore_chainkey"

    def __str__(self) -> str:
        return self.key_id


class PersonalText(models.Model):
    """Free text an event refers to but does not hold (eventstore.personal): the event's
    data carries `{"$text": id, "sha256": digest}`, the digest an HMAC of the text under
    `salt`. Erasing sets `text` and `salt` to NULL: the event, its hash and its seal stay,
    and without the salt a guessed text can no longer be confirmed against the digest."""

    id = models.BigAutoField(primary_key=True)
    stream_id = models.CharField(max_length=200)
    # What the event's `$text` holds: the row's id where it was written; kept as it was by
    # an import into another install (tournaments.services.imports), whose rows get ids of
    # their own.
    ref = models.BigIntegerField(default=0)
    # Who wrote it: "user:<id>" or "player:<id>" ("" for the server), so that erasing a
    # person erases what they wrote.
    author = models.CharField(max_length=60, blank=True, default="", db_index=True)
    salt = models.CharField(max_length=64, null=True, blank=True)
    text = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "eventstore_personaltext"
        indexes = [models.Index(fields=["stream_id", "ref"], name="eventstore_text_stream_ref")]

    def __str__(self) -> str:
        return f"text {self.pk} of {self.stream_id}"
