"""The rules lawyer recounts the dice luck of /league profile by himself: from the seed and
the stored game alone, with the README's description of how dice come from the seed and
the rule book's order of throws, none of the bot's replay code."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import re
from collections import Counter
from collections.abc import Iterator

from stored import stored_game
from test_archive_e2e import play_gulbara_to_the_end

WORD = 1 << 64


def words(seed: int, draw: int) -> Iterator[int]:
    """Draw ``draw``'s 64-bit words: HMAC-SHA256, key the seed's digits, "<draw>:<block>"."""
    for block in itertools.count():
        digest = hmac.new(str(seed).encode(), f"{draw}:{block}".encode(), hashlib.sha256).digest()
        for start in range(0, 32, 8):
            yield int.from_bytes(digest[start : start + 8], "big")


def throw(seed: int, draw: int, dice: int) -> list[int]:
    """``dice`` six-sided dice from one draw, rejecting words of the top partial range."""
    fair = (word for word in words(seed, draw) if word < WORD - WORD % 6)
    return [1 + next(fair) % 6 for _ in range(dice)]


def gulbara_throws(seed: int, draws: int) -> list[tuple[int, list[int]]]:
    """(seat, dice) of every throw of a one-game Gul Bara match that made ``draws`` draws.

    The rule book: each player throws one die, again on a tie, the higher die starts and
    plays both; from then on the turns alternate and each begins with a throw of two dice
    (a throw that allows no step still counts and passes the turn)."""
    throws: list[tuple[int, list[int]]] = []
    draw = 0
    while True:
        first, second = throw(seed, draw, 1), throw(seed, draw + 1, 1)
        throws += [(0, first), (1, second)]
        draw += 2
        if first != second:
            break
    seat = 1 if first > second else 0
    for number in range(draw, draws):
        throws.append((seat, throw(seed, number, 2)))
        seat = 1 - seat
    return throws


async def test_profile_luck_matches_a_count_made_from_the_seed_alone(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await play_gulbara_to_the_end(world, database_path)
    game = stored_game(database_path)
    assert json.loads(game["options"]).get("match_to", 1) == 1, "a one-game match"
    draws = json.loads(game["state"])["rng"]["draws"]
    alice = [dice for seat, dice in gulbara_throws(game["seed"], draws) if seat == 0]
    faces = Counter(face for dice in alice for face in dice)
    pairs = [dice for dice in alice if len(dice) == 2]
    doubles = sum(1 for first, second in pairs if first == second)

    profile = await world.alice.slash(world.games, "league profile")
    [embed] = profile.message.embeds
    luck = next(field for field in embed["fields"] if "Gul Bara" in field["name"])["value"]
    dice = sum(faces.values())
    singles = len(alice) - len(pairs)
    opening = {0: "", 1: ", 1 of them an opening roll of one die"}.get(
        singles, f", {singles} of them opening rolls of one die"
    )
    assert luck.splitlines()[0] == f"{len(alice)} rolls ({dice} dice) in 1 game{opening}", (
        "a roll of one die is told apart from the rolls that may be doubles"
    )
    counted = dict(re.findall(r"(\d): (\d+)", luck.splitlines()[1]))
    assert counted == {str(face): str(faces[face]) for face in range(1, 7)}
    assert f"(fair dice: {dice / 6:.1f} each)" in luck
    assert luck.splitlines()[2] == (
        f"Doubles: {doubles} in {len(pairs)} two-dice roll{'s' if len(pairs) != 1 else ''}"
        f" (fair dice: {len(pairs) / 6:.1f})"
    )
