"""A replay frame's caption in the viewer's language."""

from __future__ import annotations

from games.replays import Frame
from texts.barbu import contract_title_of
from texts.i18n import t


def caption(language: str, frame: Frame) -> str:
    """``frame``'s caption; a Barbu contract (``trumps:H``) is named in ``language``."""
    params = dict(frame.params)
    if "contract" in params:
        params["contract"] = contract_title_of(language, str(params["contract"]))
    return t(language, frame.caption, **params)
