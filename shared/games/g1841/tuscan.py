"""The Tuscan merge (the first 4-train, not in lite): when two or more of SFLP, SFMA and SSFL
have floated they become SFLi (18xx.games `event_tuscan_merge!`, `tuscan_merge_start`,
`merger_start` and its exchange, `merger_tokens_start`/`_finish`, `merger_finish`,
`transform_start` and its offers, `tuscan_merge_finish`; facts, own code).

The steps (`board/events.tuscan_merge_steps`): the two minors merge into a holding major (the
first general major not started), or the one floated minor transforms into it; then the
holding and SSFL merge into SFLi (without SSFL the two minors merge straight into SFLi). The
player who decides where the rules leave a choice to nobody is the controller of the Tuscan
corporation first in the operating order. A merger:

- sets the new corporation's price (`merger_values`: two majors, the rightmost price below their
  sum, at most 250, or the dearer above 250; two minors, below their mean);
- moves cash, trains and certificates of others to it (the merging pair's cross holdings back);
- exchanges shares: minors' 40 % for the president's certificate (the first) or two shares, 20 %
  for one; majors' pairs for a share (first pass, where a player may pay to take the
  president's certificate), then single shares for cash at half the price, a share for half the
  price, or the president's certificate;
- with nobody president, the president's certificate goes to the pool for up to two pool shares;
- tokens: duplicates come off, then the president (or the decider) removes tokens down to
  five, never Pisa's or Firenze's; SFLi without a president removes them by rule.

The merged corporations close (the holding is available to start again). SFLi operates in this
round (default game, or `sfli_run_variant`) unless one of the three had operated already.
"""

from __future__ import annotations

import msgspec

from shared.games.g1841 import merger as M
from shared.games.g1841 import transfers as X
from shared.games.g1841.board import events as BE
from shared.games.g1841.board.stations import version
from shared.games.g1841.eventrun import Run
from shared.games.g1841.money import corp_info

replace = msgspec.structs.replace
TUSCANS = ("SFLP", "SFMA", "SSFL")
SFLI = "SFLi"
TITLE = "Tuscan Merge - "


def run(r: Run) -> None:
    s = r.s
    floated = [c for c in TUSCANS if s.money.corps[c].floated and not s.money.corps[c].closed]
    if not BE.tuscan_merge_happens(floated):
        r.say("-- Event: The Tuscan Merge will not occur - 2 or more Tuscan corporations are not active --")
        from shared.games.g1841 import flow
        r.s = flow.close_unstarted(r.s, [SFLI])
        return
    op = s.operating
    will_run = version(s.variant) == 2 or s.options.sfli_run_variant
    if op is not None and any(c in op.order and op.order.index(c) <= op.index for c in TUSCANS):
        will_run = False
    r.say("-- Event: The Tuscan Merge begins --")
    first = next(c for c in s.money.operating_order() if c in floated)
    r.say(f"{first} has best stock value")
    decider = X.player_of(s, first)
    if decider is None and op is not None and op.turn is not None:
        decider = X.player_of(s, op.turn.corp)
    decider = decider or s.money.players[0]
    r.say(f"{X.name(s, decider)} will perform Tuscan Merge operations")
    holding = _holding(r)
    for kind, corps, target in BE.tuscan_merge_steps(floated, holding):
        if kind == "merge":
            M.merge(r, decider, corps[0], corps[1], target, "first" if target != SFLI else "last")
        else:
            M.transform(r, decider, corps[0], target, tuscan=True)
    _finish(r, will_run)


def _holding(r: Run) -> str:
    info = corp_info(r.s.variant)
    for sym, c in r.s.money.corps.items():
        if c.type == "major" and not info[sym].historical and not c.closed and not c.floated:
            return sym
    return "Holding"


def _finish(r: Run, will_run: bool) -> None:
    s = r.s
    op = s.operating
    r.say(f"{SFLI} will {'' if will_run else 'not '}run this OR")
    if will_run and op is not None:
        rest = {*op.order[op.index + 1:], SFLI}
        order = [*op.order[:op.index + 1], *(c for c in s.money.operating_order() if c in rest)]
        r.s = replace(s, operating=replace(op, order=order))
    r.say("-- Tuscan Merge complete --")
