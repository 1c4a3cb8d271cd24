"""A person at the playground in a real browser: Debian's Chromium driven by Playwright.

`python bot.py --playground` runs in its own process; the test types slash commands, plays
Bann against the computer by clicking until the game ends, then opens Barbu and checks that
a hand is on screen only while its player is selected. The last screen is kept as
build/playground.png.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from playground_process import playground_process

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "build" / "playground.png"
MAX_BANN_MOVES = 80
STEP_TIMEOUT_MS = 15_000


def chromium_or_skip() -> str:
    """Debian's Chromium; without it (or Playwright) skip, except on CI, where it must run."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    missing = []
    if chromium is None:
        missing.append("Debian's chromium (apt-get install chromium)")
    if importlib.util.find_spec("playwright") is None:
        missing.append('playwright (pip install -e ".[test]")')
    if missing:
        reason = "the browser test needs " + " and ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    assert chromium is not None
    return chromium


@pytest.fixture
def chromium() -> str:
    return chromium_or_skip()


@pytest.fixture
async def playground_url(tmp_path: Path) -> AsyncIterator[str]:
    """`python bot.py --playground` in its own process; at the end Ctrl+C must stop it cleanly."""
    async with playground_process(tmp_path) as run:
        yield run.url
    assert run.returncode == 0
    assert b"Traceback" not in run.errors and b"ERROR" not in run.errors


async def settle(page: Any, action: Callable[[], Awaitable[None]], route: str) -> dict:
    """Do something that calls /api/<route>, then wait until the page shows its outcome."""
    async with page.expect_response(f"**/api/{route}") as response_info:
        await action()
    answer = await (await response_info.value).json()
    await page.wait_for_function(
        "done => Number(document.body.dataset.actionsDone) >= done", arg=answer["done"]
    )
    return answer


async def type_command(page: Any, keys: list[str]) -> dict:
    """Type into the message box; "\\n" presses Enter (which completes or sends)."""
    box = page.locator("#composer-input")
    await box.click()
    for chunk in keys[:-1]:
        if chunk == "\n":
            await box.press("Enter")
        else:
            await box.type(chunk)
    assert keys[-1] == "\n", "the last key sends"
    return await settle(page, lambda: box.press("Enter"), "slash")


async def play_as(page: Any, name: str) -> None:
    await page.locator(f".player[data-player={name}]").click()
    await page.wait_for_selector(f"body[data-viewer={name}]")


def latest_board(page: Any) -> Any:
    return page.locator("#messages article.message").filter(has=page.locator(".embed-image")).last


def preferred_move(options: list[str]) -> int:
    """A quick player: win if possible, else capture, else the first move offered."""
    for wanted in ("wins the game", "captures"):
        for index, text in enumerate(options):
            if wanted in text:
                return index
    return 0


async def play_bann_until_it_ends(page: Any) -> int:
    moves = 0
    while moves < MAX_BANN_MOVES:
        board = latest_board(page)
        accept = board.locator("button:enabled", has_text="Accept draw")
        if await accept.count():
            await settle(page, accept.click, "click")
            continue
        tips = board.locator("button:enabled", has_text="Tip to")
        if not await tips.count():
            return moves
        await settle(page, tips.first.click, "click")
        menu = page.locator("#messages article.message.ephemeral").filter(
            has=page.locator(".select")
        )
        await menu.last.locator(".select-closed").click()
        options = menu.last.locator(".select-option")
        choice = preferred_move(await options.all_inner_texts())
        await settle(page, options.nth(choice).click, "select")
        moves += 1
    raise AssertionError(f"Bann did not end within {MAX_BANN_MOVES} moves")


async def test_a_person_plays_bann_and_barbu_in_the_browser(
    chromium: str, playground_url: str
) -> None:
    from playwright.async_api import async_playwright, expect

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = await browser.new_page(viewport={"width": 1440, "height": 900})
        page.set_default_timeout(STEP_TIMEOUT_MS)
        expect.set_options(timeout=STEP_TIMEOUT_MS)
        script_errors: list[str] = []
        page.on("pageerror", lambda error: script_errors.append(str(error)))
        try:
            await page.goto(playground_url)
            await page.wait_for_selector("body[data-viewer=alice]")

            box = page.locator("#composer-input")
            await box.click()
            await box.type("/bann n")
            await expect(page.locator(".suggestion.active")).to_contain_text("/bann new")
            await type_command(page, ["\n", "comp", "\n", "norm", "\n", "\n"])
            board = latest_board(page)
            await expect(board.locator(".command-line")).to_contain_text("alice used /bann new")
            moves = await play_bann_until_it_ends(page)
            assert moves >= 3, "a game takes a few moves"
            await expect(page.locator("#messages")).to_contain_text("🏁")
            await expect(latest_board(page).locator("button")).to_have_count(0)

            await type_command(page, ["/barbu new series:1 computers:2", "\n"])
            lobby = page.locator("#messages article.message").filter(has_text="Join").last
            await play_as(page, "bob")
            await settle(page, lobby.locator("button", has_text="Join").click, "click")
            bob_hand = page.locator("#dm-messages article.message", has_text="Your hand").last
            await expect(bob_hand.locator("img")).to_be_visible()
            bob_hand_id = await bob_hand.get_attribute("data-id")

            await play_as(page, "alice")
            alice_hand = page.locator("#dm-messages article.message", has_text="Your hand").last
            await expect(alice_hand.locator("img")).to_be_visible()
            assert await alice_hand.get_attribute("data-id") != bob_hand_id
            await expect(page.locator(f'[data-id="{bob_hand_id}"]')).to_have_count(0)
            board = latest_board(page)
            await settle(page, board.locator("button", has_text="My hand").click, "click")
            shown = page.locator("#messages article.message.ephemeral").last
            await expect(shown).to_contain_text("Only you can see this")
            shown_id = await shown.get_attribute("data-id")

            await play_as(page, "bob")
            await expect(page.locator(f'[data-id="{shown_id}"]')).to_have_count(0)
            await expect(page.locator(f'[data-id="{bob_hand_id}"]')).to_have_count(1)
            await play_as(page, "alice")
            await expect(page.locator(f'[data-id="{shown_id}"]')).to_have_count(1)
            assert script_errors == []
        finally:
            SCREENSHOT.parent.mkdir(exist_ok=True)
            await page.screenshot(path=str(SCREENSHOT))
            await browser.close()


NO_EMOJI_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{cache}</cachedir></fontconfig>
"""


async def test_a_newcomer_types_a_bare_move_tries_a_german_client_and_learns_the_emoji_font(
    chromium: str, playground_url: str, tmp_path: Path
) -> None:
    """A browser whose only font is DejaVu (no colour emoji) is told what to install; a
    move typed right after `/bann move` is sent as its notation, as Discord's client
    does; and a member switched to a German client types the German command names and
    reads the bot's private answers in German."""
    from playwright.async_api import async_playwright, expect

    fonts = tmp_path / "fonts.conf"
    fonts.write_text(NO_EMOJI_FONTS.format(cache=tmp_path / "font-cache"))
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox"],
            env={**os.environ, "FONTCONFIG_FILE": str(fonts)},
        )
        page = await browser.new_page(viewport={"width": 1280, "height": 860})
        page.set_default_timeout(STEP_TIMEOUT_MS)
        expect.set_options(timeout=STEP_TIMEOUT_MS)
        script_errors: list[str] = []
        page.on("pageerror", lambda error: script_errors.append(str(error)))
        try:
            await page.goto(playground_url)
            await page.wait_for_selector("body[data-viewer=alice]")
            note = page.locator("#emoji-note")
            await expect(note).to_be_visible()
            await expect(note).to_contain_text("fonts-noto-color-emoji")

            await type_command(page, ["/bann new computer:normal", "\n"])
            answer = await type_command(page, ["/bann move 4>5:N", "\n"])
            assert answer.get("ok"), answer
            await expect(page.locator("#composer-note")).not_to_contain_text("name:value")
            told = page.locator("#messages article.message.ephemeral").last
            await expect(told).to_contain_text("4", timeout=STEP_TIMEOUT_MS)

            await page.locator("#me-locale").select_option("de")
            box = page.locator("#composer-input")
            await box.click()
            await box.type("/bann reg")
            await expect(page.locator(".suggestion.active")).to_contain_text("/bann regeln")
            await type_command(page, ["\n", "\n"])
            rules = page.locator("#messages article.message.ephemeral").last
            await expect(rules).to_contain_text("Bann: die Regeln in Kürze")
            await expect(rules).to_contain_text("4>5:N")

            await play_as(page, "bob")
            await expect(page.locator("#me-locale")).to_have_value("en-US")
            await play_as(page, "alice")
            await expect(page.locator("#me-locale")).to_have_value("de")
            assert script_errors == []
        finally:
            await page.screenshot(path=str(tmp_path / "newcomer.png"))
            await browser.close()
