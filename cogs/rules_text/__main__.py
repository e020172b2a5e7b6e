"""``python -m cogs.rules_text > docs/rules.md``: every game's rules as one Markdown document."""

from . import markdown

print(markdown(), end="")
