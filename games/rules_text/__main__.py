"""``python -m games.rules_text > docs/rules.md``: every game's rules, then how tournaments run, as Markdown."""

from games import all_games
from games.rules_text import markdown
from games.tournament.rules_text import RULES as TOURNAMENT

print(markdown([*(game.rules for game in all_games() if game.rules is not None), TOURNAMENT]), end="")
