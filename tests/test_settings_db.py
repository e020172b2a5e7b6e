"""Settings read from the environment: DECKHAND_DB (a SQLite file path, the default, or a
PostgreSQL URL; anything else is refused) and DECKHAND_AI_DELAY."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

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


@given(st.one_of(st.text(max_size=12), st.floats().map(str), st.integers().map(str)))
def test_an_ai_delay_is_a_finite_number_of_seconds_and_a_negative_one_means_none(value):
    """Whatever ``float`` reads as a finite number is the delay (at least 0); anything else is refused, named."""
    try:
        seconds = float(value.strip())
    except ValueError:
        seconds = math.nan
    env = {"DISCORD_TOKEN": "x", "DECKHAND_AI_DELAY": value}
    if not value.strip():
        assert Settings.from_env(env).ai_delay == 1.0
    elif math.isfinite(seconds):
        assert Settings.from_env(env).ai_delay == max(0.0, seconds)
    else:
        with pytest.raises(SettingsError, match=r"^DECKHAND_AI_DELAY must be a number of seconds, not "):
            Settings.from_env(env)


for _value in ("abc", "inf", "-inf", "nan", " -2 ", "1e400"):  # always tried too
    test_an_ai_delay_is_a_finite_number_of_seconds_and_a_negative_one_means_none = example(_value)(
        test_an_ai_delay_is_a_finite_number_of_seconds_and_a_negative_one_means_none)


def test_an_empty_setting_means_its_default():
    """As ``.env.example`` leaves them: ``NAME=`` with nothing after it."""
    settings = Settings.from_env({"DISCORD_TOKEN": "x", "DECKHAND_AI_DELAY": "", "LOG_LEVEL": " ",
                                  "DECKHAND_DB_SYNCHRONOUS": "", "DECKHAND_DB": "", "DEV_GUILD_ID": ""})
    assert (settings.ai_delay, settings.log_level, settings.db_synchronous, settings.dev_guild_id) == (
        1.0, "INFO", "FULL", None)
