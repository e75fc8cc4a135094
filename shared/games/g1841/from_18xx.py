"""How `roundhouse import-18xx` reads a 1841 export: its options from `optional_rules`."""

from __future__ import annotations

from typing import Any

OPTIONAL_RULES = ("version_1", "lite", "sfli_run_variant", "p2p_purchases")


def options(export: dict[str, Any]) -> dict[str, Any]:
    rules = (export.get("settings") or {}).get("optional_rules") or export.get("optional_rules") or []
    unknown = [r for r in rules if r not in OPTIONAL_RULES]
    if unknown:
        raise ValueError(f"1841 has no optional rule {unknown[0]!r}")
    return {r: r in rules for r in OPTIONAL_RULES}
