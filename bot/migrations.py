"""Numbered schema migrations, applied in order at start-up, in both dialects.

:data:`MIGRATIONS` is SQLite's (the number applied is ``PRAGMA user_version``);
:data:`POSTGRES_MIGRATIONS` is the same schema, step for step with the same numbers, in
PostgreSQL's types (recorded in its ``schema_version`` table). The columns are the same
in both: Discord ids are 64-bit integers, flags are integers 0/1, times are seconds
(floating point), JSON is text, so the queries are the same too.

Never edit a migration that has shipped; add the next one, to both lists.
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
    # 2: results of finished and abandoned games, ratings, leaderboard resets.
    """
    CREATE TABLE results (
        table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        game_id     TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        status      TEXT    NOT NULL CHECK (status IN ('finished', 'abandoned')),
        rated       INTEGER NOT NULL,
        rounds      INTEGER,
        summary     TEXT    NOT NULL,
        started_at  REAL,
        finished_at REAL    NOT NULL
    );
    CREATE INDEX results_by_guild ON results (guild_id, game_id, finished_at);
    CREATE INDEX results_by_channel ON results (channel_id, finished_at);
    CREATE TABLE result_seats (
        table_id INTEGER NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  INTEGER,
        name     TEXT    NOT NULL,
        is_ai    INTEGER NOT NULL,
        team     INTEGER NOT NULL,
        place    INTEGER,
        score    INTEGER,
        won      INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_seats_by_user ON result_seats (user_id);
    CREATE TABLE ratings (
        guild_id    INTEGER NOT NULL,
        game_id     TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        rated_games INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game_id, user_id)
    );
    CREATE TABLE rating_history (
        guild_id INTEGER NOT NULL,
        game_id  TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        table_id INTEGER NOT NULL,
        ordinal  REAL    NOT NULL,
        at       REAL    NOT NULL
    );
    CREATE INDEX rating_history_by_user ON rating_history (guild_id, user_id, game_id, at);
    ALTER TABLE guild_settings ADD COLUMN board_since REAL NOT NULL DEFAULT 0;
    """,
    # 3: facts about the deployment itself (e.g. the hash of the last synced command tree).
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4: pictures and the default AI level per server; each AI seat's level; tables and results
    # in which someone took a hint (those are unrated).
    """
    ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE guild_settings ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
    ALTER TABLE seats ADD COLUMN ai_level TEXT;
    ALTER TABLE tables ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    """,
]

POSTGRES_MIGRATIONS: list[str] = [
    # 1: tables, seats, move log, per-server settings; and (PostgreSQL only) the move as one call.
    """
    CREATE TABLE guild_settings (
        guild_id      BIGINT  PRIMARY KEY,
        use_threads   INTEGER NOT NULL DEFAULT 0,
        timer_minutes INTEGER
    );
    CREATE TABLE tables (
        id               BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id         BIGINT  NOT NULL,
        channel_id       BIGINT  NOT NULL,
        game_id          TEXT    NOT NULL,
        options          TEXT    NOT NULL,
        host_id          BIGINT  NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')),
        seed             BIGINT  NOT NULL,
        version          INTEGER NOT NULL DEFAULT 0,
        state            TEXT,
        timer_minutes    INTEGER NOT NULL,
        deadline         DOUBLE PRECISION,
        reminded         INTEGER NOT NULL DEFAULT 0,
        recent_events    TEXT    NOT NULL DEFAULT '[]',
        outcome          TEXT,
        lobby_message_id BIGINT,
        table_message_id BIGINT,
        ping_message_id  BIGINT,
        created_at       DOUBLE PRECISION NOT NULL,
        started_at       DOUBLE PRECISION,
        finished_at      DOUBLE PRECISION
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX tables_by_status ON tables (status);
    CREATE TABLE seats (
        table_id     BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        user_id      BIGINT,
        name         TEXT    NOT NULL,
        is_ai        INTEGER NOT NULL DEFAULT 0,
        missed_turns INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE UNIQUE INDEX one_seat_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;
    CREATE TABLE moves (
        table_id BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        by_ai    INTEGER NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    -- A move in one call (one round trip; the call is its own transaction): the advisory
    -- lock on the table id, the version-guarded update, the move log, the seats it changes.
    CREATE FUNCTION deckhand_commit_moves(
        p_table_id BIGINT, p_expected INTEGER, p_version INTEGER, p_state TEXT, p_status TEXT,
        p_deadline DOUBLE PRECISION, p_reminded INTEGER, p_events TEXT, p_outcome TEXT,
        p_finished DOUBLE PRECISION, p_seats INTEGER[], p_actions TEXT[], p_by_ai INTEGER[],
        p_at DOUBLE PRECISION[], p_missed_seats INTEGER[], p_missed INTEGER[], p_ai_seats INTEGER[]
    ) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_advisory_xact_lock(p_table_id);
        UPDATE tables SET version = p_version, state = p_state, status = p_status, deadline = p_deadline,
               reminded = p_reminded, recent_events = p_events, outcome = p_outcome, finished_at = p_finished
         WHERE id = p_table_id AND version = p_expected;
        IF NOT FOUND THEN
            RETURN FALSE;
        END IF;
        INSERT INTO moves (table_id, version, seat, action, by_ai, at)
        SELECT p_table_id, p_expected + m.n, m.seat, m.action, m.by_ai, m.at
          FROM unnest(p_seats, p_actions, p_by_ai, p_at) WITH ORDINALITY AS m (seat, action, by_ai, at, n);
        IF cardinality(p_missed_seats) > 0 THEN
            UPDATE seats SET missed_turns = m.missed
              FROM unnest(p_missed_seats, p_missed) AS m (seat, missed)
             WHERE seats.table_id = p_table_id AND seats.seat = m.seat;
        END IF;
        IF cardinality(p_ai_seats) > 0 THEN
            UPDATE seats SET is_ai = 1 WHERE table_id = p_table_id AND seat = ANY (p_ai_seats);
        END IF;
        RETURN TRUE;
    END
    $$;
    """,
    # 2: results of finished and abandoned games, ratings, leaderboard resets.
    """
    CREATE TABLE results (
        table_id    BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        guild_id    BIGINT  NOT NULL,
        channel_id  BIGINT  NOT NULL,
        game_id     TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        status      TEXT    NOT NULL CHECK (status IN ('finished', 'abandoned')),
        rated       INTEGER NOT NULL,
        rounds      INTEGER,
        summary     TEXT    NOT NULL,
        started_at  DOUBLE PRECISION,
        finished_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX results_by_guild ON results (guild_id, game_id, finished_at);
    CREATE INDEX results_by_channel ON results (channel_id, finished_at);
    CREATE TABLE result_seats (
        table_id BIGINT  NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  BIGINT,
        name     TEXT    NOT NULL,
        is_ai    INTEGER NOT NULL,
        team     INTEGER NOT NULL,
        place    INTEGER,
        score    INTEGER,
        won      INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_seats_by_user ON result_seats (user_id);
    CREATE TABLE ratings (
        guild_id    BIGINT  NOT NULL,
        game_id     TEXT    NOT NULL,
        user_id     BIGINT  NOT NULL,
        mu          DOUBLE PRECISION NOT NULL,
        sigma       DOUBLE PRECISION NOT NULL,
        rated_games INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game_id, user_id)
    );
    CREATE TABLE rating_history (
        guild_id BIGINT  NOT NULL,
        game_id  TEXT    NOT NULL,
        user_id  BIGINT  NOT NULL,
        table_id BIGINT  NOT NULL,
        ordinal  DOUBLE PRECISION NOT NULL,
        at       DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX rating_history_by_user ON rating_history (guild_id, user_id, game_id, at);
    ALTER TABLE guild_settings ADD COLUMN board_since DOUBLE PRECISION NOT NULL DEFAULT 0;
    """,
    # 3: facts about the deployment itself (e.g. the hash of the last synced command tree).
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4: pictures and the default AI level per server; each AI seat's level; tables and results
    # in which someone took a hint (those are unrated).
    """
    ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE guild_settings ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
    ALTER TABLE seats ADD COLUMN ai_level TEXT;
    ALTER TABLE tables ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    """,
]
