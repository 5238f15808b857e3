"""Tournament services: registration, pairing exactly once, re-pairing, rulings, events."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

import eventstore
from core.errors import PermissionDeniedError, ValidationError
from games.engine.errors import IllegalActionError
from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_act
from tests.tournaments.helpers import FAST_RULES, forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.projections import standings_rebuild
from tournaments.repository import SYSTEM_USERNAME
from tournaments.selectors import pairing_overdue, tournament_stream_events

pytestmark = pytest.mark.django_db


def event_types(tournament: Tournament) -> list[str]:
    return [e.type for e in tournament_stream_events(tournament=tournament)]


def test_create_checks_the_settings_and_the_creator(organiser):
    with pytest.raises(ValidationError):
        services.tournament_create(name="S", format="swiss", created_by=organiser)
    with pytest.raises(ValidationError):
        services.tournament_create(
            name="S", format="swiss", rounds=3, created_by=organiser, time_zone="Mars/Base"
        )
    with pytest.raises(ValidationError):
        services.tournament_create(
            name="S", format="swiss", rounds=3, created_by=organiser, tiebreaks=["luck"]
        )
    nobody = get_user_model().objects.create_user(username="nobody")
    with pytest.raises(PermissionDeniedError):
        services.tournament_create(name="S", format="knockout", created_by=nobody)
    t = services.tournament_create(
        name="S", format="swiss", rounds=3, created_by=organiser, ruleset={"game_target": 50}
    )
    assert t.ruleset["game_target"] == 50 and t.ruleset["games"] == 3
    assert list(t.organisers.all()) == [organiser]
    assert event_types(t) == ["TournamentCreated"]


def test_registration_check_in_and_withdrawal_are_logged_with_who_and_why(organiser):
    players = make_bots(3)
    t = make_tournament(organiser, players[:2])
    with pytest.raises(TournamentConflictError):
        services.tournament_register(tournament_id=t.pk, player=players[0], by=organiser)
    # Checking in twice changes nothing and logs nothing.
    before = len(event_types(t))
    services.tournament_check_in(tournament_id=t.pk, player=players[0], by=organiser)
    assert len(event_types(t)) == before
    services.tournament_withdraw(
        tournament_id=t.pk, player=players[1], by=organiser, reason="feeling unwell"
    )
    last = tournament_stream_events(tournament=t)[-1]
    assert last.type == "PlayerWithdrawn"
    assert last.data["by"] == {"id": organiser.pk}  # by id only (issue 34)
    assert last.data["reason"] == "feeling unwell"


def test_a_player_registers_themselves_but_not_others(organiser):
    user = get_user_model().objects.create_user(username="alex")
    me, other = make_bots(2)
    me.user = user
    me.save()
    t = make_tournament(organiser, [])
    services.tournament_register(tournament_id=t.pk, player=me, by=user)
    with pytest.raises(PermissionDeniedError):
        services.tournament_register(tournament_id=t.pk, player=other, by=user)


def test_round_one_pairs_only_checked_in_players_and_fixes_the_seeds(organiser, jobs):
    players = make_bots(5)
    t = make_tournament(organiser, players[:4])
    services.tournament_register(tournament_id=t.pk, player=players[4], by=organiser)  # no check-in
    with jobs():
        round_ = services.tournament_start(tournament_id=t.pk, by=organiser)
    paired = {p for pg in round_.pairings.all() for p in (pg.player1_id, pg.player2_id)}
    assert paired == {p.pk for p in players[:4]}
    seeds = dict(Registration.objects.filter(tournament=t).values_list("player_id", "seed"))
    # No club: everyone at the default 1500, seeded in the order they entered.
    assert [seeds[p.pk] for p in players[:4]] == [1, 2, 3, 4] and seeds[players[4].pk] is None
    t.refresh_from_db()
    assert t.status == Tournament.Status.IN_PROGRESS and t.rounds_planned == 3
    labels = sorted(pg.match.label for pg in round_.pairings.all())
    assert labels == ["Swiss R1 T1", "Swiss R1 T2"]
    assert all(
        pg.match.ruleset["game_target"] == FAST_RULES["game_target"] for pg in round_.pairings.all()
    )


def test_pairing_a_round_twice_pairs_it_once(organiser, jobs):
    t = make_tournament(organiser, make_bots(4))
    with jobs():
        first = services.tournament_round_pair(tournament_id=t.pk, round_number=1, by=organiser)
        again = services.tournament_round_pair(tournament_id=t.pk, round_number=1, by=organiser)
        also = services.tournament_round_pair(tournament_id=t.pk, round_number=1)
    assert first is not None and again is None and also is None
    assert Round.objects.filter(tournament=t).count() == 1
    assert Pairing.objects.filter(round__tournament=t).count() == 2
    assert event_types(t).count("RoundPaired") == 1


def test_the_scheduler_waits_for_the_start_time_but_an_organiser_need_not(organiser, jobs):
    later = timezone.now() + dt.timedelta(hours=1)
    t = make_tournament(organiser, make_bots(4), starts_at=later)
    assert services.tournament_round_pair(tournament_id=t.pk, round_number=1) is None
    from tournaments.selectors import tournaments_with_rounds_due

    assert tournaments_with_rounds_due() == []
    assert tournaments_with_rounds_due(now=later + dt.timedelta(seconds=1)) == [(t.pk, 1)]
    with jobs():
        assert services.tournament_round_pair(tournament_id=t.pk, round_number=1, by=organiser)


def test_a_round_cannot_be_paired_while_the_previous_one_is_in_play(organiser, jobs):
    t = make_tournament(organiser, make_bots(4))
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with pytest.raises(TournamentConflictError):
        services.tournament_round_pair(tournament_id=t.pk, round_number=2, by=organiser)
    with pytest.raises(TournamentConflictError):
        services.tournament_round_pair(tournament_id=t.pk, round_number=3, by=organiser)


def test_the_last_result_of_a_round_pairs_the_next_one(organiser, jobs):
    t = make_tournament(organiser, make_bots(4), rounds=2)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with jobs():
        forfeit_round(t, organiser)
    t.refresh_from_db()
    assert t.current_round == 2
    r1, r2 = Round.objects.filter(tournament=t).order_by("number")
    assert r1.status == Round.Status.COMPLETED and r2.status == Round.Status.PAIRED
    assert all(p.result_reason == "forfeit" for p in r1.pairings.all())
    # Swiss: the two round-1 winners meet in round 2.
    winners = {p.winner_id for p in r1.pairings.all()}
    assert any({p.player1_id, p.player2_id} == winners for p in r2.pairings.all())
    with jobs():
        forfeit_round(t, organiser)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert event_types(t)[-2:] == ["RoundCompleted", "TournamentFinished"]


def test_a_withdrawn_player_is_not_paired_again(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players, rounds=2)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with jobs():
        services.tournament_withdraw(tournament_id=t.pk, player=players[0], by=organiser)
        forfeit_round(t, organiser)
    r2 = Round.objects.get(tournament=t, number=2)
    paired = {p for pg in r2.pairings.all() for p in (pg.player1_id, pg.player2_id) if p}
    assert players[0].pk not in paired and len(paired) == 3
    assert r2.pairings.filter(player2__isnull=True).count() == 1


def test_withdrawal_can_forfeit_the_match_in_play(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players, rounds=2)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with jobs():
        services.tournament_withdraw(
            tournament_id=t.pk, player=players[0], by=organiser, reason="left", forfeit_current=True
        )
    pairing = Pairing.objects.get(round__tournament=t, round__number=1, player1=players[0])
    assert pairing.status == Pairing.Status.FINISHED and pairing.winner_id == pairing.player2_id
    assert "ResultRuled" in event_types(t)


def test_late_entry_joins_the_next_swiss_round_only(organiser, jobs):
    players = make_bots(5)
    t = make_tournament(organiser, players[:4], rounds=2)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    reg = services.tournament_register(tournament_id=t.pk, player=players[4], by=organiser)
    services.tournament_check_in(tournament_id=t.pk, player=players[4], by=organiser)
    assert reg.late and reg.seed == 5
    with jobs():
        forfeit_round(t, organiser)
    r2 = Round.objects.get(tournament=t, number=2)
    paired = {p for pg in r2.pairings.all() for p in (pg.player1_id, pg.player2_id) if p}
    assert players[4].pk in paired
    rr = make_tournament(organiser, make_bots(4, prefix="RR"), format="round_robin", rounds=None)
    with jobs():
        services.tournament_start(tournament_id=rr.pk, by=organiser)
    with pytest.raises(TournamentConflictError):
        services.tournament_register(tournament_id=rr.pk, player=players[4], by=organiser)


def test_re_pairing_is_allowed_only_before_play_starts(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    a, b, c, d = (p.pk for p in players)
    with pytest.raises(TournamentInputError):
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=organiser, reason="x", pairs=[(a, b)]
        )
    with jobs():
        services.tournament_round_repair(
            tournament_id=t.pk,
            round_number=1,
            by=organiser,
            reason="family",
            pairs=[(a, d), (b, c)],
        )
    pairs = {(p.player1_id, p.player2_id) for p in Pairing.objects.filter(round__tournament=t)}
    assert pairs == {(a, d), (b, c)}
    last = tournament_stream_events(tournament=t)[-1]
    assert last.type == "RoundRepaired" and last.data["reason"] == "family"
    # Once a card is played in one of the matches, the round is fixed.
    from demo.bots import match_play_bots

    pairing = Pairing.objects.filter(round__tournament=t).first()
    match_play_bots(match_id=pairing.match_id, max_actions=1)
    with pytest.raises(TournamentConflictError):
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=organiser, reason="again"
        )


def test_a_ruling_is_an_event_with_the_organiser_and_reason(organiser, jobs):
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with jobs():
        services.tournament_result_rule(
            tournament_id=t.pk,
            round_number=1,
            table=1,
            winner=players[1],
            by=organiser,
            reason="no-show",
        )
    pairing = Pairing.objects.get(round__tournament=t)
    assert pairing.winner_id == players[1].pk and pairing.result_reason == "forfeit"
    ruled = [e for e in tournament_stream_events(tournament=t) if e.type == "ResultRuled"]
    assert ruled[0].data["by"]["id"] == organiser.pk and ruled[0].data["reason"] == "no-show"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    with pytest.raises(TournamentConflictError):
        services.tournament_result_rule(
            tournament_id=t.pk,
            round_number=1,
            table=1,
            winner=players[0],
            by=organiser,
            reason="again",
        )


def test_a_ruling_by_a_later_organiser_does_not_name_them_in_the_match(organiser, jobs):
    """The match's events are its players' to read: an organiser who joined after the match
    was made rules through the system, and the match says only that an organiser asked."""
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    late = get_user_model().objects.create_user(username="late-director-7")
    t.organisers.add(late)
    with jobs():
        services.tournament_result_rule(
            tournament_id=t.pk, round_number=1, table=1, winner=players[0], by=late, reason="ill"
        )
    match = Pairing.objects.get(round__tournament=t).match
    texts = [str(e.data) + str(e.metadata) for e in eventstore.load(stream_id=match.stream_id)]
    assert not any("late-director-7" in text for text in texts)
    assert any("ill (ruled by a tournament organiser)" in text for text in texts)
    ruled = [e for e in tournament_stream_events(tournament=t) if e.type == "ResultRuled"]
    assert ruled[0].data["by"]["id"] == late.pk


def test_deadlines_forfeit_the_player_to_move(organiser, jobs):
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1, turn_time=dt.timedelta(minutes=5))
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    pairing = Pairing.objects.select_related("match").get(round__tournament=t)
    to_move = pairing.match.turn_player_id
    assert to_move is not None
    assert services.tournament_deadlines_enforce() == []  # nobody is late yet
    with jobs():
        ruled = services.tournament_deadlines_enforce(now=timezone.now() + dt.timedelta(minutes=6))
    assert ruled == [pairing.pk]
    pairing.refresh_from_db()
    assert pairing.status == Pairing.Status.FINISHED and pairing.winner_id != to_move
    event = [e for e in tournament_stream_events(tournament=t) if e.type == "ResultRuled"][0]
    assert event.data["by"] is None and event.data["reason"] == "turn time exceeded"


def test_moving_a_round_deadline_is_logged_and_obeyed(organiser, jobs):
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1, round_duration=dt.timedelta(hours=1))
    with jobs():
        round_ = services.tournament_start(tournament_id=t.pk, by=organiser)
    later = round_.deadline + dt.timedelta(hours=1)
    services.tournament_round_deadline_move(
        tournament_id=t.pk, round_number=1, deadline=later, by=organiser, reason="slow table"
    )
    soon_after_old = round_.deadline + dt.timedelta(minutes=1)
    assert services.tournament_deadlines_enforce(now=soon_after_old) == []
    with jobs():
        assert len(services.tournament_deadlines_enforce(now=later + dt.timedelta(minutes=1))) == 1
    moved = [e for e in tournament_stream_events(tournament=t) if e.type == "RoundDeadlineMoved"][0]
    assert moved.data["deadline"] == later.isoformat() and moved.data["reason"] == "slow table"


def test_only_organisers_pair_and_rule(organiser, jobs):
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1)
    stranger = get_user_model().objects.create_user(username="stranger")
    with pytest.raises(PermissionDeniedError):
        services.tournament_start(tournament_id=t.pk, by=stranger)


def test_a_table_tournament_takes_results_from_scoresheets(organiser, jobs):
    from games.services import match_record_hand

    players = make_bots(2)
    t = make_tournament(
        organiser, players, rounds=1, play_mode="table", ruleset={"games": 1, "game_target": 25}
    )
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    pairing = Pairing.objects.select_related("match", "player1").get(round__tournament=t)
    assert pairing.match.mode == "table"
    # A table match has nobody "to move": the deadline job leaves it to the organisers, who
    # find it flagged overdue once the round's deadline has passed.
    assert services.tournament_deadlines_enforce(now=timezone.now() + dt.timedelta(days=9)) == []
    assert not pairing_overdue(pairing=pairing)  # no deadline yet
    services.tournament_round_deadline_move(
        tournament_id=t.pk,
        round_number=1,
        deadline=timezone.now() + dt.timedelta(hours=1),
        by=organiser,
        reason="closing time",
    )
    pairing = Pairing.objects.select_related("match", "player1", "round").get(pk=pairing.pk)
    assert not pairing_overdue(pairing=pairing)
    assert pairing_overdue(pairing=pairing, now=timezone.now() + dt.timedelta(hours=2))
    assert services.tournament_deadlines_enforce(now=timezone.now() + dt.timedelta(hours=2)) == []
    with jobs():
        match_record_hand(
            match_id=pairing.match_id,
            by=organiser,
            hand=HandEntry(
                knocker=pairing.player1.pk, gin=True, knocker_deadwood=0, defender_deadwood=12
            ),
        )
    pairing.refresh_from_db()
    assert pairing.status == Pairing.Status.FINISHED and pairing.winner_id == pairing.player1_id
    assert pairing.points1 == 37 and pairing.games1 == 1
    assert not pairing_overdue(pairing=pairing, now=timezone.now() + dt.timedelta(hours=2))


@pytest.mark.django_db(transaction=True)
def test_two_schedulers_pairing_at_once_pair_once(organiser):
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite serialises writers by itself")
    t = make_tournament(organiser, make_bots(6), starts_at=timezone.now())
    barrier = threading.Barrier(2)
    outcomes = []

    def pair() -> None:
        from django.db import connections

        barrier.wait()
        try:
            outcomes.append(services.tournament_round_pair(tournament_id=t.pk, round_number=1))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(o is not None for o in outcomes) == [False, True]
    assert Pairing.objects.filter(round__tournament=t).count() == 3
    assert event_types(t).count("RoundPaired") == 1


def test_an_organiser_added_later_can_still_rule(organiser, jobs):
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    late_helper = get_user_model().objects.create_user(username="helper")
    t.organisers.add(late_helper)
    with jobs():
        services.tournament_result_rule(
            tournament_id=t.pk, round_number=1, table=1, winner=players[0], by=late_helper,
            reason="no-show",
        )  # fmt: skip
    pairing = Pairing.objects.get(round__tournament=t)
    assert pairing.winner_id == players[0].pk
    ruled = [e for e in tournament_stream_events(tournament=t) if e.type == "ResultRuled"][0]
    assert ruled.data["by"] == {"id": late_helper.pk}


def _standing_rows(tournament: Tournament) -> list[tuple]:
    return list(
        Standing.objects.filter(tournament=tournament)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "match_wins", "played", "games_won", "points_diff")
    )


def test_re_pairing_cancels_the_old_matches(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    standings_before = _standing_rows(t)
    old = list(Pairing.objects.filter(round__tournament=t).select_related("player1"))
    assert len(old) == 2
    with jobs():
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=organiser, reason="late entry"
        )
    for pairing in old:
        match = Match.objects.get(pk=pairing.match_id)
        assert match.status == "finished" and match.finish_reason == "cancelled"
        assert match.winner_id is None and match.turn_player_id is None
        last = eventstore.load(stream_id=match.stream_id)[-1]
        assert last.type == "MatchCancelled"
        assert last.data == {"reason": "round 1 re-paired: late entry", "by": organiser.username}
        with pytest.raises(IllegalActionError) as refused:
            match_act(match_id=match.pk, player=pairing.player1, action={"type": "pass"})
        assert refused.value.rule == "8 match end"
    # The new matches are the round's, in play; the cancelled ones count for nothing.
    new = Pairing.objects.filter(round__tournament=t)
    assert not {p.match_id for p in new} & {p.match_id for p in old}
    assert all(p.status == Pairing.Status.PENDING for p in new)
    assert all(p.match.status == "in_progress" for p in new)
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.PAIRED
    assert _standing_rows(t) == standings_before
    assert all(row[3] == 0 for row in _standing_rows(t))  # nobody has played yet
    repaired = tournament_stream_events(tournament=t)[-1]
    assert set(repaired.data["replaced"]) == {str(p.match_id) for p in old}
    # The round is then played as usual; rebuilt standings equal the incremental ones.
    with jobs():
        forfeit_round(t, organiser)
    incremental = _standing_rows(t)
    assert sum(row[2] for row in incremental) == 2
    Standing.objects.filter(tournament=t).delete()
    standings_rebuild(tournament=t)
    assert _standing_rows(t) == incremental


def test_re_pairing_by_an_organiser_added_later_cancels_as_the_system(organiser, jobs):
    players = make_bots(2)
    t = make_tournament(organiser, players, rounds=1)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    old = Pairing.objects.get(round__tournament=t)
    late_helper = get_user_model().objects.create_user(username="helper")
    t.organisers.add(late_helper)
    with jobs():
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=late_helper, reason="swap seats",
            pairs=[(players[1].pk, players[0].pk)],
        )  # fmt: skip
    match = Match.objects.get(pk=old.match_id)
    assert match.finish_reason == "cancelled"
    last = eventstore.load(stream_id=match.stream_id)[-1]
    assert last.data["by"] == SYSTEM_USERNAME
    assert last.data["reason"] == "round 1 re-paired: swap seats"
    assert tournament_stream_events(tournament=t)[-1].data["by"] == {"id": late_helper.pk}


def test_a_refused_re_pairing_cancels_nothing(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    a, b = players[0].pk, players[1].pk
    with pytest.raises(TournamentInputError):
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=organiser, reason="x", pairs=[(a, b)]
        )
    matches = Match.objects.filter(pk__in=Pairing.objects.values("match_id"))
    assert {m.status for m in matches} == {"in_progress"}
