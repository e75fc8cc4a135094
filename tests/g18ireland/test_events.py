"""18Ireland's train events on the money side, fired by buying the first train of a type."""

from __future__ import annotations

import msgspec
import pytest

from shared.games.core18xx.money import trains as T
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]


def test_8h_closes_privates_and_unstarted_minors() -> None:
    setup = draw_setup(689309492, COMPANIES, MINORS)
    state = M.initial(["a", "b", "c"], setup)
    money = state.money.set_par("LER", (2, 4))
    money = msgspec.structs.replace(money, companies={"DAR": "a", "BoW": "LER"}, cash={**money.cash, "LER": 10_000})
    state = msgspec.structs.replace(state, money=money)
    depot = state.depot
    fired: list[str] = []
    cash = dict(money.cash)
    while depot.upcoming[0] != "10H-0":
        train = depot.trains[depot.upcoming[0]]
        p = T.buy_train(depot, cash, "LER", train.id, depot.price_for(train), release_half_on_rust=True)
        depot, cash = p.depot, p.cash
        fired += p.events
        state = M.apply_events(state, p.events)
    assert fired == ["corporations_can_merge", "majors_can_ipo", "minors_cannot_start", "close_companies"]
    assert state.money.companies == {}
    assert not state.money.corps["LER"].closed                       # started: stays
    assert all(state.money.corps[m].closed for m in setup.minors if m != "LER")
    with pytest.raises(ValueError):
        M.apply_events(state, ["no_such_event"])
