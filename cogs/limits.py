"""Discord's size limits, in one place, and :func:`clip` to stay within them.

Discord rejects a whole request when one piece is too long, so every cog cuts its
text to these numbers before sending (discord-api-spec, "Message", "Component",
"Application Command").
"""

from __future__ import annotations

CONTENT = 2000
"""Characters in a message's content."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_TOTAL = 6000
"""Characters over an embed's title, description, fields and footer together."""

ACTION_ROWS = 5
"""Rows of components in a message without Components V2."""
V2_COMPONENTS = 40
"""Components in a Components V2 message, counted at every depth (containers, rows, buttons…)."""
V2_TEXT = 4000
"""Characters over every text display of a Components V2 message."""
GALLERY_DESCRIPTION = 1024
"""Characters in a media gallery item's description (its text for screen readers)."""
ROW_BUTTONS = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
"""Characters in a select option's label, value or description."""
SELECT_PLACEHOLDER = 150
MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45

COMMAND_DESCRIPTION = 100
"""Characters in a slash command's or option's description."""
COMMAND_CHOICES = 25
CHOICE_NAME = 100


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
