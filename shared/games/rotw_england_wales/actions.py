"""The actions of Railways of England and Wales: one decision each (18xx.games style)."""

from __future__ import annotations

import msgspec

from .advanced.actions import PayDividend, ProposeMerger, RepayBonds, StartAuction, Vote

_opts = dict(tag_field="type", forbid_unknown_fields=True, frozen=True)


class ChooseBaron(msgspec.Struct, tag="choose_baron", **_opts):
    baron: str


class Bid(msgspec.Struct, tag="bid", **_opts):
    amount: int


class Pass(msgspec.Struct, tag="pass", **_opts):
    """Pass in the auction, or forgo this round's action."""


class IssueShare(msgspec.Struct, tag="issue_share", **_opts):
    """Issue one share for $5,000 (any time the seat is to act)."""


class LayTrack(msgspec.Struct, tag="lay_track", **_opts):
    hex: str  # "col,row"
    entry: int  # edge (0..5) facing the city/town or the link being extended
    exit: int  # edge the track leaves through


class EndBuild(msgspec.Struct, tag="end_build", **_opts):
    pass


class UseTunnelEngineer(msgspec.Struct, tag="use_tunnel_engineer", **_opts):
    """Spend the Tunnel Engineer on this build (starting it if need be): mountains cost half."""


class UpgradeEngine(msgspec.Struct, tag="upgrade_engine", **_opts):
    pass


class Urbanize(msgspec.Struct, tag="urbanize", **_opts):
    hex: str  # a town
    color: str  # colour of the new city tile


class Deliver(msgspec.Struct, tag="deliver", **_opts):
    city: str  # hex of the city the cube leaves
    color: str
    path: list[int]  # link ids, in order


class TakeCard(msgspec.Struct, tag="take_card", **_opts):
    card: str
    city: str = ""  # target city hex (City growth only)


class Inspect(msgspec.Struct, tag="inspect", **_opts):
    """Play the Railway Inspector: the pending delivery is stopped."""


class Allow(msgspec.Struct, tag="allow", **_opts):
    """Let the pending delivery happen."""


Action = (ChooseBaron | Bid | Pass | IssueShare | LayTrack | EndBuild | UseTunnelEngineer | UpgradeEngine
          | Urbanize | Deliver | TakeCard | Inspect | Allow
          | StartAuction | RepayBonds | PayDividend | ProposeMerger | Vote)  # the last five: advanced game
ACTION_TYPES = (ChooseBaron, Bid, Pass, IssueShare, LayTrack, EndBuild, UseTunnelEngineer, UpgradeEngine,
                Urbanize, Deliver, TakeCard, Inspect, Allow, StartAuction, RepayBonds, PayDividend, ProposeMerger, Vote)
