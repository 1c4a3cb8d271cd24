"""Numbered schema migrations, applied in order from an empty file (PRAGMA user_version).

Never edit a migration that has shipped: append a new one.
"""

MIGRATIONS: list[str] = [
    # 1: games and their append-only action logs.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        creator_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        seats TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL,
        board_message_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        extra TEXT NOT NULL DEFAULT '{}'
    );
    CREATE UNIQUE INDEX one_open_game_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER actions_are_append_only_update BEFORE UPDATE ON actions
    BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_are_append_only_delete BEFORE DELETE ON actions
    BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
    """,
    # 2: league scoreboards: seasons, one result per finished game with its seats, the
    # ratings per server, game, season and player, and per-server league settings.
    """
    CREATE TABLE league_seasons (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        name TEXT NOT NULL,
        started_at REAL NOT NULL,
        started_by INTEGER,
        UNIQUE (guild_id, number)
    );
    CREATE UNIQUE INDEX league_season_names ON league_seasons (guild_id, name COLLATE NOCASE);
    CREATE TABLE league_results (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        season_id INTEGER NOT NULL REFERENCES league_seasons (id),
        kind TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        board_message_id INTEGER,
        finished_at REAL NOT NULL,
        recorded_at REAL NOT NULL,
        rated INTEGER NOT NULL,
        unrated_reason TEXT
    );
    CREATE INDEX league_results_by_season
        ON league_results (guild_id, season_id, kind, finished_at);
    CREATE INDEX league_results_by_time ON league_results (guild_id, finished_at);
    CREATE TABLE league_seats (
        game_id INTEGER NOT NULL REFERENCES league_results (game_id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        placement INTEGER NOT NULL,
        points REAL NOT NULL,
        forfeit INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
        mu_before REAL,
        sigma_before REAL,
        mu_after REAL,
        sigma_after REAL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX league_seats_by_user ON league_seats (user_id, game_id);
    CREATE TABLE league_ratings (
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        season_id INTEGER NOT NULL REFERENCES league_seasons (id),
        player_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        points REAL NOT NULL,
        streak INTEGER NOT NULL,
        best_streak INTEGER NOT NULL,
        last_game_at REAL NOT NULL,
        PRIMARY KEY (guild_id, kind, season_id, player_id)
    );
    CREATE TABLE league_settings (
        guild_id INTEGER PRIMARY KEY,
        rate_computer_games INTEGER NOT NULL DEFAULT 0
    )
    """,
    # 3: which version the board (or lobby) message shows, so a board left behind by a
    # crash or a failed edit is found and redrawn. Existing boards count as up to date.
    """
    ALTER TABLE games ADD COLUMN board_version INTEGER;
    UPDATE games SET board_version = version
    """,
    # 4: turn clocks. ``due_at`` is the next moment the scheduler must look at a table
    # (a reminder, a deadline, a lobby's expiry, a pause's end); the clock itself, the
    # pause votes and the substitutes live in ``extra`` and change with the table's
    # versioned save. Per-server settings: default clock per game, lobby expiry,
    # tables in threads.
    """
    ALTER TABLE games ADD COLUMN due_at REAL;
    CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        clocks TEXT NOT NULL DEFAULT '{}',
        lobby_expiry INTEGER,
        threads INTEGER NOT NULL DEFAULT 0
    )
    """,
]
