"""Garbage collection settings for the bot's process (``python -m bot`` applies them).

A move allocates thousands of short-lived objects (the snapshot, views, message bodies).
With CPython's default threshold (a collection every 700 new container objects) the
collector runs over and over, and every few hundred moves it scans the whole heap:
40–50 µs of the ~250 µs a move costs the event loop (measured with ``gc.callbacks`` in
``bench/move_path.py``). With :data:`GEN0_THRESHOLD` it is 5–10 µs, since most of those
objects are freed before a collection ever looks at them. What is alive at start-up
(modules, discord.py, the restored tables' summaries) lives as long as the process, so it
is frozen out of collections altogether.
"""

from __future__ import annotations

import gc

GEN0_THRESHOLD = 20_000
"""New container objects between two young-generation collections (CPython's default: 700).
Cyclic garbage waits longer to be freed: a few megabytes at most."""


def tune_garbage_collection() -> None:
    """Freeze what is alive now and collect the young generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, middle, old)
