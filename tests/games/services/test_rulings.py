import pytest

import eventstore
from core.errors import PermissionDeniedError, ValidationError
from games.engine.errors import IllegalActionError
from games.models import Match, MatchHand
from games.projections import match_rebuild, match_rows, projections_rebuild
from games.selectors import match_replay, match_view_for
from games.services import match_act, match_create, match_rule
from games.signals import match_finished
from tests.factories import UserFactory
from tests.games.services.helpers import knock_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob, organiser):
    return match_create(
        player1=alice,
        player2=bob,
        first_dealer=alice,
        decks=[knock_deck(), knock_deck()],
        organisers=[organiser],
    )


def test_voiding_a_hand_is_an_event_and_the_hand_is_dealt_again(match, bob, organiser):
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    match_rule(match_id=match.id, by=organiser, type="void_hand", reason="card exposed")
    events = eventstore.load(stream_id=match.stream_id, after_version=3)
    assert [e.type for e in events] == ["HandVoided", "HandDealt"]
    voided = events[0]
    assert voided.data["reason"] == "card exposed" and voided.data["by"] == "referee"
    assert voided.metadata["ruling_by"] == organiser.pk
    assert events[1].data["hand_number"] == 2 and events[1].data["dealer"] == 0
    hand = MatchHand.objects.get(match=match)
    assert hand.voided and hand.kind == "void" and hand.void_reason == "card exposed"
    # A replay shows the ruling where it happened, and not before.
    assert match_replay(match=match, user=organiser, version=3)["state"]["rulings"] == []
    at_ruling = match_replay(match=match, user=organiser, version=4)["state"]
    assert at_ruling["rulings"][0]["type"] == "HandVoided"
    assert match_view_for(match=match, user=bob.user)["rulings"][0]["reason"] == "card exposed"


def test_adjusting_a_score(match, alice, bob, organiser):
    match_rule(
        match_id=match.id,
        by=organiser,
        type="adjust_score",
        reason="miscount in hand 1",
        player=alice,
        game=1,
        points=15,
    )
    row = Match.objects.get(pk=match.pk)
    assert row.scoresheet["games"][0]["scores"] == [15, 0]
    assert row.points_p1 == 15
    last = eventstore.load(stream_id=match.stream_id)[-1]
    assert last.type == "ScoreAdjusted" and last.data["seat"] == 0
    # Ruled while hand 1 was in play: replayable once that hand has ended.
    match_act(match_id=match.id, player=bob, action={"type": "draw", "source": "discard"})
    match_act(match_id=match.id, player=bob, action={"type": "knock", "card": "KS"})
    before = match_replay(match=match, user=organiser, version=last.version - 1)["state"]
    replayed = match_replay(match=match, user=organiser, version=last.version)["state"]
    assert before["rulings"] == [] and replayed["rulings"][-1]["type"] == "ScoreAdjusted"
    players = [str(match.player1_id), str(match.player2_id)]
    assert replayed["scoresheet"]["games"][0]["scores"] == dict(zip(players, [15, 0], strict=True))
    adjusted = replayed["rulings"][-1]
    assert (adjusted["seat"], adjusted["player"]) == (0, match.player1_id)


def test_forfeit_finishes_the_match_and_signals_after_commit(
    match, bob, organiser, django_capture_on_commit_callbacks
):
    received = []

    def receiver(sender, match_id, **kwargs):
        received.append(match_id)

    match_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            match_rule(
                match_id=match.id, by=organiser, type="forfeit", reason="no show", player=bob
            )
            assert received == []  # not before the commit
        # One deferred action of the service's own (the metrics count after commit too).
        assert len([c for c in callbacks if c.__module__ != "core.metrics"]) == 1
    finally:
        match_finished.disconnect(receiver)
    assert received == [match.id]
    row = Match.objects.get(pk=match.pk)
    assert row.status == "finished" and row.winner_id == bob.pk
    assert row.finish_reason == "forfeit" and row.finished_at is not None
    types = [e.type for e in eventstore.load(stream_id=match.stream_id, after_version=2)]
    assert types == ["MatchForfeited", "MatchFinished"]
    with pytest.raises(IllegalActionError):
        match_act(match_id=match.id, player=bob, action={"type": "pass"})


def test_a_player_resigns(match, alice, bob):
    match_act(match_id=match.id, player=alice, action={"type": "resign"})
    row = Match.objects.get(pk=match.pk)
    assert row.winner_id == bob.pk and row.finish_reason == "resigned"


def test_an_organiser_records_a_resignation(match, alice, organiser):
    match_rule(match_id=match.id, by=organiser, type="resign", reason="phoned in", player=alice)
    last = eventstore.load(stream_id=match.stream_id)[-2]
    assert last.type == "PlayerResigned" and last.metadata["reason"] == "phoned in"


def test_rulings_need_an_organiser_and_a_reason(match, bob):
    with pytest.raises(PermissionDeniedError):
        match_rule(match_id=match.id, by=bob.user, type="void_hand", reason="I lost")
    with pytest.raises(PermissionDeniedError):
        match_rule(match_id=match.id, by=UserFactory(), type="void_hand", reason="x")
    staff = UserFactory(is_staff=True)
    with pytest.raises(ValidationError):
        match_rule(match_id=match.id, by=staff, type="void_hand", reason="  ")
    with pytest.raises(ValidationError):
        match_rule(match_id=match.id, by=staff, type="rewind", reason="x")
    with pytest.raises(ValidationError):
        match_rule(match_id=match.id, by=staff, type="forfeit", reason="x")
    assert eventstore.stream_version(stream_id=match.stream_id) == 2


def test_cancelling_a_match_ends_it_unplayed(
    match, alice, bob, organiser, django_capture_on_commit_callbacks
):
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    received = []

    def receiver(sender, match_id, **kwargs):
        received.append(match_id)

    match_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            match_rule(match_id=match.id, by=organiser, type="cancel", reason=" round re-paired ")
    finally:
        match_finished.disconnect(receiver)
    assert received == [match.id]  # finished like any other match, once
    row = Match.objects.get(pk=match.pk)
    assert row.status == "finished" and row.winner_id is None and row.turn_player_id is None
    assert row.finish_reason == "cancelled" and row.finished_at is not None
    last = eventstore.load(stream_id=match.stream_id)[-1]
    assert last.type == "MatchCancelled" and last.version == row.version
    assert last.data == {"reason": "round re-paired", "by": "referee"}
    assert last.metadata["ruling_by"] == organiser.pk
    view = match_view_for(match=row, user=alice.user)
    assert view["finish_reason"] == "cancelled" and view["legal_actions"] == []
    with pytest.raises(IllegalActionError) as refused:
        match_act(match_id=match.id, player=alice, action={"type": "draw", "source": "stock"})
    assert refused.value.rule == "8 match end"
    with pytest.raises(IllegalActionError):
        match_rule(match_id=match.id, by=organiser, type="cancel", reason="again")
    assert eventstore.stream_version(stream_id=match.stream_id) == row.version


def test_a_cancelled_match_rebuilds_to_the_same_rows(match, organiser):
    match_rule(match_id=match.id, by=organiser, type="cancel", reason="withdrawn")
    before = match_rows(match)
    assert before["finish_reason"] == "cancelled"
    match_rebuild(match=Match.objects.get(pk=match.pk))
    assert match_rows(match) == before
    projections_rebuild()
    assert match_rows(match) == before


@pytest.mark.parametrize(
    "end",
    [
        {"type": "cancel", "reason": "withdrawn"},
        {"type": "forfeit", "reason": "no-show", "winner": "alice"},
        {"type": "resign", "reason": "phoned in", "player": "bob"},
    ],
    ids=["cancel", "forfeit", "resign"],
)
def test_a_hand_cut_short_by_the_end_of_the_match_has_its_row(
    match, alice, bob, organiser, client, end
):
    """The read model (and the match page) lists the hand in play when the match ended,
    as the API's hands do; the incremental rows equal the rebuilt ones."""
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    people = {"alice": alice, "bob": bob}
    ruling = {k: people.get(v, v) if k in ("winner", "player") else v for k, v in end.items()}
    if "winner" in ruling:
        ruling["player"] = ruling.pop("winner")
    match_rule(match_id=match.id, by=organiser, **ruling)
    row = MatchHand.objects.get(match=match)
    assert (row.hand_number, row.kind, row.points, row.winner_id) == (1, "unfinished", 0, None)
    assert row.version == eventstore.stream_version(stream_id=match.stream_id)
    before = match_rows(match)
    match_rebuild(match=Match.objects.get(pk=match.pk))
    assert match_rows(match) == before
    projections_rebuild()
    assert match_rows(match) == before
    client.force_login(alice.user)
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200 and "Unfinished: the match ended" in page.content.decode()


def test_a_match_won_on_the_games_has_no_unfinished_hand(organiser):
    from demo.bots import match_play_bots
    from tests.factories import BotPlayerFactory

    played = match_create(
        player1=BotPlayerFactory(),
        player2=BotPlayerFactory(),
        ruleset={"game_target": 25, "end_when_decided": True},
        seed="no-unfinished",
    )
    played = match_play_bots(match_id=played.id)
    assert played.status == "finished" and played.finish_reason == "games"
    kinds = set(MatchHand.objects.filter(match=played).values_list("kind", flat=True))
    assert kinds and "unfinished" not in kinds


def test_only_an_organiser_cancels_and_with_a_reason(match, bob):
    with pytest.raises(PermissionDeniedError):
        match_rule(match_id=match.id, by=bob.user, type="cancel", reason="I'd rather not")
    with pytest.raises(ValidationError):
        match_rule(match_id=match.id, by=UserFactory(is_staff=True), type="cancel", reason=" ")
    assert Match.objects.get(pk=match.pk).status == "in_progress"
    assert eventstore.stream_version(stream_id=match.stream_id) == 2
