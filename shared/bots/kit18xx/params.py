"""The heuristic's numbers: a title's bot package gives its own (`shared/bots/g18ireland/`)."""

from __future__ import annotations

import msgspec


class Params(msgspec.Struct, frozen=True, kw_only=True):
    # private auction: buy the cheapest private while its price is at most this part of cash,
    # and hold at most `max_privates`
    private_cash_share: float = 0.3
    max_privates: int = 2
    # companies a player presides at the most, by number of players
    presidencies: dict[int, int] = msgspec.field(default_factory=lambda: {3: 3, 4: 3, 5: 2, 6: 2})
    # an opening bid or a raise in a minor's auction: at most this much, and never below what
    # buys the company its first train
    minor_bid_ceiling: int = 160
    # a train is worth buying when its extra revenue repays its price in this many runs
    payback_runs: float = 4.0
    # a company whose own cash pays for a train and that has room for one buys it (longest
    # first) even when its added revenue does not repay it yet: where companies earn cash
    # they would not spend otherwise (treasury shares that pay the company) and the game
    # moves on only as trains are bought
    buy_when_affordable: bool = False
    # "before rust": our trains rust when a train type comes out; buy while at most this many
    # trains are left before it
    rust_lookahead: int = 2
    # tile lays and tokens: revenue added now counts fully, the network's nearing of revenue
    # it does not reach yet (`Title18xx.reach`) at `reach_weight`, money spent at `cost_weight`
    reach_weight: float = 0.5
    cost_weight: float = 0.3
    # how many operating rounds of income a share's value counts (the evaluation's horizon
    # is at most this, fewer as the bank runs dry)
    horizon: float = 4.0
    # merger: propose or vote for a merger whose price costs our shares at most this part of
    # their value, more so late (minors' train limit falls to one, and they cannot grow)
    merge_tolerance: float = 0.1
    late_phases: tuple[str, ...] = ("8", "10", "D")
    early_phases: tuple[str, ...] = ("2",)
