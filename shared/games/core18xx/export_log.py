"""Reading an 18xx.games export's action list as the decisions that took effect.

18xx.games keeps undo/redo in the log (`Game::Base.filtered_actions`): `undo` with `action_id`
rewinds to just after that action (0: to the start), without it to before the last live action;
`redo` restores what the latest undo removed; any other action forgets pending redos. Chat
messages are never undone. The decisions a rules engine replays are then the live actions in order,
each followed by its `auto_actions` (passes 18xx.games made for a player's standing "program"),
leaving out chat and the program settings themselves, which change no game state.
"""

from __future__ import annotations

from typing import Any

NOT_DECISIONS = frozenset({"message", "program_share_pass", "program_buy_shares", "program_merger_pass",
                           "program_close_pass", "program_auction_bid", "program_disable",
                           "program_harzbahn_draft_pass", "program_independent_mines", "program_enable"})


def live_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions not undone, in order (undo/redo resolved as 18xx.games does)."""
    live: list[dict[str, Any] | None] = [None] * len(actions)
    undone_stack: list[list[tuple[dict[str, Any], int]]] = []
    index_of_id = {a["id"]: i for i, a in enumerate(actions) if "id" in a}
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is not None:
                if target == 0:
                    start = 0
                elif target in index_of_id:
                    start = index_of_id[target] + 1
                else:
                    raise ValueError(f"undo at {index} names unknown action {target}")
            else:
                start = next((i for i in range(index - 1, -1, -1)
                              if live[i] is not None and live[i]["type"] != "message"), 0)  # type: ignore[index]
            removed: list[tuple[dict[str, Any], int]] = []
            for i in range(start, index):
                item = live[i]
                if item is not None and item["type"] != "message":
                    removed.append((item, i))
                    live[i] = None
            undone_stack.append(removed)
        elif kind == "redo":
            if not undone_stack:
                raise ValueError(f"redo at {index} with nothing undone")
            for item, i in undone_stack.pop():
                live[i] = item
        elif kind == "message":
            live[index] = action
        else:
            undone_stack.clear()
            live[index] = action
    return [a for a in live if a is not None]


def decisions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Live decisions in the order the game processed them, auto actions flattened in."""
    out: list[dict[str, Any]] = []
    for action in live_actions(actions):
        if action["type"] not in NOT_DECISIONS:
            out.append(action)
        for auto in action.get("auto_actions") or []:
            if auto["type"] not in NOT_DECISIONS:
                out.append(auto)
    return out
