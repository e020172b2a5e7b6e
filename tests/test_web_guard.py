"""What every response of the site passes (web/guard.py): security headers, per-address limits,
polite pages for unknown addresses and malformed requests, the reader's language."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from web.guard import CSP, Limits
from web.local import local_app
from web.reader import language_from


async def test_every_answer_carries_the_security_headers_and_unknown_addresses_are_polite() -> None:
    async with TestClient(TestServer(local_app())) as client:
        for path, status in (("/", 200), ("/nowhere", 404), ("/static/../web/local.py", 404),
                             ("/static/site.css", 200), ("/play/%3Cscript%3E", 404)):
            answer = await client.get(path)
            assert answer.status == status, path
            assert answer.headers["Content-Security-Policy"] == CSP
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
            if status == 404:
                text = await answer.text()
                assert "Nothing here" in text and "Traceback" not in text and "<script" not in text
        assert (await client.post("/")).status == 405
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP and "frame-ancestors 'none'" in CSP


async def test_an_address_making_too_many_requests_is_told_to_wait() -> None:
    async with TestClient(TestServer(local_app(Limits(requests_per_second=0.001, burst=3)))) as client:
        statuses = [(await client.get("/")).status for _ in range(5)]
        assert statuses == [200, 200, 200, 429, 429]
        # Behind the operator's proxy (on this machine), each visitor counts as the address it forwards.
        for visitor in ("203.0.113.7", "spoofed, 198.51.100.2"):
            behind = [(await client.get("/", headers={"X-Forwarded-For": visitor})).status for _ in range(4)]
            assert behind == [200, 200, 200, 429]
        answer = await client.get("/", headers={"Accept-Language": "fr"})
        assert "Trop de requêtes" in await answer.text() and answer.headers["Content-Security-Policy"] == CSP


def test_open_streams_are_limited_per_address() -> None:
    limits = Limits(streams=2)
    assert limits.open_stream("a") and limits.open_stream("a") and not limits.open_stream("a")
    assert limits.open_stream("b")
    limits.close_stream("a")
    assert limits.open_stream("a")


def test_the_readers_language_comes_from_the_browser_and_anything_odd_is_english() -> None:
    assert language_from("fr-CA,fr;q=0.9,en;q=0.8") == "fr"
    assert language_from("de-DE,de;q=0.9,fr;q=0.5,en;q=0.4") == "fr"
    assert language_from("en-GB,fr;q=0.5") == "en"
    assert language_from("de, it") == "en"
    for odd in ("", None, ";;;", "fr;q=abc", "*", "x" * 5000, ",".join(["zz"] * 500)):
        assert language_from(odd) in ("en", "fr")
