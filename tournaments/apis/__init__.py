"""Tournaments API. Thin: validate input, call one service or selector, render. One module
per part of a tournament: `entries` (tournaments, registrations), `rounds` (pairing,
re-pairing, deadlines, rulings, results), `reads` (pairings, standings, the log, CSV) and
`formats` (forbidden pairs, the bracket); `common` is what they share. tournaments/urls.py
routes to the views by these names."""

from tournaments.apis.entries import (
    CheckInApi,
    CheckInUndoApi,
    RegistrationListApi,
    TournamentDetailApi,
    TournamentListApi,
    WithdrawApi,
)
from tournaments.apis.formats import ForbiddenPairsApi, TournamentBracketApi
from tournaments.apis.reads import (
    EventListApi,
    ExchangeApi,
    PairingListApi,
    ResultsCsvApi,
    StandingListApi,
    StandingsCsvApi,
)
from tournaments.apis.rounds import (
    ResultsTakeApi,
    RoundClockApi,
    RoundDeadlineApi,
    RoundListApi,
    RoundPairingsApi,
    RoundRepairApi,
    RoundRuleApi,
    RoundStartApi,
)

__all__ = [
    "CheckInApi",
    "CheckInUndoApi",
    "EventListApi",
    "ForbiddenPairsApi",
    "PairingListApi",
    "RegistrationListApi",
    "ExchangeApi",
    "ResultsCsvApi",
    "ResultsTakeApi",
    "RoundClockApi",
    "RoundDeadlineApi",
    "RoundListApi",
    "RoundPairingsApi",
    "RoundRepairApi",
    "RoundRuleApi",
    "RoundStartApi",
    "StandingListApi",
    "StandingsCsvApi",
    "TournamentBracketApi",
    "TournamentDetailApi",
    "TournamentListApi",
    "WithdrawApi",
]
