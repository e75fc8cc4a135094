"""Legal actions agree with apply, checked on the real games: at every decision of the exports'
private auction and first stock round, the export's decision is one of our legal actions, every
legal action we list (each end of a range) applies, and the value just past a range is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.export_log import decisions
from shared.games.core18xx.steps import stock_round as SR
from shared.games.core18xx.steps import waterfall_auction as W
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

from .exports import export_paths

EXPORTS = export_paths("18Ireland")
RULES = SR.StockRules()
COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
VALUES = {c["sym"]: c["value"] for c in M.ENTITIES["companies"]}
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]


def as_action(move: dict[str, Any]) -> A.Action:
    plain = {k: v for k, v in move.items() if k not in ("id", "user", "created_at", "auto_actions")}
    plain["entity"] = str(plain["entity"])
    return A.decode_export_action(plain)  # type: ignore[return-value]


def family_values(legal: LegalAction) -> list[A.Action]:
    if legal.range is None:
        return [legal.action]
    r = legal.range
    return [msgspec.structs.replace(legal.action, **{r.field: v}) for v in sorted({r.min, r.max})]


def covers(legal: list[LegalAction], action: A.Action, same_source: Any) -> bool:
    for item in legal:
        cand = item.action
        if type(cand) is not type(action):
            continue
        if item.range is not None:
            r = item.range
            value = getattr(action, r.field)
            if not (r.min <= value <= r.max and (value - r.min) % r.step == 0):
                continue
            if msgspec.structs.replace(cand, **{r.field: value}) == action:
                return True
        elif cand == action or same_source(cand, action):
            return True
    return False


def check_family(legal: list[LegalAction], apply_one: Any) -> None:
    for item in legal:
        for action in family_values(item):
            apply_one(action)                       # must not raise
        if item.range is not None:
            past = msgspec.structs.replace(item.action, **{item.range.field: item.range.max + item.range.step})
            with pytest.raises(RuleError):
                apply_one(past)


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_legal_actions_cover_the_exports_and_apply(path: Path) -> None:
    export = json.loads(path.read_text())
    moves = decisions(export["actions"])
    players = [str(p["id"]) for p in export["players"]]
    setup = draw_setup(export["settings"]["seed"], COMPANIES, MINORS)
    state = M.initial(players, setup)
    auction = W.new_waterfall(players, {p: state.money.cash[p] for p in players},
                              [(c, VALUES[c]) for c in setup.companies])
    i = 0
    while not auction.finished:
        player = auction.active_player()
        assert player is not None
        legal = W.legal(auction, player)
        for other in players:
            assert other == player or W.legal(auction, other) == []
        action = as_action(moves[i])
        assert covers(legal, action, lambda a, b: False), (moves[i], legal)
        check_family(legal, lambda act, s=auction, p=player: W.apply(s, p, act))
        auction = W.apply(auction, player, action)
        i += 1
    state = M.apply_private_sales(state, auction.sales, setup.companies)
    order = players[auction.entity_index:] + players[:auction.entity_index]
    money = msgspec.structs.replace(state.money, players=order)
    money, sr = SR.start(money, setup.minors, "2", RULES)

    def same_source(cand: A.Action, act: A.Action) -> bool:
        # buying: any certificate of the same company, holder and size is the same decision
        if isinstance(cand, A.BuyShares) and isinstance(act, A.BuyShares):
            c, a = money.book.certs[cand.shares[0]], money.book.certs.get(act.shares[0])
            return a is not None and (c.corporation, c.percent, money.book.owner[c.id]) == (
                a.corporation, a.percent, money.book.owner[a.id])
        return False

    while not sr.finished:
        player = SR.active_player(money, sr)
        assert player is not None
        legal = SR.legal(money, sr, player, RULES)
        assert legal, "the player to act always has something to do"
        action = as_action(moves[i])
        assert covers(legal, action, same_source), (moves[i], legal)
        check_family(legal, lambda act, m=money, s=sr, p=player: SR.apply(m, s, p, act, RULES))
        money, sr = SR.apply(money, sr, player, action, RULES)
        i += 1
    assert moves[i]["entity_type"] == "corporation"
