"""Each tournament setting's name as people read it: the label the desk's forms show it
under (web.desk.forms), for the messages that name a setting ("the setting "Play mode"
cannot change once the tournament has started"). The keys are the settings' own names, as
the API takes them and the events keep them (they stay English)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SETTING_LABELS: dict[str, Promise] = {
    "name": _("Name"),
    "is_public": _("Public: anyone may follow it"),
    "starts_at": _("Start (in the tournament's time zone)"),
    "round_interval": _("Round interval"),
    "round_duration": _("Minutes per round"),
    "turn_time": _("Turn time"),
    "dispute_window": _("Dispute window"),
    "rounds_planned": _("Rounds"),
    "tiebreaks": _("Tiebreaks"),
    "time_zone": _("Time zone"),
    "language": _("Language of prints and the wall screen"),
    "ruleset": _("Ruleset"),
    "format": _("Format"),
    "play_mode": _("Play mode"),
    "check_in_required": _("Players check in before round 1"),
}

TIEBREAK_LABELS: dict[str, Promise] = {
    "match_wins": _("match wins"),
    "games_won": _("games won"),
    "points_diff": _("points difference"),
    "buchholz": _("Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "median_buchholz": _("median Buchholz"),
    "head_to_head": _("head-to-head"),
}


def setting_label(name: str) -> Promise | str:
    """The setting's label in the active language when it is shown; its key if it has none."""
    return SETTING_LABELS.get(name, name)
