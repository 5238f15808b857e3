from django.urls import path

from tournaments import apis, streams
from tournaments.webhooks import apis as webhook_apis

urlpatterns = [
    path("", apis.TournamentListApi.as_view(), name="api-tournaments"),
    path("<int:tournament_id>/", apis.TournamentDetailApi.as_view(), name="api-tournament"),
    path(
        "<int:tournament_id>/registrations/",
        apis.RegistrationListApi.as_view(),
        name="api-tournament-registrations",
    ),
    path(
        "<int:tournament_id>/registrations/check-in/",
        apis.CheckInApi.as_view(),
        name="api-tournament-check-in",
    ),
    path(
        "<int:tournament_id>/registrations/check-in/undo/",
        apis.CheckInUndoApi.as_view(),
        name="api-tournament-check-in-undo",
    ),
    path(
        "<int:tournament_id>/registrations/withdraw/",
        apis.WithdrawApi.as_view(),
        name="api-tournament-withdraw",
    ),
    path("<int:tournament_id>/rounds/", apis.RoundListApi.as_view(), name="api-tournament-rounds"),
    path(
        "<int:tournament_id>/rounds/start/",
        apis.RoundStartApi.as_view(),
        name="api-tournament-round-start",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/repair/",
        apis.RoundRepairApi.as_view(),
        name="api-tournament-round-repair",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/pairings/",
        apis.RoundPairingsApi.as_view(),
        name="api-tournament-round-pairings",
    ),
    path(
        "<int:tournament_id>/bracket/",
        apis.TournamentBracketApi.as_view(),
        name="api-tournament-bracket",
    ),
    path(
        "<int:tournament_id>/forbidden-pairs/",
        apis.ForbiddenPairsApi.as_view(),
        name="api-tournament-forbidden-pairs",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/deadline/",
        apis.RoundDeadlineApi.as_view(),
        name="api-tournament-round-deadline",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/clock/",
        apis.RoundClockApi.as_view(),
        name="api-tournament-round-clock",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/rulings/",
        apis.RoundRuleApi.as_view(),
        name="api-tournament-round-rulings",
    ),
    path(
        "<int:tournament_id>/results/take/",
        apis.ResultsTakeApi.as_view(),
        name="api-tournament-results-take",
    ),
    path(
        "<int:tournament_id>/pairings/",
        apis.PairingListApi.as_view(),
        name="api-tournament-pairings",
    ),
    path(
        "<int:tournament_id>/standings/",
        apis.StandingListApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "<int:tournament_id>/standings.csv",
        apis.StandingsCsvApi.as_view(),
        name="api-tournament-standings-csv",
    ),
    path(
        "<int:tournament_id>/results.csv",
        apis.ResultsCsvApi.as_view(),
        name="api-tournament-results-csv",
    ),
    path("<int:tournament_id>/events/", apis.EventListApi.as_view(), name="api-tournament-events"),
    path("<int:tournament_id>/stream/", streams.tournament_stream, name="api-tournament-stream"),
    # Webhooks (tournaments.webhooks): the organisers' endpoints and their delivery logs.
    path(
        "<int:tournament_id>/webhooks/",
        webhook_apis.WebhookListApi.as_view(),
        name="api-tournament-webhooks",
    ),
    path(
        "<int:tournament_id>/webhooks/<int:webhook_id>/",
        webhook_apis.WebhookDetailApi.as_view(),
        name="api-tournament-webhook",
    ),
    path(
        "<int:tournament_id>/webhooks/<int:webhook_id>/deliveries/",
        webhook_apis.DeliveryListApi.as_view(),
        name="api-tournament-webhook-deliveries",
    ),
    path(
        "<int:tournament_id>/webhooks/<int:webhook_id>/deliveries/<int:delivery_id>/redeliver/",
        webhook_apis.DeliveryRedeliverApi.as_view(),
        name="api-tournament-webhook-delivery-redeliver",
    ),
    path(
        "<int:tournament_id>/webhooks/<int:webhook_id>/redeliver/",
        webhook_apis.WebhookRedeliverApi.as_view(),
        name="api-tournament-webhook-redeliver",
    ),
]
