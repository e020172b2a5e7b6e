"""Rendering every position random play reaches into Discord message bodies, checked
against Discord's OpenAPI spec and against the legal moves (shared by the rendering and
discovery tests)."""

from __future__ import annotations

import games
from bot.service import HandSnapshot, TableSnapshot
from bot.storage import SeatRow, TableRow
from cogs.moves import hand_message, table_message
from cogs.ui import ui_for
from games.ai import choose_action
from games.rng import Rng

from tests.openapi import validate_request

EDIT_MESSAGE = ("PATCH", "/channels/1/messages/2")

def body(rendered) -> dict:
    data = {"content": rendered.content, "allowed_mentions": rendered.allowed_mentions.to_dict()}
    if rendered.embed is not None:
        data["embeds"] = [rendered.embed.to_dict()]
    data["components"] = rendered.view.to_components() if rendered.view is not None else []
    return data


def offered(components: list[dict]) -> tuple[set[str], set[str]]:
    """(action codes a click plays, step prefixes a menu opens) in a message's components."""
    moves, steps = set(), set()
    for row in components:
        for item in row["components"]:
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


def assert_shown_as_typed(components: list[dict]) -> None:
    """Labels, placeholders and option texts are shown as they are: a name there must not carry
    message text's markdown escapes (``Player\\_1``)."""
    found = []
    for row in components:
        for item in row["components"]:
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


def render_every_position(game_id: str, options: dict, players: int, positions: int | None, seeds: int) -> None:
    """Play ``seeds`` random games (at most ``positions`` moves each), rendering every position."""
    game = games.get_game(game_id)
    for seed in range(seeds):
        state = game.new_game(players, options, seed)
        rng = Rng(seed)
        for _ in range(positions or 10**6):
            snap = TableSnapshot(table_row(game_id, options, players, state), state.view(None))
            validate_request(*EDIT_MESSAGE, body(table_message(snap)))
            if state.is_over():
                break
            seat = state.to_act()[0]
            hand = HandSnapshot(snap, seat, state.view(seat), state.legal_actions(seat))
            rendered = body(hand_message(hand))
            validate_request(*EDIT_MESSAGE, rendered)
            assert_shown_as_typed(rendered["components"])
            moves, steps = offered(rendered["components"])
            key_of = {a.code(): ui_for(game_id).step_key(a) for a in hand.actions}
            pending = list(steps)
            while pending:  # follow every step menu, however deep (QUASH swap chains nest)
                step = pending.pop()
                step_body = body(hand_message(hand, step=step))
                validate_request(*EDIT_MESSAGE, step_body)
                assert_shown_as_typed(step_body["components"])
                step_moves, deeper = offered(step_body["components"])
                assert step_moves or deeper, f"step {step!r} leads nowhere"
                assert all(key_of[code].startswith(step) for code in step_moves)
                assert all(d.startswith(step) and d != step for d in deeper)
                moves |= step_moves
                pending += deeper
            assert moves == set(key_of), "every legal move, and only those"
            state.apply(seat, choose_action(state, seat, rng))
