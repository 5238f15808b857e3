"""The webhook services, one module each: endpoints (configuration an organiser manages),
dispatch (events past an endpoint's cursor become deliveries), delivery (sending, retries),
redelivery (by hand, and the reconciler) and retention (old delivery logs). The public
service API: import it from here."""

from tournaments.webhooks.services._common import MAX_ENDPOINTS_PER_TOURNAMENT
from tournaments.webhooks.services.delivery import body_bytes, delivery_send, retry_delay
from tournaments.webhooks.services.dispatch import webhooks_dispatch
from tournaments.webhooks.services.endpoints import (
    EndpointWritten,
    webhook_create,
    webhook_delete,
    webhook_update,
)
from tournaments.webhooks.services.redelivery import (
    delivery_redeliver,
    webhook_redeliver_from,
    webhooks_reconcile,
)
from tournaments.webhooks.services.retention import deliveries_prune

__all__ = [
    "MAX_ENDPOINTS_PER_TOURNAMENT",
    "EndpointWritten",
    "body_bytes",
    "deliveries_prune",
    "delivery_redeliver",
    "delivery_send",
    "retry_delay",
    "webhook_create",
    "webhook_delete",
    "webhook_redeliver_from",
    "webhook_update",
    "webhooks_dispatch",
    "webhooks_reconcile",
]
