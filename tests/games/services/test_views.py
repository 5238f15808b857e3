import pytest

from core.errors import ConflictError, PermissionDeniedError
from games.engine.state import commitment
from games.selectors import match_events_for, match_replay, match_view_for
from games.services import match_act, match_create, match_rule
from tests.factories import UserFactory
from tests.games.services.helpers import JUNK, KNOCKER, knock_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob, organiser):
    match = match_create(
        player1=alice,
        player2=bob,
        first_dealer=alice,
        decks=[knock_deck()],
        organisers=[organiser],
    )
    return match


def _finish_first_hand(match, bob):
    match_act(match_id=match.id, player=bob, action={"type": "draw", "source": "discard"})
    match_act(match_id=match.id, player=bob, action={"type": "knock", "card": "KS"})


def test_each_player_sees_only_their_own_cards(match, alice, bob):
    mine = match_view_for(match=match, user=bob.user)
    theirs = match_view_for(match=match, user=alice.user)
    assert sorted(mine["your_cards"]) == sorted(KNOCKER)
    assert sorted(theirs["your_cards"]) == sorted(JUNK)
    assert mine["opponent_card_count"] == 10
    assert mine["turn"] == bob.pk and mine["dealer"] == alice.pk
    assert mine["legal_actions"] == [{"type": "draw", "source": "discard"}, {"type": "pass"}]
    assert theirs["legal_actions"] == []
    assert mine["discard_pile"] == ["QS"] and mine["stock_count"] == 31
    assert mine["players"] == [
        {"id": alice.pk, "name": "Alice", "seat": 0},
        {"id": bob.pk, "name": "Bob", "seat": 1},
    ]


def test_a_spectator_sees_no_cards(match):
    view = match_view_for(match=match, user=UserFactory())
    assert view["your_cards"] is None and view["legal_actions"] == []
    text = repr(view)
    for card in KNOCKER + JUNK:
        assert f"'{card}'" not in text


def test_finished_hands_reveal_deck_and_salt_to_players_and_organisers_only(
    match, alice, bob, organiser
):
    _finish_first_hand(match, bob)
    for user in (alice.user, bob.user, organiser):
        hand = match_view_for(match=match, user=user)["hands"][0]
        assert hand["deck"] == knock_deck()
        assert commitment(hand["deck"], hand["salt"]) == hand["commitment"]
        assert hand["knocker"] == bob.pk
    public = match_view_for(match=match, user=UserFactory())["hands"][0]
    assert "deck" not in public and "salt" not in public and "hands" not in public
    assert public["knocker"] == bob.pk and public["kind"] in ("knock", "undercut")
    assert public["knock"]["melds"]  # the layout was face up on the table


def test_scoresheet_in_the_view(match, bob):
    _finish_first_hand(match, bob)
    sheet = match_view_for(match=match, user=bob.user)["scoresheet"]
    assert len(sheet["games"]) == 3
    game1 = sheet["games"][0]
    assert game1["closed"] is False and game1["winner"] is None
    assert sum(game1["scores"].values()) > 0


def test_events_hide_the_deck_and_the_opponents_draws_while_in_play(match, alice, bob):
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    match_act(match_id=match.id, player=alice, action={"type": "pass"})
    match_act(match_id=match.id, player=bob, action={"type": "draw", "source": "stock"})
    stock_top = knock_deck()[21]
    for user, sees in ((bob.user, True), (alice.user, False), (UserFactory(), False)):
        events = match_events_for(match=match, user=user)
        dealt = events[1]
        assert dealt["type"] == "HandDealt"
        assert set(dealt["data"]) == {"hand_number", "dealer", "commitment"}
        drawn = events[-1]
        assert drawn["type"] == "CardDrawn"
        assert (drawn["data"]["card"] == stock_top) is sees
        assert drawn["data"]["card"] in (stock_top, None)
    assert [e["version"] for e in match_events_for(match=match, user=bob.user, after=3)] == [4, 5]


def test_events_reveal_the_deck_once_the_hand_has_ended(match, bob, alice, organiser):
    _finish_first_hand(match, bob)
    for user in (alice.user, organiser):
        dealt = match_events_for(match=match, user=user)[1]["data"]
        assert dealt["deck"] == knock_deck() and dealt["salt"]
    spectator = match_events_for(match=match, user=UserFactory())
    assert "deck" not in spectator[1]["data"]
    # The second hand is in play: its deal is still hidden from everybody.
    second = [e for e in match_events_for(match=match, user=alice.user) if e["type"] == "HandDealt"]
    assert set(second[1]["data"]) == {"hand_number", "dealer", "commitment"}


def test_replay_needs_the_hand_to_have_ended(match, bob, organiser):
    with pytest.raises(ConflictError) as caught:
        match_replay(match=match, user=organiser, version=2)
    assert caught.value.code == "hand_in_play"
    _finish_first_hand(match, bob)
    replayed = match_replay(match=match, user=organiser, version=3)
    state = replayed["state"]
    assert sorted(state["hands"][str(bob.id)]) == sorted(KNOCKER + ["QS"])
    assert len(state["stock"]) == 31 and state["discard_pile"] == []
    with pytest.raises(PermissionDeniedError):
        match_replay(match=match, user=UserFactory(), version=3)
    with pytest.raises(ConflictError):  # hand 2 is in play at the latest version
        match_replay(match=match, user=organiser, version=7)


def test_match_list_and_organiser_rights(match, alice, bob, organiser):
    from games.selectors import match_list_for, user_can_organise_match
    from tests.factories import PlayerFactory

    other = match_create(player1=PlayerFactory(), player2=bob)
    assert set(match_list_for(user=UserFactory())) == {match, other}
    assert list(match_list_for(user=alice.user, mine=True)) == [match]
    assert set(match_list_for(user=bob.user, mine=True)) == {match, other}
    assert list(match_list_for(user=organiser, mine=True)) == []
    assert list(match_list_for(user=bob.user, status="finished")) == []
    assert user_can_organise_match(user=organiser, match=match)
    assert not user_can_organise_match(user=organiser, match=other)
    assert user_can_organise_match(user=UserFactory(is_staff=True), match=other)
    assert not user_can_organise_match(user=alice.user, match=match)


def test_a_match_cancelled_mid_hand_reveals_that_hand_to_players_and_organisers(
    match, alice, bob, organiser
):
    """The hand in play when the match is cancelled can never continue: it is over, and
    revealed to its players and organisers (deck, salt, the stock card drawn, replays of
    every version of it, an "unfinished" record) as an ended hand would be; not to others."""
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    match_act(match_id=match.id, player=alice, action={"type": "pass"})
    match_act(match_id=match.id, player=bob, action={"type": "draw", "source": "stock"})
    match_rule(match_id=match.id, by=organiser, type="cancel", reason="round re-paired")
    stock_top = knock_deck()[21]
    for user in (alice.user, bob.user, organiser):
        events = match_events_for(match=match, user=user)
        dealt = events[1]["data"]
        assert dealt["deck"] == knock_deck()
        assert commitment(dealt["deck"], dealt["salt"]) == dealt["commitment"]
        assert events[-2]["data"]["card"] == stock_top and events[-1]["type"] == "MatchCancelled"
        for version in range(2, events[-1]["version"] + 1):
            assert match_replay(match=match, user=user, version=version)["state"]["salt"]
        record = match_view_for(match=match, user=user)["hands"][0]
        assert record["kind"] == "unfinished" and record["reason"] == "cancelled"
        assert record["deck"] == knock_deck() and record["salt"] == dealt["salt"]
    outsider = UserFactory()
    events = match_events_for(match=match, user=outsider)
    assert set(events[1]["data"]) == {"hand_number", "dealer", "commitment"}
    assert events[-2]["data"]["card"] is None
    record = match_view_for(match=match, user=outsider)["hands"][0]
    assert record["kind"] == "unfinished" and not {"deck", "salt", "hands", "stock"} & set(record)
    with pytest.raises(PermissionDeniedError):
        match_replay(match=match, user=outsider, version=3)
