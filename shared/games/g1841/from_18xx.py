"""1841 and 18xx.games' exports, both ways: what `roundhouse import-18xx` and
`roundhouse export-18xx` need to know.

The engine speaks 18xx.games' action vocabulary; only player ids change (the export names
players by user id, the engine by seat) and a few fields 18xx.games records but the rules do
not read are dropped: a train's `variant` (1841's trains have one each), a token's `slot`
and `tokener` (the token takes the city's first free slot).

On the way out a decision goes back as it is, players by 18xx.games id, with the moves
18xx.games makes by itself after it (`auto_moves.py`) in its `auto_actions`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.export_log import NOT_DECISIONS
from shared.games.g1841.meta import META

TITLE = META.imports_18xx  # 18xx.games' title name, kept in META (the registry reads it)
OPTIONAL_RULES = ("version_1", "lite", "sfli_run_variant", "p2p_purchases")
BOOKKEEPING = ("id", "user", "created_at", "auto_actions")
# kinds 18xx.games logs among a decision's automatic moves that are no decision here
NOT_OURS = ("destination_connection",)


def table(export: dict[str, Any]) -> tuple[list[str], dict[str, Any], int]:
    seats = [str(p.get("name") or p["id"]) for p in export["players"]]
    rules = export.get("settings", {}).get("optional_rules") or []
    unknown = sorted(set(rules) - set(OPTIONAL_RULES))
    if unknown:
        raise RuleError("unsupported_option", f"optional rules {', '.join(unknown)} are not supported")
    return seats, {r: r in rules for r in OPTIONAL_RULES}, int(export["settings"]["seed"])


def player_ids(export: dict[str, Any]) -> list[str]:
    return [str(p["id"]) for p in export["players"]]


def is_decision(raw: dict[str, Any]) -> bool:
    return raw.get("type") not in NOT_DECISIONS and raw.get("type") not in ("undo", "redo", *NOT_OURS)


def action(raw: dict[str, Any], ids: list[str]) -> Any:
    plain = {k: v for k, v in raw.items() if k not in BOOKKEEPING}
    seat_of = {pid: str(i) for i, pid in enumerate(ids)}
    if plain.get("entity_type") == "player":
        pid = str(plain.get("entity"))
        if pid not in seat_of:
            raise RuleError("no_such_player", f"player {pid} is not at this table")
        plain["entity"] = seat_of[pid]
    elif "entity" in plain:
        plain["entity"] = str(plain["entity"])
    if plain.get("type") == "run_routes":
        for name in ("extra_revenue", "subsidy"):
            if plain.get(name) == 0:
                plain.pop(name)
    if plain.get("type") == "buy_train":
        plain.pop("variant", None)
    if plain.get("type") == "place_token":
        plain.pop("slot", None)
        if plain.get("tokener") == plain.get("entity"):
            plain.pop("tokener")
    try:
        decoded = A.decode_export_action(plain)
    except Exception as exc:  # msgspec.ValidationError: an unknown field or type
        raise RuleError("bad_action", str(exc)) from None
    if type(decoded) not in A.GAME_ACTION_TYPES.values():
        raise RuleError("bad_action", f"{raw.get('type')} is not a game decision")
    if isinstance(decoded, A.RunRoutes):
        decoded = msgspec.structs.replace(decoded, routes=[
            msgspec.structs.replace(r, hexes=None, revenue_str=None) for r in decoded.routes])
    return decoded


def actor(state: Any, decoded: Any) -> int:
    from shared.games.g1841 import listing as L
    player = L.acting_player(state)
    return state.players.index(player) if player is not None else 0


def automatic(state: Any) -> list[Any]:
    return []


def implicit(state: Any, decoded: Any) -> bool:
    """18xx.games' automatic passes (a step with nothing left to do: a track step whose lays
    are used, a token step with no city) are moves our engine makes by moving past the step:
    no log entry."""
    return isinstance(decoded, A.Pass)


def settings(options: dict[str, Any]) -> dict[str, Any]:
    return {"optional_rules": [rule for rule in OPTIONAL_RULES if options.get(rule)]}


def export_action(decision: Any, ids: list[str]) -> dict[str, Any]:
    """One decision as the export holds it: players by 18xx.games id; a run's `extra_revenue`
    and `subsidy` of 0 written out, as 18xx.games writes them."""
    plain = A.to_export_dict(decision)
    if plain.get("entity_type") == "player":
        pid = ids[int(plain["entity"])]
        plain["entity"] = int(pid) if pid.isdigit() else pid
    if plain.get("type") == "run_routes":
        plain.setdefault("extra_revenue", 0)
        plain.setdefault("subsidy", 0)
    return plain


def exporter() -> Any:
    """What follows one game's export (`auto_actions(before, after, decision)`)."""
    from shared.games.g1841.auto_moves import Exporter
    return Exporter()
