"""Contract v2 types, taken from `shared.engine` when main has them.

Until contract v2 lands (`TitleMeta`, `OptionSpec`, `Choice`, `LegalAction.choices`), this
module defines structurally identical stand-ins so the title can be built and tested now.
Once main has them, the `try` branch wins and nothing else in the package changes.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from shared.engine import AmountRange, Result, RuleError  # noqa: F401  (re-exported)
import shared.engine as _engine

if hasattr(_engine, "Choice") and "choices" in getattr(_engine.LegalAction, "__struct_fields__", ()):
    Choice = _engine.Choice
    LegalAction = _engine.LegalAction
else:

    class Choice(msgspec.Struct, frozen=True):  # type: ignore[no-redef]
        field: str
        values: list[Any]
        then: "list[Choice | AmountRange | None] | None" = None
        open: bool = False

    class LegalAction(msgspec.Struct, frozen=True):  # type: ignore[no-redef]
        action: Any
        range: AmountRange | None = None
        choices: Choice | None = None


if hasattr(_engine, "TitleMeta") and hasattr(_engine, "OptionSpec"):
    TitleMeta = _engine.TitleMeta
    OptionSpec = _engine.OptionSpec
else:

    class OptionSpec(msgspec.Struct, frozen=True):  # type: ignore[no-redef]
        name: str
        type: Literal["int", "bool", "choice", "str"]
        default: Any
        label: str = ""
        help: str = ""
        choices: list[Any] | None = None
        min: int | None = None
        max: int | None = None

    class TitleMeta(msgspec.Struct, frozen=True):  # type: ignore[no-redef]
        id: str
        name: str
        min_players: int
        max_players: int
        rules_version: str
        options: list[OptionSpec] = []
        summary: str = ""
        bot_kit: str | None = None
        web_module: str | None = None
        undo: str = "own"
        public_view: bool = False
