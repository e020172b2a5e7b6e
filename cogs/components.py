"""Messages as the JSON Discord receives: Components V2 layouts built directly, sent as they are.

A layout is a container of text, a picture and controls, built as JSON for every message a
move sends: building discord.py items for each would cost more than the rest of the message.

A V2 message has no content and no embeds: its text is in text displays, its picture in a
media gallery, and Discord sets it apart by the ``IS_COMPONENTS_V2`` flag, which discord.py
adds to a create or an edit whose view :meth:`~LayoutMessage.has_components_v2`. An edit may
set that flag on a message first sent with content and embeds (never clear it) when it
clears them: :meth:`cogs.ui.Rendered.kwargs` always sends ``content=None`` and ``embed=None``,
so a table message posted as an embed before becomes V2 at its next edit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import discord

from .limits import CUSTOM_ID, GALLERY_DESCRIPTION, clip

ROW, BUTTON, TEXT, GALLERY, SEPARATOR, CONTAINER = 1, 2, 10, 12, 14, 17


def button_component(custom_id: str, label: str, style: discord.ButtonStyle, *,
                     disabled: bool = False) -> dict[str, Any]:
    """A button as Discord receives it (the same JSON discord.py writes for ``discord.ui.Button``):
    messages carry their controls as JSON built directly, which costs a fraction of building items.
    A ``disabled`` button is shown greyed out, and Discord's clients send no click for it."""
    if len(custom_id) > CUSTOM_ID:
        raise ValueError(f"custom_id too long for Discord: {custom_id}")
    component: dict[str, Any] = {"type": BUTTON, "style": style.value, "disabled": disabled}
    if label:
        component["label"] = label
    component["custom_id"] = custom_id
    return component


def text_display(content: str) -> dict[str, Any]:
    """Markdown text (mentions in it show as mentions; they notify only as ``allowed_mentions`` says)."""
    return {"type": TEXT, "content": content}


def separator(divider: bool = True) -> dict[str, Any]:
    """A line (or, without ``divider``, a gap) between parts of a container."""
    return {"type": SEPARATOR, "divider": divider, "spacing": 1}


def media_gallery(url: str, description: str) -> dict[str, Any]:
    """One picture at the container's full width; ``description`` is its text for screen readers."""
    item: dict[str, Any] = {"media": {"url": url}}
    if description:
        item["description"] = clip(description, GALLERY_DESCRIPTION)
    return {"type": GALLERY, "items": [item]}


def action_row(components: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {"type": ROW, "components": list(components)}


class SentView(discord.ui.View):
    """A view that is only ever sent. Every Deckhand control is a dynamic item dispatched from
    its custom_id, so discord.py need not listen to a message's view: finished from the start,
    it keeps nothing for it (a view sent with an ephemeral message would otherwise be held,
    with a timer task, for 15 minutes)."""

    def is_finished(self) -> bool:
        return True


@dataclass(frozen=True)
class Layout:
    """A V2 message's parts, top to bottom inside one container: ``head`` (text), the picture
    or else ``board`` (its text in the picture's place), ``tail`` (latest events, controls).
    ``outside`` comes after the container (a refusal's note under a hand, say)."""

    accent: int | None
    head: list[dict[str, Any]]
    board: list[dict[str, Any]]
    tail: list[dict[str, Any]]
    picture: dict[str, Any] | None = None
    alt: str = ""
    """What the picture shows, in words, for screen readers."""
    outside: tuple[dict[str, Any], ...] = ()

    def components(self) -> list[dict[str, Any]]:
        middle = [self.picture] if self.picture is not None else self.board
        container: dict[str, Any] = {"type": CONTAINER, "components": [*self.head, *middle, *self.tail]}
        if self.accent is not None:
            container["accent_color"] = self.accent
        return [container, *self.outside]


class LayoutMessage(discord.ui.LayoutView):
    """A Components V2 message body, given as the JSON Discord receives (:class:`Layout`).

    Every Deckhand control is a dynamic item, registered once at start-up and dispatched from
    its custom_id, so a message's view is only ever serialised: this one holds no items
    (discord.py then keeps nothing for the message) and is finished from the start.
    discord.py's ``View.__init__`` (a random id, a future, walking the class's items) costs more
    than the rest of a hand message, and a view with no items never uses what it sets up: every
    LayoutMessage after the first starts as a copy of the first one's attributes, which are
    never changed afterwards (it is never stopped, timed or stored)."""

    _blank: ClassVar[dict[str, Any] | None] = None

    def __init__(self, layout: Layout) -> None:
        blank = LayoutMessage._blank
        if blank is None:
            super().__init__(timeout=None)
            LayoutMessage._blank = dict(self.__dict__)
        else:
            self.__dict__.update(blank)
        self.layout = layout

    def pictured(self, url: str) -> LayoutMessage:
        """The same message with the picture at ``url`` in place of the text board."""
        return LayoutMessage(replace(self.layout, picture=media_gallery(url, self.layout.alt)))

    def to_components(self) -> list[dict[str, Any]]:
        return self.layout.components()

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True
