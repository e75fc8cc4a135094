"""Income and expenses at the end of a turn, and the removal of open track.

Base rules (README 'Income'): each player collects the income of their track space, then
pays $1,000 per issued share; a player short of cash issues the shares that payment needs
(payment.py: the seed's "Vydávání akcií").
"""

from __future__ import annotations

from . import rules
from .board import get_board
from .goods import city_name
from .payment import pay
from .state import Link, Seg, State


def income_phase(s: State) -> None:
    for seat, p in enumerate(s.players):
        got = rules.income_for(p.vp)
        p.cash += got
        due = p.shares * rules.SHARE_INTEREST  # shares issued now to pay start costing next turn
        s.log.append(f"{p.name}: income ${got:,}, share interest ${due:,}")
        pay(s, seat, due, "share interest")


def remove_open_track(s: State) -> None:
    """BGA help: at the end of the action rounds, track that is not part of a complete link is
    removed. Link ids are renumbered (they only matter within a turn's decisions)."""
    if all(link.complete for link in s.links):
        return
    board = get_board(s.board)
    renumber: dict[int, int] = {}
    kept: list[Link] = []
    for link in s.links:
        if link.complete:
            renumber[link.id] = len(kept)
            link.id = len(kept)
            kept.append(link)
        else:
            s.log.append(f"{s.players[link.owner].name}'s unfinished track from {city_name(s, board, link.a)} is removed")
    s.links = kept
    track = {}
    for h, segs in s.track.items():
        left = [Seg(renumber[g.link], g.e1, g.e2) for g in segs if g.link in renumber]
        if left:
            track[h] = left
    s.track = track
