"""The page's Discord markdown in a real browser, on text any player can type: it never
breaks the page and never writes markup inside a tag."""

from __future__ import annotations

from pathlib import Path

from test_playground_browser import chromium_or_skip

MARKDOWN = Path(__file__).resolve().parents[2] / "playground" / "static" / "markdown.js"
CONTEXT = "{userName: () => 'bob', channelName: () => 'games', viewer: '1'}"


async def rendered(texts: list[str]) -> list[dict]:
    """Each text rendered as the page renders a message, parsed back by the browser."""
    from playwright.async_api import async_playwright

    chromium = chromium_or_skip()
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = await browser.new_page()
            await page.add_script_tag(path=str(MARKDOWN))
            return await page.evaluate(
                f"""(texts) => texts.map((text) => {{
                    try {{
                        const box = document.createElement("div");
                        box.innerHTML = DiscordMarkdown.render(text, {CONTEXT});
                        const links = [...box.querySelectorAll("a")];
                        return {{
                            text: box.textContent,
                            hrefs: links.map((a) => a.getAttribute("href")),
                            attributes: links.map((a) => a.getAttributeNames().sort()),
                        }};
                    }} catch (problem) {{
                        return {{error: String(problem)}};
                    }}
                }})""",
                texts,
            )
        finally:
            await browser.close()


async def test_typed_markup_stays_text_and_links_keep_their_own_attributes():
    far_future, spoiled_link, query, smuggled = await rendered(
        [
            "see you <t:99999999999999:R>",
            "[rules](https://example.org/||) read them||",
            "[a](https://example.org/?x=1&y=2)",
            "\x000\x00 and `code`",
        ]
    )
    assert far_future == {
        "text": "see you <t:99999999999999:R>",
        "hrefs": [],
        "attributes": [],
    }, "a date past what the browser can show stays as typed instead of breaking the page"
    assert spoiled_link["hrefs"] == ["https://example.org/||"]
    assert spoiled_link["attributes"] == [["href", "rel", "target"]]
    assert query["hrefs"] == ["https://example.org/?x=1&y=2"], "no double escaping"
    assert smuggled["text"] == "0 and code", "a message cannot call up set-aside parts"
