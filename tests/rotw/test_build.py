"""Building track, urbanizing, upgrading the engine (sources: README sections named per test)."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import EndBuild, LayTrack, UpgradeEngine, Urbanize, UseTunnelEngineer
from shared.games.rotw_england_wales.payment import pay, shares_needed
from shared.games.rotw_england_wales.state import Seg, draft

from .helpers import AVON, FAL, TARN, end_build, expand, forgo, lay, next_turn, start, to_act


def _lays(s) -> set[tuple[str, int, int]]:
    fam = next(f for f in ENGINE.legal_actions(s, to_act(s)) if isinstance(f.action, LayTrack))
    return {(a.hex, a.entry, a.exit) for a in expand(fam)}


def test_a_link_from_a_city_completes_into_a_town_for_plain_cost() -> None:
    # base rules (BGG 'Legal Track Placement' 1a: open terrain $2,000; seed cost table)
    s = start()
    me = to_act(s)
    s = lay(s, "2,0", 2, 0)
    link = s.links[0]
    assert (link.a, link.b, link.complete, link.owner) == (AVON, TARN, True, me)
    assert s.players[me].cash == 48000 and s.phase == "build"
    s = end_build(s)
    assert s.phase == "action" and to_act(s) != me


@pytest.mark.parametrize("hex_,entry,exit_,cost", [
    ("4,3", 3, 0, 3000),  # water hex (seed: $3,000)
    ("5,2", 4, 1, 4000),  # mountain with water counts as mountain (seed)
])
def test_terrain_costs(hex_: str, entry: int, exit_: int, cost: int) -> None:
    s = start()
    me = to_act(s)
    s = lay(s, hex_, entry, exit_)
    assert s.players[me].cash == 50000 - cost


def test_mountain_costs_4000() -> None:
    # seed cost table: mountain $4,000; continue own track across edge 1 into the mountain
    s = start()
    me = to_act(s)
    s = lay(s, "2,1", 3, 1)
    s = lay(s, "3,2", 4, 1)
    assert s.players[me].cash == 50000 - 2000 - 4000
    assert s.players[me].mountain_tiles == 1


def test_barrier_edges_cannot_be_crossed() -> None:
    # seed: barriers on hex edges, nothing may be built across them
    s = start()
    options = _lays(s)
    assert ("2,1", 3, 1) in options and ("2,1", 3, 5) in options
    assert ("2,1", 3, 0) not in options  # edge 0 of 2,1 is the barrier to 3,1
    with pytest.raises(RuleError) as err:
        lay(s, "2,1", 3, 0)
    assert err.value.code == "bad_exit"


def test_no_sharp_turns() -> None:
    # reading (README 'Track'): track tiles are straights and gentle curves
    s = start()
    options = _lays(s)
    assert ("2,1", 3, 2) not in options and ("2,1", 3, 4) not in options


def test_at_most_four_tiles_per_build() -> None:
    # base rules (BGG 'Legal Track Placement' 2a): up to 4 tiles per build action
    s = start()
    me = to_act(s)
    s = lay(s, "1,2", 5, 2)  # from Avon (its SW edge) ...
    s = lay(s, "0,3", 5, 1)  # ... pointing at Calder (1,4): complete
    assert s.links[0].complete and s.phase == "build"
    s = lay(s, "2,0", 2, 0)  # Avon - Tarn
    s = lay(s, "3,1", 4, 0)  # fourth tile: Tarn - Brent; the build ends by itself
    assert s.phase == "action" and to_act(s) != me
    assert [link.complete for link in s.links] == [True, True, True]


def test_link_cannot_return_to_its_own_city_or_duplicate_a_link() -> None:
    # reading (README 'Track'): a link joins two different places; one link per pair
    s = start()
    s = lay(s, "2,0", 2, 0)  # Avon - Tarn
    s = end_build(s)
    opts = _lays(s)
    assert ("2,1", 3, 5) not in opts  # Avon -> 2,1 -> Tarn would be a second Avon-Tarn link
    assert ("2,1", 3, 4) not in opts


def test_open_track_can_be_continued_this_turn_and_is_removed_at_its_end() -> None:
    # TRACK 2b (continue a link in a later round); BGA help: at the end of the action rounds
    # any open track (not part of a link) is removed
    s = start()
    me = to_act(s)
    s = lay(s, "2,1", 3, 1)  # open track from Avon
    s = end_build(s)
    s = forgo(forgo(s))
    assert to_act(s) == me and ("3,2", 4, 0) in _lays(s)  # round 2: continue it
    s = lay(s, "3,2", 4, 0)
    s = end_build(s)
    other = to_act(s)
    s = lay(s, "2,0", 2, 0)  # another player's complete Avon - Tarn link (id 1)
    s = end_build(s)
    assert [link.complete for link in s.links] == [False, True]
    s = next_turn(s)
    assert s.turn == 2 and len(s.links) == 1
    assert (s.links[0].id, s.links[0].owner, s.links[0].b) == (0, other, TARN)
    assert s.track == {"2,0": [Seg(0, 2, 0)]}
    assert any("removed" in line for line in s.log)


def test_a_tile_beyond_the_cash_issues_the_shares_it_needs() -> None:
    # seed "Vydávání akcií": "Hráč může vydat akcie pouze, když potřebuje hotovost na nákup ...
    # Vydány mohou být pouze akcie potřebné k provedení nákupu" - the $2,000 tile with $1,000 in
    # hand issues one share, no more
    s = start(cash=1000)
    me = to_act(s)
    assert any(isinstance(f.action, LayTrack) for f in ENGINE.legal_actions(s, me))
    s = lay(s, "2,0", 2, 0)
    assert (s.players[me].cash, s.players[me].shares) == (4000, 1)
    assert any("issues 1 share ($5,000) to pay $2,000" in line for line in s.log)
    s = end_build(s)
    assert s.players[me].shares == 1  # ending the build pays nothing


def test_the_seeds_example_0_dollars_and_16000_needed_is_4_shares() -> None:
    # seed "Vydávání akcií": "jestliže hráč má $ 0 a potřebuje $ 16,000 na vybudování tratě,
    # může hráč vydat 4 akcie, ale nemůže vydat více" - paid tile by tile ($4,000 each) or at once
    s = start(cash=0)
    me = to_act(s)
    tiles = draft(s)
    issued = [pay(tiles, me, 4000, "a mountain tile") for _ in range(4)]
    assert sum(issued) == 4 and tiles.players[me].cash == 4 * 5000 - 16000
    once = draft(s)
    assert pay(once, me, 16000, "track") == 4 and shares_needed(0, 16000) == 4 and shares_needed(1000, 16000) == 3


def test_errors_change_nothing() -> None:
    s = start(cash=1000)
    before = s
    with pytest.raises(RuleError) as err:
        lay(s, "99,99", 0, 3)
    assert err.value.code == "bad_hex"
    assert s is before and s.links == [] and s.players[to_act(s)].cash == 1000


def test_end_build_needs_a_tile() -> None:
    s = start()
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, to_act(s), EndBuild())
    assert err.value.code == "wrong_phase"


def test_urbanize_costs_10000_and_draws_two_goods() -> None:
    # base rules (README 'Urbanize'): $10,000, a new city tile on a town, goods from the bag
    s = start()
    me = to_act(s)
    bag = sum(s.bag.values())
    s = ENGINE.apply(s, me, Urbanize(hex=TARN, color="blue"))
    assert s.urban == {TARN: "blue"} and len(s.cubes[TARN]) == 2
    assert s.players[me].cash == 40000 and sum(s.bag.values()) == bag - 2
    with pytest.raises(RuleError):
        ENGINE.apply(s, to_act(s), Urbanize(hex=TARN, color="black"))
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, to_act(s), Urbanize(hex=AVON, color="black"))  # a coloured city
    assert err.value.code == "not_a_town"
    # reading (README 'Urbanize'): a grey city is a town that may be urbanized
    s = ENGINE.apply(s, to_act(s), Urbanize(hex=FAL, color="black"))
    assert s.urban[FAL] == "black"
    with pytest.raises(RuleError) as err:  # base tiles: yellow, black, blue, purple only
        ENGINE.apply(s, to_act(s), Urbanize(hex="6,5", color="red"))
    assert err.value.code == "no_tile"


def test_engine_upgrade_one_level_at_a_time() -> None:
    # base rules (README 'Engine'): one level per action, cost by level
    s = start()
    me = to_act(s)
    s = ENGINE.apply(s, me, UpgradeEngine())
    assert s.players[me].engine == 2 and s.players[me].cash == 46000


def test_tunnel_engineer_halves_mountains_in_one_build() -> None:
    # seed: Tunnel Engineer - one later build with every mountain at $2,000
    s = start()
    me = to_act(s)
    s.players[me].hand.append("tunnel_engineer#1")
    s = lay(s, "2,1", 3, 1)
    assert any(isinstance(f.action, UseTunnelEngineer) for f in ENGINE.legal_actions(s, me))
    s = ENGINE.apply(s, me, UseTunnelEngineer())
    s = lay(s, "3,2", 4, 1)  # mountain
    assert s.players[me].cash == 50000 - 2000 - 2000
    assert s.players[me].hand == [] and s.build is not None and s.build.tunnel
    assert not any(isinstance(f.action, UseTunnelEngineer) for f in ENGINE.legal_actions(s, me))


def test_tunnel_engineer_is_kept_until_the_holder_uses_it() -> None:
    # seed: the card is used at a later build of the holder's choosing
    s = start()
    me = to_act(s)
    s.players[me].hand.append("tunnel_engineer#1")
    s = lay(s, "2,1", 3, 1)
    s = lay(s, "3,2", 4, 1)  # mountain at full price: the card was not used
    assert s.players[me].cash == 50000 - 2000 - 4000 and s.players[me].hand == ["tunnel_engineer#1"]
