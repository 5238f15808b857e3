from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import max_matching_size
from tournaments.pairing._matching import delete_vertices, matching_size, maximum_matching
from tournaments.pairing._rematches import RematchOracle


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=0, max_value=11))
    pairs = [frozenset((a, b)) for a in range(n) for b in range(a + 1, n)]
    edges = {p for p in pairs if draw(st.booleans())}
    return n, edges


@st.composite
def graphs_with_deletions(draw):
    n, edges = draw(graphs())
    gone = draw(st.lists(st.integers(0, n - 1), max_size=3)) if n else []
    return n, edges, gone, draw(st.booleans())


# Deleting 0 and 2 frees 1 and 5; one search from 1 pairs it with 5, but 1-7 and 5-6 is better.
FREED_MATES_JOINED = (8, {frozenset(e) for e in [(0, 1), (2, 5), (1, 5), (5, 6), (1, 7)]}, [0, 2])


def adjacency(n, edges):
    lists = [[w for w in range(n) if frozenset((v, w)) in edges] for v in range(n)]
    return list(range(n)), lists.__getitem__


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_matches_brute_force(graph):
    n, edges = graph
    mate = maximum_matching(*adjacency(n, edges))
    for v, w in mate.items():
        assert mate[w] == v
        assert frozenset((v, w)) in edges
    assert len(mate) // 2 == matching_size(*adjacency(n, edges)) == max_matching_size(n, edges)


@settings(max_examples=300, deadline=None)
@given(graphs_with_deletions())
@example((*FREED_MATES_JOINED, False))
@example((*FREED_MATES_JOINED, True))
def test_repair_after_deleting_vertices_by_searching_from_their_mates(case):
    n, edges, gone, bounded = case
    rest = [v for v in range(n) if v not in gone]
    sub_edges = {e for e in edges if not e & set(gone)}
    relabel = {v: i for i, v in enumerate(rest)}
    renamed = {frozenset(relabel[v] for v in e) for e in sub_edges}
    best = max_matching_size(len(rest), renamed)
    mate = maximum_matching(*adjacency(n, edges))
    kept = delete_vertices(mate, gone, *adjacency(n, edges), at_most=best if bounded else None)
    for v, w in kept.items():
        assert kept[w] == v
        assert v in rest and frozenset((v, w)) in edges
    assert len(kept) // 2 == best


def test_deleting_two_vertices_can_need_two_augmentations():
    n, edges, gone = FREED_MATES_JOINED
    mate = maximum_matching(*adjacency(n, edges))
    assert mate[0] == 1 and mate[2] == 5  # the situation the comment on the example describes
    assert delete_vertices(mate, gone, *adjacency(n, edges)) == {1: 7, 7: 1, 5: 6, 6: 5}


def test_rematch_oracle_without_two_players_who_have_met():
    # "Not met" graph: the path 4-1-3-5, with 0 hanging off 1 and 2 off 3. The oracle's matching
    # is 0-1, 2-3; removing 0 and 2 (who have met) leaves 4-1 and 3-5 to pair.
    not_met = {frozenset(e) for e in [(0, 1), (2, 3), (1, 3), (1, 4), (3, 5)]}
    ids = list(range(6))
    played = {frozenset((a, b)) for a in ids for b in ids if a < b} - not_met
    oracle = RematchOracle(ids, played)
    assert oracle.nu(set(ids)) == 2
    assert oracle.nu_without(set(ids), 0, 2) == 2


def test_odd_cycles_need_blossoms():
    # Two triangles joined by an edge, plus a pendant: greedy alone can get stuck.
    edges = {frozenset(e) for e in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (5, 6)]}
    assert matching_size(*adjacency(7, edges)) == 3
    five_cycle = {frozenset((i, (i + 1) % 5)) for i in range(5)} | {frozenset((0, 5))}
    assert matching_size(*adjacency(6, five_cycle)) == 3
