"""Stored reviews and puzzle answers, on a real SQLite file and a real PostgreSQL schema:
a review is found again only for the engine that made it, a newer engine's replaces it;
only a member's first answer to a puzzle counts; /privacy finds and forgets his answers
on one server without touching another's."""

from testdb import both_engines

from data.members import MemberData
from data.reviews import PuzzleTally, ReviewBook
from data.store import Seat

pytestmark = both_engines()

ALICE, BOB = 100, 200
SERVER, OTHER_SERVER = 1, 2


async def a_game(store, guild: int = SERVER, channel: int = 10) -> int:
    table = await store.create_table(
        kind="bann",
        guild_id=guild,
        channel_id=channel,
        creator_id=ALICE,
        seats=[Seat("Alice", ALICE)],
        options={},
        seed=5,
    )
    return table.id


async def test_a_review_is_kept_per_engine_and_replaced_by_a_newer_one(store):
    book = ReviewBook(store)
    game = await a_game(store)
    assert await book.get(game, "v1") is None
    await book.save(game, "v1", '{"kind":"bann"}')
    kept = await book.get(game, "v1")
    assert kept is not None and kept.review == '{"kind":"bann"}' and kept.engine == "v1"
    assert await book.get(game, "v2") is None, "another engine's review is not this one's"
    await book.save(game, "v2", '{"kind":"bann","new":1}')
    assert await book.get(game, "v1") is None
    newer = await book.get(game, "v2")
    assert newer is not None and newer.review == '{"kind":"bann","new":1}'
    assert [r.game_id for r in await book.reviewed_in(SERVER, "bann", "v2")] == [game]
    assert await book.reviewed_in(OTHER_SERVER, "bann", "v2") == []
    assert await book.reviewed_in(SERVER, "gulbara", "v2") == []
    other = await a_game(store, channel=11)
    assert await book.of_games([game, other], "v2") == {game: '{"kind":"bann","new":1}'}
    assert await book.of_games([game], "v1") == {}


async def test_only_the_first_answer_to_a_puzzle_counts(store):
    book = ReviewBook(store)
    assert await book.answer_puzzle(ALICE, SERVER, "bann", "game:1:7", solved=False)
    assert not await book.answer_puzzle(ALICE, SERVER, "bann", "game:1:7", solved=True)
    assert await book.answer_puzzle(ALICE, SERVER, "bann", "game:1:9", solved=True)
    assert await book.answer_puzzle(ALICE, SERVER, "gulbara", "game:2:3", solved=True)
    assert await book.answer_puzzle(BOB, SERVER, "bann", "game:1:7", solved=True)
    assert await book.tallies(ALICE, SERVER) == {
        "bann": PuzzleTally(answered=2, solved=1),
        "gulbara": PuzzleTally(answered=1, solved=1),
    }
    assert await book.answered(ALICE, SERVER) == {"game:1:7", "game:1:9", "game:2:3"}
    assert await book.tallies(ALICE, OTHER_SERVER) == {}


async def test_privacy_shows_and_forgets_puzzle_answers_per_server(store):
    book = ReviewBook(store)
    await book.answer_puzzle(ALICE, SERVER, "bann", "game:1:7", solved=True)
    await book.answer_puzzle(ALICE, OTHER_SERVER, "bann", "game:4:2", solved=False)
    await book.answer_puzzle(BOB, SERVER, "bann", "game:1:7", solved=True)
    members = MemberData(store)
    [records] = await members.records(ALICE, SERVER)
    assert [(row["puzzle"], row["solved"]) for row in records.puzzles] == [("game:1:7", 1)]
    await members.forget(ALICE, SERVER)
    assert await book.tallies(ALICE, SERVER) == {}
    assert await book.tallies(ALICE, OTHER_SERVER) == {"bann": PuzzleTally(1, 0)}
    assert await book.tallies(BOB, SERVER) == {"bann": PuzzleTally(1, 1)}, "others' stay"
