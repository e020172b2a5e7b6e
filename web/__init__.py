"""Deckhand on the web: the local play page (``python -m web``) and a server's site.

The site stands beside ``cogs/``, above ``bot/`` and ``games/`` (which never import it): its pages
render the same public views, pictures and words the Discord messages do, never a second source of
truth. Every value a page shows is escaped (:mod:`web.html`); every response passes
:mod:`web.guard` (security headers, per-address limits, polite errors).
"""
