"""What a new train's events do, in the order the train lists them (18xx.games `event_*!`):
the concessions close, the borders change, the Ferdinandea secession and the Tuscan merge
(which may ask questions: `eventrun.py`)."""

from __future__ import annotations

import msgspec

from shared.games.g1841 import boardside as BS
from shared.games.g1841 import merger, secession, tuscan
from shared.games.g1841.eventrun import Run

replace = msgspec.structs.replace


def run_events(r: Run, events: list[str]) -> None:
    from shared.games.g1841 import flow
    for event in events:
        if event in ("phase4_regions", "phase5_regions"):
            r.s = replace(r.s, board=BS.border_event(r.s, event))
        elif event == "close_companies":
            r.say("-- Event: Concessions close --")
            r.s = flow.close_concessions(r.s)
        elif event == "ferd_secession":
            secession.run(r)
        elif event == "tuscan_merge":
            tuscan.run(r)
        elif event.startswith(("merge:", "transform:")):
            _operating_merger(r, event.split(":"))


def _operating_merger(r: Run, args: list[str]) -> None:
    """A merger or transformation of the operating turn ("merge:A:B:TARGET",
    "transform:MINOR:TARGET"): afterwards the turn is over (18xx.games `done_this_round`)."""
    from shared.games.g1841 import transfers as X
    corp = args[1]
    decider = X.player_of(r.s, corp) or ""
    if args[0] == "merge":
        merger.merge(r, decider, corp, args[2], args[3], "plain")
    else:
        merger.transform(r, decider, corp, args[2], tuscan=False)
    op = r.s.operating
    if op is not None and op.turn is not None:
        r.s = replace(r.s, operating=replace(op, turn=replace(op.turn, over=True)))
