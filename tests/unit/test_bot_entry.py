"""`python bot.py` explains a missing or rejected token in one line, without a traceback."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot

ROOT = Path(__file__).resolve().parents[2]


def run_bot_script(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISCORD_TOKEN", "DEV_GUILD_ID")
    }
    environment.update(settings)
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_no_token_prints_one_line_saying_what_to_set(tmp_path):
    finished = run_bot_script(tmp_path)
    assert finished.returncode != 0
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in finished.stderr + finished.stdout


def test_a_malformed_dev_guild_id_is_named(tmp_path):
    finished = run_bot_script(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="my-server")
    assert finished.returncode != 0
    assert "DEV_GUILD_ID" in finished.stderr and "Traceback" not in finished.stderr


@pytest.fixture
def root_logging_restored():
    """``bot.main`` gives the root logger a handler on this test's captured stderr; a
    later test's log lines would go to that closed stream."""
    handlers, level = list(logging.root.handlers), logging.root.level
    yield
    logging.root.handlers[:] = handlers
    logging.root.setLevel(level)


@pytest.mark.usefixtures("root_logging_restored")
def test_a_rejected_token_prints_one_line(monkeypatch, capsys):
    async def rejected(token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setattr(bot, "_run", rejected)
    assert bot.main() == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "rejected DISCORD_TOKEN" in lines[0]


@pytest.mark.parametrize("raw", ["", "  "])
def test_an_empty_dev_guild_id_means_global_commands(monkeypatch, raw):
    monkeypatch.setenv("DEV_GUILD_ID", raw)
    assert bot.create_bot(database_path=":memory:").dev_guild_id is None


@pytest.mark.parametrize("raw", ["²", "١٢٣", "12_3"])
def test_a_dev_guild_id_in_other_digits_is_a_settings_error(monkeypatch, raw):
    monkeypatch.setenv("DEV_GUILD_ID", raw)
    with pytest.raises(bot.SettingsError, match="digits only"):
        bot.create_bot(database_path=":memory:")


def test_boards_are_drawn_by_the_render_processes_the_operator_sets(monkeypatch):
    monkeypatch.setenv("RENDER_PROCESSES", "3")
    assert bot.create_bot(database_path=":memory:").render_processes == 3
    monkeypatch.delenv("RENDER_PROCESSES")
    assert bot.create_bot(database_path=":memory:").render_processes == 2


@pytest.mark.parametrize("raw", ["two", "²", "-1"])
def test_render_processes_that_are_not_a_count_are_a_settings_error(monkeypatch, raw):
    monkeypatch.setenv("RENDER_PROCESSES", raw)
    with pytest.raises(bot.SettingsError, match="RENDER_PROCESSES"):
        bot.create_bot(database_path=":memory:")


@pytest.mark.parametrize("raw", ["docs/rules", "example.org/rules", "https://exa mple.org"])
def test_a_rules_url_that_is_no_web_address_is_a_settings_error(monkeypatch, raw):
    monkeypatch.setenv("RULES_URL", raw)
    with pytest.raises(bot.SettingsError, match="RULES_URL"):
        bot.create_bot(database_path=":memory:")


def test_an_unreachable_postgresql_stops_the_bot_with_one_line(tmp_path):
    finished = run_bot_script(
        tmp_path,
        DISCORD_TOKEN="not-used-because-it-stops-first",
        DATABASE_URL="postgresql://tablebot:s3cret@127.0.0.1:1/tablebot",
    )
    assert finished.returncode == 2
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot open the PostgreSQL database" in lines[0], lines
    assert "s3cret" not in finished.stderr, "the password is not printed"
