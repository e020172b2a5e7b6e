"""Controls as the JSON Discord receives: a message's components built directly, for every
message a move sends (building discord.py items for each would cost more than the rest of the
message), and sent as they are."""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from .limits import CUSTOM_ID


def button_component(custom_id: str, label: str, style: discord.ButtonStyle) -> dict:
    """A button as Discord receives it (the same JSON discord.py writes for ``discord.ui.Button``):
    messages carry their controls as JSON built directly, which costs a fraction of building items."""
    if len(custom_id) > CUSTOM_ID:
        raise ValueError(f"custom_id too long for Discord: {custom_id}")
    component = {"type": 2, "style": style.value, "disabled": False}
    if label:
        component["label"] = label
    component["custom_id"] = custom_id
    return component


class SentView(discord.ui.View):
    """A view that is only ever sent. Every Deckhand control is a dynamic item dispatched from
    its custom_id, so discord.py need not listen to a message's view: finished from the start,
    it keeps nothing for it (a view sent with an ephemeral message would otherwise be held,
    with a timer task, for 15 minutes)."""

    def is_finished(self) -> bool:
        return True


class ComponentView(SentView):
    """A message's controls given directly as the components Discord receives, each with its
    row. Every Deckhand control is a dynamic item, registered once at start-up and dispatched
    from its custom_id, so a message's view is only ever serialised: this one holds no items
    (discord.py then keeps nothing for the message) and sends these rows as they are.

    discord.py's ``View.__init__`` (a random id, a future, walking the class's items) costs
    more than the rest of a hand message's controls, and a view with no items never uses
    what it sets up: every ComponentView after the first starts as a copy of the first one's
    attributes, which are never changed afterwards (it is never stopped, timed or stored)."""

    _blank: ClassVar[dict[str, Any] | None] = None

    def __init__(self, components: list[tuple[int, dict]]) -> None:
        blank = ComponentView._blank
        if blank is None:
            super().__init__(timeout=None)
            ComponentView._blank = dict(self.__dict__)
        else:
            self.__dict__.update(blank)
        rows: dict[int, list[dict]] = {}
        for row, component in components:
            rows.setdefault(row, []).append(component)
        self.rows = [{"type": 1, "components": rows[row]} for row in sorted(rows)]

    def to_components(self) -> list[dict]:
        return self.rows
