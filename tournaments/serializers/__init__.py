"""Input and output shapes of the tournaments API, by what they describe: `setup` (a
tournament, its settings), `rounds` (registrations, rounds, pairings, results,
standings), `events`, `brackets`, and the `fields` they share.

Times are stored in UTC and shown in UTC, ISO 8601 with a `Z`, as everywhere in the API
(the tournament's `time_zone` says how to show them). A time entered without an offset is
read in the tournament's zone, from the serializer context ("zone"), daylight saving
included (zoneinfo); one with an offset is taken as it is.
"""

from __future__ import annotations

from tournaments.serializers.brackets import (
    BracketDestinationSerializer,
    BracketMatchSerializer,
    BracketOutputSerializer,
    BracketProblemSerializer,
)
from tournaments.serializers.events import (
    DeciderOutputSerializer,
    EventDataField,
    EventOutputSerializer,
)
from tournaments.serializers.fields import (
    MAX_ID,
    MAX_ROUNDS,
    ZonedDateTimeField,
    id_field,
    instants_in_utc,
    utc_text,
    zone_context,
)
from tournaments.serializers.rounds import (
    CheckInUndoInputSerializer,
    DeadlineInputSerializer,
    ForbiddenPairSerializer,
    ForbiddenPairsOutputSerializer,
    HandPairingsInputSerializer,
    PairingOutputSerializer,
    PlayerRefInputSerializer,
    ReasonInputSerializer,
    RegistrationOutputSerializer,
    RepairInputSerializer,
    ResultsTakenOutputSerializer,
    RoundClockOutputSerializer,
    RoundOutputSerializer,
    RoundStartInputSerializer,
    RuleInputSerializer,
    StandingOutputSerializer,
    WithdrawInputSerializer,
)
from tournaments.serializers.setup import (
    TournamentCreateInputSerializer,
    TournamentFilterInputSerializer,
    TournamentOutputSerializer,
    TournamentSettingsInputSerializer,
)

__all__ = [
    "BracketDestinationSerializer",
    "BracketMatchSerializer",
    "BracketOutputSerializer",
    "BracketProblemSerializer",
    "CheckInUndoInputSerializer",
    "DeadlineInputSerializer",
    "DeciderOutputSerializer",
    "EventDataField",
    "EventOutputSerializer",
    "ForbiddenPairSerializer",
    "ForbiddenPairsOutputSerializer",
    "HandPairingsInputSerializer",
    "MAX_ID",
    "MAX_ROUNDS",
    "PairingOutputSerializer",
    "PlayerRefInputSerializer",
    "ReasonInputSerializer",
    "RegistrationOutputSerializer",
    "RepairInputSerializer",
    "ResultsTakenOutputSerializer",
    "RoundClockOutputSerializer",
    "RoundOutputSerializer",
    "RoundStartInputSerializer",
    "RuleInputSerializer",
    "StandingOutputSerializer",
    "TournamentCreateInputSerializer",
    "TournamentFilterInputSerializer",
    "TournamentOutputSerializer",
    "TournamentSettingsInputSerializer",
    "WithdrawInputSerializer",
    "ZonedDateTimeField",
    "id_field",
    "instants_in_utc",
    "utc_text",
    "zone_context",
]
