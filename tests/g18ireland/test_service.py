"""18Ireland through the game service (real Redis): a table is created from the registry,
its legal actions (families with tries and an open route suggestion) go over HTTP as JSON,
and a whole private auction played through the API by taking the first legal action each
turn is accepted entry by entry."""

from __future__ import annotations

from typing import Any

from tests.game.conftest import Table


def first_member(legal: dict[str, Any]) -> dict[str, Any]:
    """The family's first member, as a page would submit it (its template action)."""
    return legal["action"]


async def test_an_18ireland_table_plays_through_the_api(client, make_table) -> None:
    table: Table = await make_table(client, 3, title="18ireland", seed=161830)
    detail = await table.detail()
    assert detail["title"] == "18ireland" and detail["active_seats"] == [0]
    seq, submitted = 0, set[str]()
    while seq < 300 and not {"lay_tile", "run_routes"} <= submitted:
        detail = await table.detail()
        assert detail["status"] in ("open", "running"), detail
        seat = detail["active_seats"][0]
        resp = await client.get(f"/api/tables/{table.id}/legal", params={"seat": str(seat)},
                                headers=table.auth(seat))
        assert resp.status == 200
        legal = (await resp.json())["actions"]
        assert legal, "the active seat has legal actions"
        kinds = [x["action"]["type"] for x in legal]
        # lay and run when offered (a trie hex -> tile -> rotation; an open route suggestion),
        # otherwise the first thing offered (buying the cheapest private, a share, a train...)
        wanted = next((k for k in ("lay_tile", "run_routes") if k in kinds), kinds[0])
        pick = legal[kinds.index(wanted)]
        if wanted == "lay_tile":
            assert pick["choices"]["field"] == "hex" and pick["choices"]["then"][0]["field"] == "tile"
        if wanted == "run_routes":
            assert pick["choices"]["open"] is True and pick["choices"]["values"][0] == pick["action"]["routes"]
        status, body = await table.act(seat, first_member(pick), seq)
        assert status == 201, body
        submitted.add(wanted)
        seq = body["seq"]
    assert {"lay_tile", "run_routes"} <= submitted


async def legal_of(client, table: Table, seat: int) -> list[dict[str, Any]]:
    resp = await client.get(f"/api/tables/{table.id}/legal", params={"seat": str(seat)}, headers=table.auth(seat))
    assert resp.status == 200
    return (await resp.json())["actions"]


async def test_a_program_is_set_over_http_out_of_turn_and_disabled(client, make_table) -> None:
    table: Table = await make_table(client, 3, title="18ireland", seed=161830)
    assert (await table.detail())["active_seats"] == [0]
    offered = [x["action"]["type"] for x in await legal_of(client, table, 1)]
    # the auction is seat 0's turn; programs are anyone's at any time
    assert offered == ["program_share_pass", "program_auction_bid"]
    program = {"type": "program_share_pass", "entity": "1", "entity_type": "player",
               "unconditional": False, "indefinite": True}
    status, body = await table.act(1, program, 0)
    assert status == 201, body
    assert body["active_seats"] == [0]
    assert "program_disable" in [x["action"]["type"] for x in await legal_of(client, table, 1)]
    assert "program_disable" not in [x["action"]["type"] for x in await legal_of(client, table, 2)]
    # a program 18Ireland does not run, and one set for another seat, are refused with their reason
    status, body = await table.act(1, {"type": "program_close_pass", "entity": "1", "entity_type": "player"}, 1)
    assert status == 422 and body["error"]["code"] == "no_such_program", body
    status, body = await table.act(2, program, 1)
    assert status == 422 and body["error"]["code"] == "not_your_turn", body
    status, body = await table.act(1, {"type": "program_disable", "entity": "1", "entity_type": "player",
                                       "reason": "user", "original_type": "program_share_pass"}, 1)
    assert status == 201, body
    assert [x["action"]["type"] for x in await legal_of(client, table, 1)] == offered
