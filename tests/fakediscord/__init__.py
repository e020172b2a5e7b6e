"""One fake Discord for the tests: a model of Discord (``model.py``) and two transports,
in-process (:class:`DiscordHarness`) and a loopback server for the real bot process
(:class:`LoopbackDiscord`)."""

from .entities import (
    APPLICATION_COMMAND, AUTOCOMPLETE, EPHEMERAL, IS_COMPONENTS_V2, LOADING, MESSAGE_COMPONENT, MODAL_SUBMIT,
    FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, walk_components,
)
from .inprocess import DiscordHarness, FakeGateway
from .loopback import LoopbackDiscord
from .messages import FakeMessage, HTTPError, InteractionResult, RecordedRequest
from .model import DiscordModel
from .watch import ExpectedErrors

__all__ = [
    "APPLICATION_COMMAND", "AUTOCOMPLETE", "EPHEMERAL", "IS_COMPONENTS_V2", "LOADING", "MESSAGE_COMPONENT",
    "MODAL_SUBMIT", "DiscordHarness", "DiscordModel", "ExpectedErrors", "FakeChannel", "FakeGateway",
    "FakeGuild", "FakeMember", "FakeMessage", "FakeRole", "FakeUser", "HTTPError", "InteractionResult",
    "LoopbackDiscord",
    "RecordedRequest", "walk_components",
]
