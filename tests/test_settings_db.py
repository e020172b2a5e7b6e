"""Settings read from the environment: DECKHAND_DB (a SQLite file path, the default, or a
PostgreSQL URL; anything else is refused) and DECKHAND_AI_DELAY."""

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
    assert database("~/deckhand.sqlite3") == Path.home() / "deckhand.sqlite3"


def test_another_kind_of_url_is_refused_without_repeating_it():
    with pytest.raises(SettingsError, match=r"DECKHAND_DB must be a SQLite file path or a postgresql:// URL, "
                                            r"not mysql://…$"):
        database("mysql://root:secret@db/deckhand")


@pytest.mark.parametrize("value", ["abc", "inf", "-inf", "nan"])
def test_an_ai_delay_that_is_not_a_finite_number_is_refused(value):
    with pytest.raises(SettingsError, match=r"^DECKHAND_AI_DELAY must be a number of seconds, not "):
        Settings.from_env({"DISCORD_TOKEN": "x", "DECKHAND_AI_DELAY": value})


def test_a_negative_ai_delay_means_none():
    assert Settings.from_env({"DISCORD_TOKEN": "x", "DECKHAND_AI_DELAY": " -2 "}).ai_delay == 0.0


def test_an_empty_setting_means_its_default():
    """As ``.env.example`` leaves them: ``NAME=`` with nothing after it."""
    settings = Settings.from_env({"DISCORD_TOKEN": "x", "DECKHAND_AI_DELAY": "", "LOG_LEVEL": " ",
                                  "DECKHAND_DB_SYNCHRONOUS": "", "DECKHAND_DB": "", "DEV_GUILD_ID": ""})
    assert (settings.ai_delay, settings.log_level, settings.db_synchronous, settings.dev_guild_id) == (
        1.0, "INFO", "FULL", None)
