"""18xx actions as msgspec tagged structs, with 18xx.games' own type tags and field names.

An 18xx.games export (`actions` array) decodes one-to-one into these structs, and encoding one back
(`encode`, which omits unset fields) gives the same JSON object, so an import can be checked field
by field. Every action names the acting `entity` (a player id, or a corporation/minor/company sym)
and its `entity_type`; the bookkeeping fields `id`, `user`, `created_at` and `auto_actions` are
what the export carries and are optional, because a live table does not send them.

Two unions:
- `GameAction`: the decisions a title's rules accept (the engine's `action_type` is built from it).
- `ExportAction`: everything an export can hold, adding 18xx.games' own undo/redo, chat messages and
  the "program" (auto-pass / auto-buy) settings. The contract's `Undo`/`Redo` use the tags "undo" and
  "redo" too, so these must never be mixed into an engine's `action_type`; an importer turns
  `ExportUndo`/`ExportRedo` into contract-level undo/redo.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import UnionDecoder

EntityId = int | str


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
             forbid_unknown_fields=True, omit_defaults=True):
    entity: EntityId
    entity_type: str
    id: int | None = None
    user: int | None = None
    created_at: int | None = None
    auto_actions: list[ExportAction] | None = None


# --- auctions, shares -------------------------------------------------------------------------

class Bid(Action, frozen=True, tag="bid"):
    price: int
    company: str | None = None
    corporation: str | None = None
    minor: str | None = None


class BlindBid(Action, frozen=True, tag="blind_bid"):
    bids: list[int] | None = None


class Par(Action, frozen=True, tag="par"):
    corporation: str
    # "price,row,column" - 18xx.games' share-price id
    share_price: str
    slot: int | None = None
    purchase_for_type: str | None = None
    purchase_for: EntityId | None = None
    borrow_from_type: str | None = None
    borrow_from: EntityId | None = None


class BuyShares(Action, frozen=True, tag="buy_shares"):
    shares: list[str]
    percent: int | None = None
    # a float where a title halves prices (1841 sells at .5 values)
    share_price: int | float | None = None
    swap: str | None = None
    purchase_for_type: str | None = None
    purchase_for: EntityId | None = None
    borrow_from_type: str | None = None
    borrow_from: EntityId | None = None
    total_price: int | None = None
    discounter: str | None = None


class CorporateBuyShares(BuyShares, frozen=True, tag="corporate_buy_shares"):
    pass


class SellShares(Action, frozen=True, tag="sell_shares"):
    shares: list[str]
    percent: int | None = None
    # a float where a title halves prices (1841 sells at .5 values)
    share_price: int | float | None = None
    swap: str | None = None


class CorporateSellShares(SellShares, frozen=True, tag="corporate_sell_shares"):
    pass


class BuyCompany(Action, frozen=True, tag="buy_company"):
    company: str
    price: int


class SellCompany(Action, frozen=True, tag="sell_company"):
    company: str
    price: int


# --- operating ------------------------------------------------------------------------------

class LayTile(Action, frozen=True, tag="lay_tile"):
    hex: str
    # "<tile name>-<copy index>", e.g. "8-0"
    tile: str
    rotation: int
    combo_entities: list[str] | None = None


class PlaceToken(Action, frozen=True, tag="place_token"):
    # "<hex or tile id>-<city index>-<...>" as 18xx.games prints city ids
    city: str
    slot: int | None = None
    cost: int | None = None
    tokener: str | None = None
    token_type: str | None = None


class RemoveToken(Action, frozen=True, tag="remove_token"):
    city: str
    slot: int


class BuyToken(Action, frozen=True, tag="buy_token"):
    city: str
    slot: int | None = None
    price: int | None = None


class Route(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    train: str
    connections: list[list[str]] | None = None
    hexes: list[str] | None = None
    revenue: int | None = None
    revenue_str: str | None = None
    subsidy: int | None = None
    halts: int | None = None
    abilities: list[str] | None = None
    nodes: list[str] | None = None


class RunRoutes(Action, frozen=True, tag="run_routes"):
    routes: list[Route]
    extra_revenue: int | None = None
    subsidy: int | None = None


class Dividend(Action, frozen=True, tag="dividend"):
    # "payout" | "withhold" | "half" ...
    kind: str
    amount: int | None = None


class BuyTrain(Action, frozen=True, tag="buy_train"):
    # "<train name>-<copy index>", e.g. "2H-0"
    train: str
    price: int
    variant: str | None = None
    exchange: str | None = None
    shell: str | None = None
    slots: list[int] | None = None
    extra_due: bool | None = None
    warranties: int | None = None


class DiscardTrain(Action, frozen=True, tag="discard_train"):
    train: str


class Merge(Action, frozen=True, tag="merge"):
    corporation: str | None = None
    minor: str | None = None


class Choose(Action, frozen=True, tag="choose"):
    choice: int | str


class Pass(Action, frozen=True, tag="pass"):
    pass


class Bankrupt(Action, frozen=True, tag="bankrupt"):
    option: int | None = None


class Assign(Action, frozen=True, tag="assign"):
    target: str
    target_type: str
    city: int | str | None = None


class DestinationConnection(Action, frozen=True, tag="destination_connection"):
    corporations: list[str] | None = None
    minors: list[str] | None = None
    hexes: list[str] | None = None


# --- export-only: 18xx.games' own undo/redo, chat, programmed passes/buys -----------------------

class ExportUndo(Action, frozen=True, tag="undo"):
    # go back to just after the action with this id; None = the last action
    action_id: int | None = None


class ExportRedo(Action, frozen=True, tag="redo"):
    pass


class Message(Action, frozen=True, tag="message"):
    message: str


class ProgramSharePass(Action, frozen=True, tag="program_share_pass"):
    unconditional: bool | None = None
    indefinite: bool | None = None


class ProgramBuyShares(Action, frozen=True, tag="program_buy_shares"):
    corporation: str
    until_condition: int | str
    from_market: bool | None = None
    auto_pass_after: bool | None = None


class ProgramMergerPass(Action, frozen=True, tag="program_merger_pass"):
    corporations_by_round: dict[str, list[str]] | None = None
    options: list[str] | None = None


class ProgramClosePass(Action, frozen=True, tag="program_close_pass"):
    unconditional: bool | None = None


class ProgramAuctionBid(Action, frozen=True, tag="program_auction_bid"):
    bid_target: str
    enable_maximum_bid: bool | None = None
    maximum_bid: int | None = None
    enable_buy_price: bool | None = None
    buy_price: int | None = None
    auto_pass_after: bool | None = None


class ProgramDisable(Action, frozen=True, tag="program_disable"):
    reason: str | None = None
    original_type: str | None = None


GameAction = (
    Bid | BlindBid | Par | BuyShares | CorporateBuyShares | SellShares | CorporateSellShares
    | BuyCompany | SellCompany | LayTile | PlaceToken | RemoveToken | BuyToken | RunRoutes | Dividend
    | BuyTrain | DiscardTrain | Merge | Choose | Pass | Bankrupt | Assign | DestinationConnection
)

ProgramAction = (
    ProgramSharePass | ProgramBuyShares | ProgramMergerPass | ProgramClosePass | ProgramAuctionBid
    | ProgramDisable
)

ExportAction = GameAction | ExportUndo | ExportRedo | Message | ProgramAction

GAME_ACTION_TYPES: dict[str, type[Action]] = {
    cls.__struct_config__.tag: cls for cls in GameAction.__args__
}

_export = UnionDecoder(ExportAction)
_encoder = msgspec.json.Encoder()


def decode_export_action(raw: bytes | str | dict[str, Any]) -> ExportAction:
    """One action of an 18xx.games export (raises msgspec.ValidationError on unknown fields/types)."""
    return _export.convert(raw) if isinstance(raw, dict) else _export.json.decode(raw)


def decode_export_actions(raw: list[dict[str, Any]]) -> list[ExportAction]:
    return msgspec.convert(raw, list[ExportAction])


def to_export_dict(action: Action) -> dict[str, Any]:
    """Back to the export's JSON object (unset fields left out, as 18xx.games does)."""
    return msgspec.to_builtins(action)


def strip_bookkeeping(action: Action) -> Action:
    """The decision alone: drop id/user/created_at/auto_actions (a live log keeps decisions only)."""
    return msgspec.structs.replace(action, id=None, user=None, created_at=None, auto_actions=None)
