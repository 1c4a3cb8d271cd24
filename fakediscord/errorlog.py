"""Collects ERROR log records: discord.py only logs exceptions raised in callbacks."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

WATCHED_LOGGERS = ("discord", "tablebot")


class ErrorLog(logging.Handler):
    """Records ERROR and worse from discord.* and tablebot.*; a test may expect some."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self._expected: list[re.Pattern[str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def loop_exception_handler(
        self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]
    ) -> None:
        """For loop.set_exception_handler: e.g. a failed "table:" task nobody awaited."""
        error = context.get("exception")
        exc_info = None if error is None else (type(error), error, error.__traceback__)
        self.records.append(
            logging.makeLogRecord(
                {
                    "name": "asyncio",
                    "levelno": logging.ERROR,
                    "levelname": "ERROR",
                    "msg": context.get("message", "unhandled error in the event loop"),
                    "exc_info": exc_info,
                }
            )
        )

    def install(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).addHandler(self)

    def uninstall(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).removeHandler(self)

    def expect(self, pattern: str) -> None:
        """Declare an error this test provokes on purpose (regex searched in message+traceback).

        It must then be logged at least once; every record it matches is forgiven."""
        self._expected.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        texts = [describe(record) for record in self.records]
        return [text for text in texts if not any(p.search(text) for p in self._expected)]

    def unmet_expectations(self) -> list[str]:
        texts = [describe(record) for record in self.records]
        return [p.pattern for p in self._expected if not any(p.search(t) for t in texts)]

    def problems(self) -> str:
        """Empty when all is well, else a report fit for a failing test."""
        parts = [f"unexpected ERROR log:\n{text}" for text in self.unexpected()]
        parts += [
            f"expected error never logged: {pattern!r}" for pattern in self.unmet_expectations()
        ]
        return "\n\n".join(parts)


def describe(record: logging.LogRecord) -> str:
    text = f"[{record.name}] {record.getMessage()}"
    if record.exc_info:
        text += "\n" + logging.Formatter().formatException(record.exc_info)
    return text
