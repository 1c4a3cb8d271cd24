"""Game records and the rule variants: a French Barbu or a `pass` Gul Bara game's record
carries its options under the commitment and verifies with ``python -m games.verify``,
and a record (and stored snapshot) written by the code before the variants existed still
verifies and replays today.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import pytest

from games import GAMES
from games.proof import GameFacts, RecordError, verify_record, walk, write_record

ROOT = Path(__file__).resolve().parents[2]
BEFORE_VARIANTS = "d43ea187b480268ca1324c05069ee71c2e61cc9e"
"""The last commit before the table options took the rule variants: the records and
snapshots its code wrote are the ones servers hold."""
VARIANTS: dict[str, dict[str, object]] = {
    "barbu": {"series": 1, "french": True},
    "gulbara": {"head_rule": "pass"},
}
OTHER_READING: dict[str, tuple[str, object]] = {
    "barbu": ("french", False),
    "gulbara": ("head_rule", "reach"),
}
PLAYERS = {"barbu": 4, "gulbara": 2}


def random_game(kind: str, options: dict[str, object], seed: int) -> tuple[GameFacts, list]:
    chooser = random.Random(seed)
    seats = [f"P{number}" for number in range(PLAYERS[kind])]
    facts = GameFacts(kind, 12, 34, 56, seed, options, seats)
    state = GAMES[kind].new_game(players=len(seats), seed=seed, **options)
    actions = []
    while not state.is_over:
        action = chooser.choice(state.legal_actions())
        actions.append((state.current_player, action))
        state = state.apply(action)
    return facts, actions


@pytest.mark.parametrize("kind", sorted(VARIANTS))
def test_a_variant_games_record_verifies_on_the_command_line(tmp_path, kind):
    facts, actions = random_game(kind, VARIANTS[kind], seed=77)
    text = write_record(facts, actions)
    options_line = f"options: {json.dumps(VARIANTS[kind], sort_keys=True)}"
    assert options_line in text.splitlines()
    path = tmp_path / f"{kind}.txt"
    path.write_text(text, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "games.verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith(f"verified: {GAMES[kind].title} game #12")

    name, other = OTHER_READING[kind]
    relabelled = json.dumps(VARIANTS[kind] | {name: other}, sort_keys=True)
    with pytest.raises(RecordError, match="commitment does not belong"):
        verify_record(text.replace(options_line, f"options: {relabelled}"))


def test_a_value_outside_an_options_choices_is_refused_at_the_options_line():
    facts, actions = random_game("gulbara", {"head_rule": "pass"}, seed=5)
    text = write_record(facts, actions).replace('"head_rule": "pass"', '"head_rule": "later"')
    with pytest.raises(RecordError, match='head_rule” must be one of "reach", "pass"'):
        verify_record(text)


OLD_RECORDS = """
import json, random
from games import GAMES
from games.proof import GameFacts, write_record

written = {}
for kind, players, options in (("barbu", 4, {"series": 1}), ("gulbara", 2, {})):
    chooser = random.Random(3)
    facts = GameFacts(kind, 9, 1, 2, 777, options, [f"P{n}" for n in range(players)])
    state = GAMES[kind].new_game(players=players, seed=777, **options)
    actions = []
    while not state.is_over:
        action = chooser.choice(state.legal_actions())
        actions.append((state.current_player, action))
        state = state.apply(action)
    written[kind] = {
        "record": write_record(facts, actions),
        "snapshot": state.to_dict(),
        "actions": actions,
        "options": options,
    }
print(json.dumps(written))
"""


def written_before_the_variants(into: Path) -> dict[str, dict]:
    """Records, final snapshots and logs of a Barbu and a Gul Bara game, as the rules of
    ``BEFORE_VARIANTS`` wrote them (its ``games`` package, run in a child process)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", BEFORE_VARIANTS, "games"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    printed = subprocess.run(
        [sys.executable, "-c", OLD_RECORDS],
        capture_output=True,
        check=True,
        text=True,
        cwd=into,
        env={"PYTHONPATH": str(into), "PATH": "/usr/bin:/bin"},
    ).stdout
    return json.loads(printed)


def test_records_and_snapshots_written_before_the_variants_still_verify_and_replay(tmp_path):
    written = written_before_the_variants(tmp_path)
    for kind, old in written.items():
        assert "french" not in old["record"] and "head_rule" not in old["record"]
        assert verify_record(old["record"]).startswith(f"verified: {GAMES[kind].title}")
        seats = [f"P{n}" for n in range(PLAYERS[kind])]
        stored = GameFacts(kind, 9, 1, 2, 777, old["options"], seats, final=old["snapshot"])
        steps = list(walk(stored, [(seat, action) for seat, action in old["actions"]]))
        assert len(steps) == len(old["actions"]) + 1, "the stored game replays to its end"
