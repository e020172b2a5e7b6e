"""DECKHAND_DB: a SQLite file path (the default) or a PostgreSQL URL; anything else is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError


def database(value: str | None):
    env = {"DISCORD_TOKEN": "x"} | ({"DECKHAND_DB": value} if value is not None else {})
    return Settings.from_env(env).db_path


def test_a_path_is_a_sqlite_file_and_a_url_is_postgresql():
    assert database(None) == database("  ") == Path("data/deckhand.sqlite3")
    assert database("/data/deckhand.sqlite3") == Path("/data/deckhand.sqlite3")
    url = "postgresql://deckhand:secret@db:5432/deckhand"
    assert database(f" {url} ") == url
    assert database("postgres://db/deckhand") == "postgres://db/deckhand"


def test_another_kind_of_url_is_refused_without_repeating_it():
    with pytest.raises(SettingsError, match=r"DECKHAND_DB must be a SQLite file path or a postgresql:// URL, "
                                            r"not mysql://…$"):
        database("mysql://root:secret@db/deckhand")
