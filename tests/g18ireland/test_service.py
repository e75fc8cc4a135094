"""18Ireland through the game service (real Redis): a table is created from the registry,
its legal actions (families with tries and an open route suggestion) go over HTTP as JSON,
and a whole private auction played through the API by taking the first legal action each
turn is accepted entry by entry."""

from __future__ import annotations

from typing import Any

from tests.game.conftest import Table, client, make_cfg, make_table, new_client  # noqa: F401 - fixtures


def first_member(legal: dict[str, Any]) -> dict[str, Any]:
    """The family's first member, as a page would submit it (its template action)."""
    return legal["action"]


async def test_an_18ireland_table_plays_through_the_api(client, make_table) -> None:
    table: Table = await make_table(client, 3, title="18ireland", seed=161830)
    detail = await table.detail()
    assert detail["title"] == "18ireland" and detail["active_seats"] == [0]
    seq, submitted = 0, set()
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
