"""``python -m games.rules_text > docs/rules.md``: every registered game's rules as one Markdown document."""

from games import all_games
from games.rules_text import markdown

print(markdown(game.rules for game in all_games() if game.rules is not None), end="")
