"""Pictures of what Deckhand stores about players (``/stats``), drawn with :mod:`games.pictures`' toolkit."""
