"""The players' notices (issue 40): a round is played and each player gets exactly one
"round paired" e-mail, in their own language, and none more when the same job runs again."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone, translation

from core.localdates import jalali, persian_digits
from core.models import OutboxMessage
from players.models import Player
from tests.tournaments.helpers import forfeit_round, make_tournament, players_with_logins
from tournaments import services
from tournaments.models import Round
from tournaments.notices.models import Notice
from tournaments.notices.services import player_notice_opt_outs_set, tournament_reminders_send
from tournaments.notices.tasks import tournament_notices_send_task

pytestmark = pytest.mark.django_db

# What each language's "round paired" subject says (locale/*/LC_MESSAGES/django.po).
ROUND_1 = {
    "en": "round 1, table",
    "ro": "runda 1, masa",
    "de": "Runde 1, Tisch",
    "lt": "1 turas, stalas",
    "fa": "دور ۱، میز",  # Persian digits in a Persian notice
}


def _players() -> list[Player]:
    return players_with_logins(ROUND_1)


def _round_1_mails() -> dict[str, list[str]]:
    by_address: dict[str, list[str]] = {}
    for message in mail.outbox:
        if any(words in message.subject for words in ROUND_1.values()):
            by_address.setdefault(message.to[0], []).append(message.subject)
    return by_address


def test_one_round_paired_email_per_player_in_their_language(organiser: Any, jobs: Any) -> None:
    players = _players()
    tournament = make_tournament(organiser, players, rounds=2, time_zone="Asia/Tehran")
    mail.outbox.clear()
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    forfeit_round(tournament, organiser)  # the round is played

    mails = _round_1_mails()
    assert sorted(mails) == sorted(f"{lang}@example.org" for lang in ROUND_1)
    for lang, words in ROUND_1.items():
        (subject,) = mails[f"{lang}@example.org"]
        assert words in subject, (lang, subject)
        assert subject.endswith(tuple("0123456789۰۱۲۳۴۵۶۷۸۹"))
    paired = Notice.objects.filter(tournament=tournament, kind="paired")
    assert paired.count() == 5 and all(n.emailed_at for n in paired)
    # The start in the tournament's zone (Tehran: UTC+3:30), not the server's.
    started = Round.objects.get(tournament=tournament, number=1).paired_at
    local = started.astimezone(ZoneInfo("Asia/Tehran"))
    (english,) = [m for m in mail.outbox if m.to == ["en@example.org"] and "round 1" in m.subject]
    assert f"{local:%H:%M} (Asia/Tehran)" in english.body, english.body
    assert f"{local:%a} {local.day} {local:%b %Y}" in english.body, english.body
    # In Persian: the Solar Hijri date in Persian digits, no Latin digit in the text.
    (persian,) = [m for m in mail.outbox if m.to == ["fa@example.org"] and "دور" in m.subject]
    with translation.override("fa"):
        month = jalali(local).strftime("%B")
    assert month in persian.body and persian_digits(f"{local:%H:%M}") in persian.body, persian.body
    assert not any(ch in "0123456789" for ch in persian.body.split("/me/")[0]), persian.body

    # The same job again (a redelivery, a retry): no e-mail more, no notice more.
    jobs_run = OutboxMessage.objects.filter(task="tournaments.notices_send", sent_at__isnull=False)
    assert jobs_run.exists()
    before = len(mail.outbox)
    for job in jobs_run:
        assert tournament_notices_send_task.apply(tuple(job.args)).get() == 0
    assert len(mail.outbox) == before
    assert Notice.objects.filter(tournament=tournament, kind="paired").count() == 5


def test_an_opted_out_kind_is_listed_but_not_emailed(organiser: Any, jobs: Any) -> None:
    players = _players()[:2]
    player_notice_opt_outs_set(player=players[0], kinds=["paired"])
    tournament = make_tournament(organiser, players, rounds=1)
    mail.outbox.clear()
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    assert list(_round_1_mails()) == [players[1].user.email]
    assert Notice.objects.filter(player=players[0], kind="paired").count() == 1


def test_the_reminder_the_day_before_is_sent_once(organiser: Any) -> None:
    players = _players()[:2]
    starts = timezone.now() + dt.timedelta(hours=20)
    tournament = services.tournament_create(
        name="Tomorrow", format="swiss", rounds=2, created_by=organiser, starts_at=starts
    )
    for p in players:
        services.tournament_register(tournament_id=tournament.pk, player=p, by=organiser)
    mail.outbox.clear()
    assert tournament_reminders_send() == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["en@example.org", "ro@example.org"]
    ro = next(m for m in mail.outbox if m.to == ["ro@example.org"])
    assert ro.subject.endswith("Tomorrow are loc mâine")
    assert tournament_reminders_send() == 0  # beat again within the hour: nothing more
