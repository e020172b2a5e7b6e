"""Numbered schema migrations, applied in order at start-up (``PRAGMA user_version``).

Never edit a migration that has shipped; add the next one.
"""

MIGRATIONS: list[str] = [
    # 1: tables, seats, move log, per-server settings.
    """
    CREATE TABLE guild_settings (
        guild_id      INTEGER PRIMARY KEY,
        use_threads   INTEGER NOT NULL DEFAULT 0,
        timer_minutes INTEGER
    );
    CREATE TABLE tables (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        game_id          TEXT    NOT NULL,
        options          TEXT    NOT NULL,
        host_id          INTEGER NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')),
        seed             INTEGER NOT NULL,
        version          INTEGER NOT NULL DEFAULT 0,
        state            TEXT,
        timer_minutes    INTEGER NOT NULL,
        deadline         REAL,
        reminded         INTEGER NOT NULL DEFAULT 0,
        recent_events    TEXT    NOT NULL DEFAULT '[]',
        outcome          TEXT,
        lobby_message_id INTEGER,
        table_message_id INTEGER,
        ping_message_id  INTEGER,
        created_at       REAL    NOT NULL,
        started_at       REAL,
        finished_at      REAL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX tables_by_status ON tables (status);
    CREATE TABLE seats (
        table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        user_id      INTEGER,
        name         TEXT    NOT NULL,
        is_ai        INTEGER NOT NULL DEFAULT 0,
        missed_turns INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE UNIQUE INDEX one_seat_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;
    CREATE TABLE moves (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        by_ai    INTEGER NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    """,
]
