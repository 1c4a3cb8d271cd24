"""Print, as JSON, the slash commands a bot syncs to Discord: each command's payload as
discord.py sends it, and as the translator localises it.

    python tests/command_tree.py ROOT

ROOT is the checkout whose bot is built (this one, or another release's tree), so two
releases' commands can be compared.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path


async def synced(root: Path) -> dict[str, list[object]]:
    import bot as bot_module

    with tempfile.TemporaryDirectory() as folder:
        bot = bot_module.create_bot(
            database_path=str(Path(folder) / "commands.sqlite3"), dev_guild_id=None
        )
        # Building the cogs is all that is wanted: there is no Discord to sync to.
        bot._sync_commands = _nothing
        await bot.setup_hook()
        tree = bot.tree
        commands = tree.get_commands()
        translator = tree.translator
        assert translator is not None
        payload = {
            "plain": [command.to_dict(tree) for command in commands],
            "translated": [
                await command.get_translated_payload(tree, translator) for command in commands
            ],
        }
        await bot.close()
    return payload


async def _nothing() -> None:
    return None


if __name__ == "__main__":
    root = Path(sys.argv[1]).resolve()
    sys.path.insert(0, str(root))
    os.chdir(root)
    for setting in ("DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS", "METRICS_PORT"):
        os.environ.pop(setting, None)
    print(json.dumps(asyncio.run(synced(root)), ensure_ascii=False, default=str))
