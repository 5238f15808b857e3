from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.oracles import max_matching_size
from tournaments.pairing._matching import augment, matching_size, maximum_matching


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=0, max_value=11))
    pairs = [frozenset((a, b)) for a in range(n) for b in range(a + 1, n)]
    edges = {p for p in pairs if draw(st.booleans())}
    return n, edges


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
@given(graphs(), st.data())
def test_repair_after_deleting_vertices_by_searching_from_their_mates(graph, data):
    n, edges = graph
    mate = maximum_matching(*adjacency(n, edges))
    gone = set(data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=2))) if n else set()
    rest = [v for v in range(n) if v not in gone]
    kept = {v: w for v, w in mate.items() if v not in gone and w not in gone}
    freed = [mate[g] for g in gone if g in mate and mate[g] not in gone]
    lists = [[w for w in rest if frozenset((v, w)) in edges] for v in range(n)]
    for v in freed:
        augment(v, rest, lists.__getitem__, kept)
    sub_edges = {e for e in edges if not e & gone}
    relabel = {v: i for i, v in enumerate(rest)}
    renamed = {frozenset(relabel[v] for v in e) for e in sub_edges}
    assert len(kept) // 2 == max_matching_size(len(rest), renamed)


def test_odd_cycles_need_blossoms():
    # Two triangles joined by an edge, plus a pendant: greedy alone can get stuck.
    edges = {frozenset(e) for e in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (5, 6)]}
    assert matching_size(*adjacency(7, edges)) == 3
    five_cycle = {frozenset((i, (i + 1) % 5)) for i in range(5)} | {frozenset((0, 5))}
    assert matching_size(*adjacency(6, five_cycle)) == 3
