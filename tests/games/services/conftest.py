import pytest

from tests.factories import BotPlayerFactory, PlayerFactory, UserFactory


@pytest.fixture
def alice(db):
    return PlayerFactory(name="Alice")


@pytest.fixture
def bob(db):
    return PlayerFactory(name="Bob")


@pytest.fixture
def bots(db):
    return BotPlayerFactory(name="Bot A"), BotPlayerFactory(name="Bot B")


@pytest.fixture
def organiser(db):
    return UserFactory(username="referee")
