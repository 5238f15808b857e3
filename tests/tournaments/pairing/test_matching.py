from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.oracles import max_matching_size
from tournaments.pairing._matching import matching_size, maximum_matching


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=0, max_value=11))
    pairs = [frozenset((a, b)) for a in range(n) for b in range(a + 1, n)]
    edges = {p for p in pairs if draw(st.booleans())}
    return n, edges


def adjacency(n, edges):
    return [[w for w in range(n) if frozenset((v, w)) in edges] for v in range(n)]


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_matches_brute_force(graph):
    n, edges = graph
    mate = maximum_matching(adjacency(n, edges))
    for v, w in enumerate(mate):
        if w != -1:
            assert mate[w] == v
            assert frozenset((v, w)) in edges
    assert matching_size(adjacency(n, edges)) == max_matching_size(n, edges)


def test_odd_cycles_need_blossoms():
    # Two triangles joined by an edge, plus a pendant: greedy alone can get stuck.
    edges = {frozenset(e) for e in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (5, 6)]}
    assert matching_size(adjacency(7, edges)) == 3
    five_cycle = {frozenset((i, (i + 1) % 5)) for i in range(5)} | {frozenset((0, 5))}
    assert matching_size(adjacency(6, five_cycle)) == 3
