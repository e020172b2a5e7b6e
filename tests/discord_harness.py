"""The in-process fake Discord the Discord-level tests import (``fakediscord.inprocess``)."""

from fakediscord import (
    EPHEMERAL, MESSAGE_COMPONENT, DiscordHarness, FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeUser,
    HTTPError, InteractionResult,
)

__all__ = ["EPHEMERAL", "MESSAGE_COMPONENT", "DiscordHarness", "FakeChannel", "FakeGuild", "FakeMember",
           "FakeMessage", "FakeUser", "HTTPError", "InteractionResult"]
