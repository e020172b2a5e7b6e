"""One fake Discord for the tests: one model of Discord and two thin transports.

* ``model.DiscordModel``: users, guilds, channels, threads, messages, synced commands and
  interactions; every REST request recorded, validated against Discord's OpenAPI spec and
  its limits (``limits.py``), answered like Discord (``routes.py``); the users' side of
  interactions (``drivers.py``); Discord's rate limits when a test turns them on (``ratelimits.py``).
* ``inprocess.DiscordHarness``: the bot in this process, discord.py's HTTP and webhook
  requests patched to the model, gateway events fed to ``bot._connection.parsers``.
* ``loopback.LoopbackDiscord``: the model behind REST + gateway websocket on 127.0.0.1,
  for the real ``python -m bot`` process (``tests/launch_bot.py``).

API at a glance (both transports):

* Model: ``add_user(name)``, ``add_guild(name, owner=None)``, ``guild.add_channel(name)``,
  ``guild.add_member(user, manage_guild=False, administrator=False, roles=())``,
  ``guild.add_role(name, permissions)``; ``bot_user``, ``application_id``, ``app_owner``.
* Drivers, returning an ``InteractionResult``: ``slash("group sub", {"opt": value}, user=,
  channel=)``, ``autocomplete(command, focused, value, options, user=, channel=)``,
  ``click(message, label=|custom_id=|custom_id_prefix=, user=)``, ``select(message, values,
  custom_id=|custom_id_prefix=|placeholder=, user=)``, ``submit_modal(opened, {custom_id:
  value})``, ``context_menu(name, target, user=, channel=)``. In-process they also take
  ``bot=``, ``expect_response=`` and ``timeout=`` and return once the bot settled; over
  loopback they return once the bot acknowledged (``wait_for_reply`` waits for the result).
* Queries: ``latest_public(channel)``, ``public_messages(channel)``, ``messages(channel=None,
  ephemeral=None, deleted=False)``, ``ephemeral_for(user)``, ``latest_ephemeral(user)``,
  ``dms(user)``, ``message(id)``, ``channel(id)``, ``user(id or name)``, ``commands(guild=None)``,
  ``requests``, ``requests_to(method, path_regex)``, ``failures``/``take_failures()``.
* Attachments: multipart bodies are read as Discord does (``payload_json`` + ``files[n]``;
  the JSON part validated like any body, the field names and ``attachments`` metadata
  checked, an embed's ``attachment://`` that names no attachment is a failure);
  ``message.files`` / ``message.file(name)`` / ``message.embed_images()``,
  ``request.files`` / ``request.file_fields``; ``fail_uploads(count=1, status=413)`` answers
  the next uploads with an error, ``refuse_next(method, path_regex, HTTPError(...))`` the
  next matching request.
* ``close_to_bot(channel, closed=True)``: a moderator takes the bot's View Channel there;
  its requests in that channel are refused (403 Missing Access) and clicks there carry no
  view or send permission in ``app_permissions``.
* Rate limits (off by default): ``rate_limits=True`` (either transport) enforces Discord's
  (:data:`DISCORD_RATE_LIMITS`), or ``rate_limits=RateLimiter(table, clock=)`` other figures
  (``DISCORD_RATE_LIMITS.scaled(0.1)``) or a ``ManualClock``; then every answer carries
  rate-limit headers, a request over a limit gets Discord's 429 (``request.rate_limited``,
  ``request.headers``), and ``rate_limits.limited`` / ``rate_limits.invalid_requests()`` count
  the 429s and the invalid requests. In-process, discord.py's own request code then runs.
  ``message_listeners``: told of every message created, edited or deleted.
* Routes the model lacks: ``add_route(method, path_regex, handler)``; a handler raises
  ``HTTPError`` for Discord's error answers. ``expire_tokens(result=None)``.
* Discord's clock (``clock=``, the real one by default; a ``ManualClock`` to move it): snowflakes
  hold it, and an interaction's token answers its webhook for ``TOKEN_SECONDS`` (15 minutes) of it,
  then 401 Invalid Webhook Token. A token edits only its own messages: ``@original`` is the
  message its response created, or for a component's update (or deferred update) the message
  clicked; a follow-up by its id. An ephemeral message takes no channel route at all.
* In-process only: ``start(bot)``, ``stop(bot)``, ``feed(EVENT, payload)``, ``join_guild``,
  ``archive(thread, locked=)`` (then edits and deletes there are refused, 50083),
  ``settle()``, ``wait_until``, ``ignore_tasks``, ``expect_logged_error(regex)``,
  ``allow_logged_errors``, ``assert_no_errors()``.
* Loopback only: ``base_url``, ``gateway_url``, ``wait_ready``, ``wait_for_request``,
  ``wait_for_message``, ``wait_for_reply``, ``wait_idle``, ``identify_payload``,
  ``gateway_closes``, ``close_sessions(code, reason, revoke=)`` (then ``refusing``), ``describe()``; sharding: ``recommended_shards=``, ``connected_shards()``,
  ``wait_shards((id, count), …)``, ``guild_id_on_shard(fd, id, count)``.
"""

from .entities import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    walk_components,
)
from .inprocess import DiscordHarness, FakeGateway
from .loopback import LoopbackDiscord, guild_id_on_shard
from .messages import FakeMessage, HTTPError, InteractionResult, RecordedRequest
from .model import TOKEN_SECONDS, Answer, DiscordModel
from .ratelimits import DISCORD_RATE_LIMITS, ManualClock, RateLimited, RateLimiter, RateLimitTable, Window
from .watch import ExpectedErrors

__all__ = [
    "APPLICATION_COMMAND", "AUTOCOMPLETE", "DISCORD_RATE_LIMITS", "EPHEMERAL", "IS_COMPONENTS_V2", "LOADING",
    "MESSAGE_COMPONENT", "MODAL_SUBMIT", "Answer", "DiscordHarness", "DiscordModel", "ExpectedErrors", "FakeChannel",
    "FakeGateway", "FakeGuild", "FakeMember", "FakeMessage", "FakeRole", "FakeUser", "HTTPError",
    "InteractionResult", "LoopbackDiscord", "ManualClock", "RateLimitTable", "RateLimited", "RateLimiter",
    "RecordedRequest", "TOKEN_SECONDS", "Window", "guild_id_on_shard", "walk_components",
]
