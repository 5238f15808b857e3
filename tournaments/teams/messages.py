"""Team events', exchange files' and member lists' fixed messages, for the catalogues
(as config/service_messages.py: the pure domain raises English templates; the one error
path shows them in the reader's language). gettext_noop only marks them for makemessages."""

from django.utils.translation import gettext_noop

TEAM_MESSAGES = [
    gettext_noop("a board's players are its teams'"),
    gettext_noop("a lineup names %(boards)s different players"),
    gettext_noop("a lineup takes players from the team's roster"),
    gettext_noop("a player is on another team's roster"),
    gettext_noop("a roster names at least %(boards)s different players"),
    gettext_noop("a team match has one board each"),
    gettext_noop("at least two teams must be registered"),
    gettext_noop("boards must be 1 to %(max)s"),
    gettext_noop("each team needs a name of its own"),
    gettext_noop("each team once a round"),
    gettext_noop("every board of an imported round has a result"),
    gettext_noop("match points must be win >= draw >= loss >= 0, win > loss"),
    gettext_noop("name two different teams of the event"),
    gettext_noop("no such board in that round"),
    gettext_noop("no such club: %(clubs)s"),
    gettext_noop("no such team"),
    gettext_noop("no such team event"),
    gettext_noop("not a CSV or XLSX member list"),
    gettext_noop("not a results exchange file: %(problem)s"),
    gettext_noop("rounds are imported in order"),
    gettext_noop("rounds must be at least 1"),
    gettext_noop("the captain must be on the roster"),
    gettext_noop("the event has started"),
    gettext_noop("the format must be team_round_robin or team_swiss"),
    gettext_noop("the member list is empty"),
    gettext_noop("the member list needs the columns %(columns)s"),
    gettext_noop("the round is paired: its lineups are fixed"),
    gettext_noop("the team event exists"),
    gettext_noop("the winner must be one of the board's players"),
    gettext_noop("too few match ids for the round"),
    gettext_noop("too few match ids for the round's boards"),
    gettext_noop("two teams that must not meet are in a round robin"),
    gettext_noop("only the team event's organisers may do this"),
    gettext_noop("the roster names a player who does not exist"),
    gettext_noop("no such club"),
]
