"""Deckhand's Discord layer: the cogs, controls and messages that show the games in Discord.

The bot loads it as one extension, :mod:`cogs.extension`. The pictures it attaches are drawn
by :mod:`games.pictures` and :mod:`bot.pictures`, which any front end may share.
"""
