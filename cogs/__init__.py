"""Deckhand's Discord layer: the cogs, controls, messages and pictures that show the games in
Discord. The bot loads it as one extension, :mod:`cogs.extension`.
"""
