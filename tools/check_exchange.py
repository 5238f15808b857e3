#!/usr/bin/env python3
"""Check a results exchange file (HGX 1: a team event; HGX 2: an individual tournament;
HGX 3: a bracket's) without trusting the server: Python 3.10+, standard library only.

    python3 -I tools/check_exchange.py event.hgx

The file comes from `manage.py export_exchange ID` (a team event) or `manage.py
export_tournament_exchange ID` (an individual tournament);
docs/explanation/exchange-format.md describes them. Exit status 0 when every check passes,
1 when one fails (each failure is printed), 2 for a file that cannot be read. The checks
live beside this file in tools/hgx_check/ (loaded from there by path, so the two travel
together: copy both).

An individual tournament (HGX 2; hgx_check/individual.py):

  1. the form: the version line, the header records, the 001 and 002 records;
  2. the tables: each table named alike by both its players (opponent, table), player 1
     dealing first, results that agree, a bye alone at its table, nobody twice a round;
  3. the pairing rules: a round robin never pairs two players twice (and pairs every two
     once when nobody withdrew); a Swiss makes no more rematches in a round than the fewest
     any pairing of that round's players could (exactly, for up to 20 players); nobody has
     a second bye while someone paired that round has had none;
  4. the dealers: in a round robin each player deals first in half their matches (rounded
     either way); in a Swiss whoever deals first had dealt first no more often than the
     opponent before that round;
  5. the standings: recomputed from the results with the file's tiebreaks (062) and bye
     settings (072) — match wins, played, games won, points difference, Buchholz,
     Sonneborn-Berger, median Buchholz, byes, rank and shared place — and compared with
     every 002 record and the 001 ranks.

A bracket (HGX 3: a knockout, a double elimination, a Swiss with a top cut;
hgx_check/brackets.py) is checked for 1, 2 and 5 as HGX 2 (a top cut's Swiss rounds for 3
and its qualifiers too: none placed below a player who neither qualified nor withdrew),
and:

  6. the bracket: each bracket match (005) at a table once, its players the winners (a
     double elimination's: the winners or losers) of the matches feeding it, played after
     them, the better seed (the upper slot) dealing first; byes in the first round only
     where the seeding (004) has no player, later only for a withdrawn (007) opponent; a
     match two players should have played has a table; nobody plays once out;
  7. the places: recomputed from the bracket's results (the champion, the final's loser,
     then the players out in each round, the latest first; a top cut's third-place match;
     then the rest in Swiss order) and compared with every 002 rank and place.

A team event (HGX 1; hgx_check/team.py) is checked for:

  1. the form: the version line, the header records, fixed fields that are numbers;
  2. the boards: each board named by both its players alike (opponent, table, board), one
     dealer, results that agree (one won, the other lost, or no winner on both);
  3. the team matches: every team once a round (a bye: team 0000), `boards` boards each,
     board k between the two teams' players, team 1's player listed first;
  4. the pairing rules: a team round robin meets every pair once; a team Swiss makes no
     more rematches in a round than the fewest any pairing of that round's teams could
     (computed here, exactly, for up to 20 teams); byes at most once a team until every
     team has had one;
  5. the dealers: on every team match team 1's player deals first on odd boards and team
     2's on even boards (the rules' alternation);
  6. the standings: recomputed from the board results (a team match won on board wins,
     then Hollywood points, then the board count; match points as the file's 052; bye:
     a won match with every board) and compared with each team's 013 line.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _load_checks():
    """The package tools/hgx_check, by its path (`python3 -I` puts no script directory on
    sys.path): its modules import one another relatively."""
    name = "hgx_check"
    if name in sys.modules:
        return sys.modules[name]
    init = Path(__file__).resolve().with_name(name) / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(init.parent)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_load_checks()
from hgx_check.brackets import check_bracket  # noqa: E402 - loaded by path just above
from hgx_check.common import Unreadable  # noqa: E402
from hgx_check.individual import check_individual  # noqa: E402
from hgx_check.team import check_team  # noqa: E402


def check(text):
    """The failures found in `text` (an empty list: the file passes)."""
    version = text.split("\n", 1)[0].strip()
    if version == "HGX 2":
        return check_individual(text)
    if version == "HGX 3":
        return check_bracket(text)
    return check_team(text)


def main(argv):
    if len(argv) != 2:
        print("usage: check_exchange.py FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            problems = check(f.read())
    except (OSError, UnicodeDecodeError, Unreadable, IndexError) as exc:
        print(f"unreadable: {exc}", file=sys.stderr)
        return 2
    for p in problems:
        print(f"FAIL {p}")
    print("OK: every check passed" if not problems else f"{len(problems)} checks failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
