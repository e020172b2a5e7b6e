"""Rendering every position random play reaches into Discord message bodies, checked
against Discord's OpenAPI spec and against the legal moves (shared by the rendering and
discovery tests)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from discord.http import handle_message_parameters

import games
from bot.service import HandSnapshot, TableSnapshot
from bot.storage import SeatRow, TableRow
from cogs.messages import hand_message, table_message
from cogs.ui import MAX_BUTTONS, Rendered, ui_for
from games.ai import choose_action
from games.rng import Rng
from tests.fakediscord import RecordedRequest, walk_components
from tests.fakediscord.limits import discord_limits
from tests.openapi import validate_request

EDIT_MESSAGE = ("PATCH", "/channels/1/messages/2")
PICTURE = "attachment://picture-7-3.png"


def body(rendered, picture: bool = False) -> dict:
    """The JSON discord.py sends for ``rendered`` as an edit (with a picture in place of the
    text board when ``picture``)."""
    kwargs = rendered.kwargs()
    if picture:
        kwargs["view"] = kwargs["view"].pictured(PICTURE)
    with handle_message_parameters(**kwargs) as params:
        return params.payload


def controls(components: list[dict]) -> list[dict]:
    """The buttons and menus of a layout, at any depth."""
    return [c for c in walk_components(components) if c.get("type") in (2, 3)]


def offered(components: list[dict]) -> tuple[set[str], set[str]]:
    """(action codes a click plays, step prefixes a menu opens) in a message's components."""
    moves, steps = set(), set()
    for item in controls(components):
        custom_id = item["custom_id"]
        assert len(custom_id) <= 100, custom_id
        if custom_id.startswith("dh:mv:"):
            moves.add(custom_id.split(":", 4)[4])
        elif custom_id.startswith("dh:ms:"):
            moves |= {o["value"] for o in item["options"]}
        elif custom_id.startswith("dh:st:"):
            steps |= {o["value"] for o in item["options"]}
        elif custom_id.startswith("dh:ask:"):  # a form asking for a number from low to high
            _, _, _, _, kind, low, high = custom_id.split(":")
            moves |= {f"{kind}:{n}" for n in range(int(low), int(high) + 1)}
    return moves, steps


def assert_fits_a_thumb(components: list[dict]) -> None:
    """No step offers more than :data:`~cogs.ui.MAX_BUTTONS` move buttons; longer lists are menus."""
    buttons = [c for c in controls(components) if c["type"] == 2 and c["custom_id"].startswith("dh:mv:")]
    assert len(buttons) <= MAX_BUTTONS, [b["label"] for b in buttons]


def assert_shown_as_typed(components: list[dict]) -> None:
    """Labels, placeholders and option texts are shown as they are: a name there must not carry
    message text's markdown escapes (``Player\\_1``)."""
    found = []
    for item in controls(components):
        found += [item[key] for key in ("label", "placeholder") if item.get(key)]
        for option in item.get("options") or []:
            found += [option[key] for key in ("label", "description") if option.get(key)]
    escaped = [text for text in found if "\\" in text]
    assert not escaped, f"markdown escapes in plain text: {escaped}"


def table_row(game_id: str, options: dict, players: int, state) -> TableRow:
    # Names with characters message text escapes: labels must show them as typed (no_escapes).
    seats = [SeatRow(i, 1000 + i, f"Player_{i + 1}.x", i % 3 == 2) for i in range(players)]
    return TableRow(
        id=7, guild_id=1, channel_id=2, game_id=game_id, options=games.get_game(game_id).normalize_options(options),
        host_id=1000, status="finished" if state.is_over() else "running", seed=1, version=3, state=None,
        timer_minutes=10, deadline=1_900_000_000.0, reminded=False, recent_events=["Something happened."] * 6,
        outcome=state.outcome().to_json() if state.is_over() else None, lobby_message_id=2, table_message_id=2,
        ping_message_id=None, created_at=0.0, started_at=0.0, finished_at=None, seats=seats,
    )


TEXT_LIMITS = (0, 80, 100, 150, 1024, 2048, 4000)
"""Where the spec's string lengths fall for a message (a button's label, a custom_id or an
option, a placeholder, a picture's description, a URL, text)."""
COUNT_LIMITS = (0, 1, 5, 10, 25, 40)
"""Where its list lengths fall (a row, a gallery, a menu's options, a message's components)."""


def shape(node: Any) -> Hashable:
    """What Discord's spec judges of a value: keys, small numbers and booleans as they are,
    every string and list by the smallest limit it stays within, a list's items as a set."""
    if isinstance(node, dict):
        return tuple(sorted((key, shape(value)) for key, value in node.items()))
    if isinstance(node, list):
        return "list", within(len(node), COUNT_LIMITS), frozenset(shape(item) for item in node)
    if isinstance(node, str):
        return "str", within(len(node), TEXT_LIMITS)
    if isinstance(node, int) and not isinstance(node, bool) and node >= 100:
        return "int"  # a colour, say: the spec bounds it far beyond anything sent
    return node


def tree(components: list[dict]) -> Hashable:
    """The nesting of components by type, each level's count by its limit."""
    return within(len(components), COUNT_LIMITS), frozenset(
        (c["type"], tree(c["components"]) if "components" in c else None) for c in components)


def spec_keys(data: dict) -> set[Hashable]:
    """What a body's validity under the spec rests on: its own fields, the nesting of its
    components, and each component's own fields. The spec judges each component by its type
    alone, so a body whose keys were all valid in bodies before is valid too."""
    components = data.get("components") or []
    keys = {("body", shape({k: v for k, v in data.items() if k != "components"})), ("tree", tree(components))}
    for component in walk_components(components):
        keys.add(("component", shape({k: v for k, v in component.items() if k != "components"})))
    return keys


def within(length: int, limits: tuple[int, ...]) -> int:
    return next((limit for limit in limits if length <= limit), limits[-1] + 1)


class Checker:
    """Checks message bodies: each against Discord's limits, and against its spec each that
    brings a new :func:`spec_keys` (the slow part, about 0.1 s a body)."""

    def __init__(self) -> None:
        self.shapes: set[Hashable] = set()

    def message(self, rendered: Rendered) -> dict:
        """The body of ``rendered`` as an edit, checked, with a picture in the text board's place too."""
        data = body(rendered)
        for each in (data, body(rendered, picture=True)):
            problems = discord_limits(RecordedRequest(0, "http", *EDIT_MESSAGE, {}, each))
            assert not problems, problems
            keys = spec_keys(each)
            if not keys <= self.shapes:
                validate_request(*EDIT_MESSAGE, each)
                self.shapes |= keys
        assert_fits_a_thumb(data["components"])
        assert_shown_as_typed(data["components"])
        return data


def render_every_position(game_id: str, options: dict, players: int, positions: int | None, seeds: int) -> None:
    """Play ``seeds`` random games (at most ``positions`` moves each), rendering every position:
    each message (every step menu followed) is valid (:class:`Checker`) and, together, they offer
    exactly the legal moves."""
    game = games.get_game(game_id)
    ui = ui_for(game_id)
    checker = Checker()
    for seed in range(seeds):
        state = game.new_game(players, options, seed)
        rng = Rng(seed)
        for _ in range(positions or 10**6):
            snap = TableSnapshot(table_row(game_id, options, players, state), state.view(None))
            checker.message(table_message(snap))
            if state.is_over():
                break
            seat = state.to_act()[0]
            actions = state.legal_actions(seat)
            hand = HandSnapshot(snap, seat, state.view(seat), actions)
            moves, steps = offered(checker.message(hand_message(hand))["components"])
            key_of = {a.code(): ui.step_key(a, hand) for a in actions}
            pending = list(steps)
            while pending:  # follow every step menu, however deep (QUASH swap chains nest)
                step = pending.pop()
                step_moves, deeper = offered(checker.message(hand_message(hand, step=step))["components"])
                assert step_moves or deeper, f"step {step!r} leads nowhere"
                assert all(key_of[code].startswith(step) for code in step_moves)
                assert all(d.startswith(step) and d != step for d in deeper)
                moves |= step_moves
                pending += deeper
            assert moves == set(key_of), "every legal move, and only those"
            state.apply(seat, choose_action(state, seat, rng))
