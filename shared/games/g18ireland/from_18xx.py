"""18Ireland and 18xx.games' exports, both ways: what `roundhouse import-18xx` and
`roundhouse export-18xx` need to know.

The engine speaks 18xx.games' own action vocabulary, so an exported action is decoded as it is
and a decision encodes back as it is; only player ids change: the export names players by their
18xx.games user id, the engine by seat ("0" for the export's first player, and so on).
"""

from __future__ import annotations

from typing import Any

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.export_log import NOT_DECISIONS
from shared.games.g18ireland import listing as L
from shared.games.g18ireland.meta import META
from shared.games.g18ireland.state import State

TITLE = META.imports_18xx  # 18xx.games' title name, kept in META (the registry reads it)
BOOKKEEPING = ("id", "user", "created_at", "auto_actions")
OPTIONAL_RULES = ("larger_bank",)   # 18xx.games' optional rules, each our boolean option of that name
PLAYER_FIELDS = ("entity", "purchase_for", "borrow_from")
_TYPED_FIELDS = tuple((name, f"{name}_type") for name in PLAYER_FIELDS)   # (each field with its type's field)


def table(export: dict[str, Any]) -> tuple[list[str], dict[str, Any], int]:
    """(seat names, options, seed) of the table the export was played at."""
    seats = [str(p.get("name") or p["id"]) for p in export["players"]]
    rules = export.get("settings", {}).get("optional_rules") or []
    unknown = sorted(set(rules) - set(OPTIONAL_RULES))
    if unknown:
        raise RuleError("unsupported_option", f"optional rules {', '.join(unknown)} are not supported")
    return seats, {"larger_bank": "larger_bank" in rules}, int(export["settings"]["seed"])


def player_ids(export: dict[str, Any]) -> list[str]:
    return [str(p["id"]) for p in export["players"]]


def is_decision(raw: dict[str, Any]) -> bool:
    return raw.get("type") not in NOT_DECISIONS and raw.get("type") not in ("undo", "redo")


def action(raw: dict[str, Any], ids: list[str]) -> Any:
    """The engine action for one exported decision (bookkeeping dropped, players by seat)."""
    plain = dict(raw)
    for k in BOOKKEEPING:
        plain.pop(k, None)
    for name, type_field in _TYPED_FIELDS:
        if name not in plain:
            continue
        kind = plain.get(type_field, "player" if name != "entity" else plain.get("entity_type"))
        if kind == "player":
            pid = str(plain[name])
            if pid not in ids:
                raise RuleError("no_such_player", f"player {pid} is not at this table")
            plain[name] = str(ids.index(pid))     # (an export's player ids are distinct)
        elif plain[name] is not None:
            plain[name] = str(plain[name])
    try:
        decoded = A.decode_export_action(plain)
    except Exception as exc:  # msgspec.ValidationError: an unknown field or type
        raise RuleError("bad_action", str(exc)) from None
    if type(decoded) not in A.GAME_ACTION_TYPES.values():
        raise RuleError("bad_action", f"{raw.get('type')} is not a game decision")
    return decoded


def actor(state: State, decoded: Any) -> int:
    """The seat deciding `decoded` now (a company's president, a private's owner)."""
    return L.actor(state, decoded)


def automatic(state: State) -> list[Any]:
    """The decisions the engine just made by itself, as the export records them among a
    decision's `auto_actions` (merger-round passes of players with nothing to propose)."""
    return [A.Pass(entity=p, entity_type="player") for p in state.auto_passed]


# --- the other way: our table as an 18xx.games export ----------------------------------------

def settings(options: dict[str, Any]) -> dict[str, Any]:
    """The export's `settings` for a table with these options (the seed is added by the caller)."""
    return {"optional_rules": [rule for rule in OPTIONAL_RULES if options.get(rule)]}


def export_action(decision: Any, ids: list[str]) -> dict[str, Any]:
    """One decision (or program) as the export holds it: players by 18xx.games id."""
    plain = A.to_export_dict(decision)
    for name, type_field in _TYPED_FIELDS:
        kind = plain.get(type_field, "player" if name != "entity" else plain.get("entity_type"))
        if name in plain and kind == "player":
            plain[name] = _export_id(ids[int(plain[name])])
    return plain


def auto_actions(state: State) -> list[Any]:
    """What the engine did by itself in the decision just applied, in the order 18xx.games
    lists a decision's `auto_actions`: the merger-round passes, then the moves players'
    programs made."""
    return [*automatic(state), *(made.action for made in state.programs.made)]


def _export_id(pid: str) -> int | str:
    return int(pid) if pid.isdigit() else pid
