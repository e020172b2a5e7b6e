"""Deckhand's tests, and the helpers they share (imported as ``tests.<module>``)."""
