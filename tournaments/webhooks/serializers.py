"""Input and output shapes of the webhooks API. The secret appears in one shape only: the
answer to a creation (or a rotation)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.webhooks.models import Delivery
from tournaments.webhooks.selectors import WEBHOOK_EVENT_TYPES as EVENT_TYPES

EVENT_TYPES_HELP = "Event types to send (empty: every type). One of: " + ", ".join(EVENT_TYPES)


class WebhookCreateInputSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=2000, help_text="http(s); public addresses only.")
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_TYPES),
        required=False,
        max_length=len(EVENT_TYPES),
        help_text=EVENT_TYPES_HELP,
    )
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)


class WebhookUpdateInputSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=2000, required=False)
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_TYPES),
        required=False,
        max_length=len(EVENT_TYPES),
        help_text=EVENT_TYPES_HELP,
    )
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    is_active = serializers.BooleanField(required=False, help_text="false: pause deliveries.")
    rotate_secret = serializers.BooleanField(
        required=False, default=False, help_text="A new secret, shown in this answer only."
    )


class RedeliverFromInputSerializer(serializers.Serializer):
    from_position = serializers.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        help_text="The event's position (version) in the tournament's stream to start from.",
    )


class WebhookOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    url = serializers.CharField()
    event_types = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField()
    is_active = serializers.BooleanField()
    secret_prefix = serializers.CharField(help_text="The secret's first characters only.")
    cursor = serializers.IntegerField(
        help_text="Position of the last event turned into deliveries."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class WebhookWithSecretOutputSerializer(WebhookOutputSerializer):
    secret = serializers.CharField(
        help_text="The signing secret, shown in this answer only: keep it now."
    )


class WebhookUpdatedOutputSerializer(WebhookOutputSerializer):
    secret = serializers.CharField(
        required=False, help_text="With `rotate_secret` only: the new secret, shown this once."
    )


class RedeliveredOutputSerializer(serializers.Serializer):
    queued = serializers.IntegerField(help_text="Deliveries queued to be sent again.")


class DeliveryOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Delivery
        fields = [
            "id",
            "uid",
            "event_id",
            "event_position",
            "event_type",
            "status",
            "attempts",
            "next_attempt_at",
            "last_attempt_at",
            "last_status_code",
            "last_latency_ms",
            "last_response",
            "last_error",
            "delivered_at",
            "redeliveries",
            "redelivered_at",
            "created_at",
        ]
        read_only_fields = fields


class DeliveryFilterInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Delivery.Status.choices, required=False)
