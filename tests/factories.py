"""factory_boy factories shared by the test suites. `MatchFactory` goes through
`match_create`, so a match always has its event stream and read models."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from players.models import Club, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", "secret-pass-123")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):  # noqa: N805 - factory_boy hook
        if create:
            obj.save()


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    user = factory.SubFactory(UserFactory)
    is_bot = False


class BotPlayerFactory(PlayerFactory):
    user = None
    is_bot = True
    name = factory.Sequence(lambda n: f"Bot {n}")


class MatchFactory(factory.Factory):
    """Creates a match with `match_create` (first dealer seat 0 unless given)."""

    class Meta:
        model = dict  # built by _create below

    player1 = factory.SubFactory(PlayerFactory)
    player2 = factory.SubFactory(PlayerFactory)
    ruleset = None
    seed = None
    decks = None
    mode = "online"
    label = ""

    @classmethod
    def _create(cls, model_class, **kwargs):
        from games.services import match_create

        kwargs.setdefault("first_dealer", kwargs["player1"])
        return match_create(**kwargs)

    @classmethod
    def _build(cls, model_class, **kwargs):
        return cls._create(model_class, **kwargs)
