"""SHARD_COUNT / SHARD_IDS: what a process runs, and one clear line for a bad setting."""

from __future__ import annotations

import pytest
from test_bot_entry import run_bot_script

from shards import ShardPlan, parse_shard_ids, plan_from_env


def test_no_shard_count_means_not_sharded():
    assert plan_from_env({}) is None


def test_a_shard_count_alone_runs_every_shard_and_syncs_commands():
    plan = plan_from_env({"SHARD_COUNT": "4"})
    assert plan == ShardPlan(4, (0, 1, 2, 3))
    assert not plan.is_partial and plan.syncs_commands


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("4,5", (4, 5)), ("0-1,6", (0, 1, 6)), (" 7 ", (7,))],
)
def test_shard_ids_are_ranges_or_lists(text, ids):
    assert parse_shard_ids(text, 8) == ids


def test_only_the_process_with_shard_zero_syncs_commands():
    first, second = ShardPlan(4, (0, 1)), ShardPlan(4, (2, 3))
    assert first.syncs_commands and not second.syncs_commands
    assert second.is_partial and second.describe() == "shards 2-3 of 4"


@pytest.mark.parametrize(
    ("settings", "complaint"),
    [
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-9"}, "must lie within 0-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "must lie within 0-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a,b"}, "SHARD_IDS must look like 0-3"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ],
)
def test_a_bad_setting_is_named(settings, complaint):
    with pytest.raises(ValueError, match=complaint):
        plan_from_env(settings)


def test_the_bot_refuses_a_bad_shard_setting_in_one_line(tmp_path):
    finished = run_bot_script(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="5")
    assert finished.returncode == 2
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and "SHARD_IDS '5' must lie within 0-1" in lines[0]
