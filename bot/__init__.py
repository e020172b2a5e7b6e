"""Deckhand's core: the Discord client, the game service, storage and what they share."""
