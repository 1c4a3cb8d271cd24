"""Lesson progress in the store, on a real SQLite file and a real PostgreSQL schema: saved
over the version it was read at, found again by that version, one row per member and
game, forgotten with the member."""

import asyncio

import pytest
from testdb import both_engines

from data import StaleVersion
from data.lessons import LessonBook, LessonProgress

pytestmark = both_engines()

ALICE, BOB = 100, 200


async def test_a_new_lesson_is_saved_and_read_back(store):
    book = LessonBook(store)
    assert await book.get(ALICE, "bann") is None
    saved = await book.save(LessonProgress(ALICE, "bann"))
    assert saved.version == 1
    assert await book.get(ALICE, "bann") == saved
    moved = await book.save(saved.at(2, ("2>6:N", "accept"), solved=True))
    assert moved == LessonProgress(ALICE, "bann", 2, ("2>6:N", "accept"), True, 2)
    assert await book.get(ALICE, "bann") == moved


async def test_a_version_counts_all_lessons_of_a_member_and_finds_the_lesson(store):
    book = LessonBook(store)
    bann = await book.save(LessonProgress(ALICE, "bann"))
    barbu = await book.save(LessonProgress(ALICE, "barbu"))
    bobs = await book.save(LessonProgress(BOB, "bann"))
    assert (bann.version, barbu.version, bobs.version) == (1, 2, 1)
    assert await book.at_version(ALICE, 2) == barbu
    assert await book.at_version(ALICE, 1) == bann
    assert await book.at_version(BOB, 2) is None
    later = await book.save(bann.at(1))
    assert later.version == 3 and await book.at_version(ALICE, 1) is None, (
        "a control drawn before the change finds no lesson any more"
    )


async def test_a_change_from_an_older_version_changes_nothing(store):
    book = LessonBook(store)
    first = await book.save(LessonProgress(ALICE, "gulbara"))
    await book.save(first.at(1))
    with pytest.raises(StaleVersion):
        await book.save(first.at(3))
    with pytest.raises(StaleVersion):
        await book.save(LessonProgress(ALICE, "gulbara"))
    stored = await book.get(ALICE, "gulbara")
    assert stored is not None and stored.step == 1


async def test_two_taps_at_once_save_once(store):
    book = LessonBook(store)
    first = await book.save(LessonProgress(ALICE, "barree"))
    results = await asyncio.gather(
        book.save(first.at(1)), book.save(first.at(2)), return_exceptions=True
    )
    assert sum(isinstance(result, StaleVersion) for result in results) == 1
    saved = [result for result in results if isinstance(result, LessonProgress)]
    assert await book.get(ALICE, "barree") == saved[0]


async def test_a_member_is_forgotten_with_all_his_lessons(store):
    book = LessonBook(store)
    await book.save(LessonProgress(ALICE, "bann"))
    await book.save(LessonProgress(ALICE, "barbu"))
    await book.save(LessonProgress(BOB, "bann"))
    assert [progress.kind for progress in await book.of_member(ALICE)] == ["bann", "barbu"]
    assert await book.forget(ALICE) == 2
    assert await book.of_member(ALICE) == []
    assert len(await book.of_member(BOB)) == 1
