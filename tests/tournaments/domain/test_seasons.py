"""Season standings (pure): best N of M, participation, and the tie order."""

from __future__ import annotations

from tournaments.domain.seasons import SeasonRules, SeasonTournament, season_standings

RULES = SeasonRules(place_points=(10, 6, 4, 3), participation=1, best_of=2)


def _t(n, places, wins=None, results=()):
    return SeasonTournament(n, places, wins or dict.fromkeys(places, 0), tuple(results))


def test_best_n_of_m_counts_the_best_tournaments_only():
    season = [
        _t(1, {1: 1, 2: 2, 3: 3}),
        _t(2, {1: 4, 2: 1, 3: 2}),
        _t(3, {1: 1, 2: 4, 3: 2}),
    ]
    lines = {line.player: line for line in season_standings(season, RULES)}
    assert lines[1].points == 22 and [c.tournament for c in lines[1].counted] == [1, 3]
    assert lines[2].points == 11 + 7
    assert lines[3].points == 7 + 7 and lines[3].played == 3
    assert [line.rank for line in sorted(lines.values(), key=lambda x: x.rank)] == [1, 2, 3]


def test_every_tournament_counts_without_best_of():
    rules = SeasonRules(place_points=(3, 1), participation=0)
    lines = season_standings([_t(1, {1: 1, 2: 2}), _t(2, {1: 2, 2: 3})], rules)
    assert [(line.player, line.points) for line in lines] == [(1, 4), (2, 1)]


def test_ties_by_tournaments_won_then_match_wins():
    rules = SeasonRules(place_points=(5, 5, 2))
    season = [_t(1, {1: 1, 2: 2, 3: 3}, {1: 3, 2: 3, 3: 0}), _t(2, {1: 2, 2: 3, 3: 1})]
    lines = season_standings(season, rules)
    # 1: 5+5 = 10 (one win); 3: 2+5 = 7; 2: 5+2 = 7 (no win): 3 before 2 on tournaments won.
    assert [(x.player, x.points, x.rank) for x in lines] == [(1, 10, 1), (3, 7, 2), (2, 7, 3)]


def test_the_mini_table_then_shared():
    rules = SeasonRules(place_points=(1, 1, 1, 1))
    results = [(1, 2, 2), (3, 4, None), (1, 3, 1), (2, 4, 2)]
    lines = season_standings([_t(1, {1: 1, 2: 2, 3: 3, 4: 4}, results=results)], rules)
    # Everyone 1 point; tournaments won: player 1 alone; then match wins all 0 (given);
    # the mini-table of 2, 3, 4: 2 beat 4 -> 2 first; 3 and 4 have no win among them: shared.
    assert [(x.player, x.rank, x.shared) for x in lines] == [
        (1, 1, False), (2, 2, False), (3, 3, True), (4, 3, True),
    ]  # fmt: skip


def test_a_stated_order_without_the_mini_table():
    rules = SeasonRules(place_points=(1, 1), tie_order=("shared",))
    lines = season_standings([_t(1, {1: 1, 2: 2})], rules)
    assert [(x.rank, x.shared) for x in lines] == [(1, True), (1, True)]
