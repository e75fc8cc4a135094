"""Players' programs (18xx.games "auto actions", `program_*`): what a seat has asked the engine to
do for it, held in the state, set and cleared by decisions, and shown to that seat only.

18xx.games' facts (lib/engine/action/program_*.rb, step/program.rb, game/base.rb): a player sets a
program at any time, whoever's turn it is; 18Ireland keeps one program per player (the game does
not set ALLOW_MULTIPLE_PROGRAMS, so a new program replaces the old one and `program_disable`
removes the one held); at every round change each program is dropped unless it fits the new round
(`disable?`: share pass and buy shares fit stock rounds, a share pass set `indefinite` fits every
round, a merger pass merger rounds, an auction bid the auction). Which moves a program makes
is `program_moves.py`.

This module holds the state, the families a seat is offered, their checks and the round-change
rule; it reads nothing of the flow, so `flow.py` may call it when a round starts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.families import AmountRange, Choice, any_admits
from shared.games.core18xx import actions as A
from shared.games.core18xx.choice import trie
from shared.games.g18ireland import money as M

replace = msgspec.structs.replace

NOTES_KEPT = 8              # a seat's latest program messages shown in its view
SHARE_ROUND = "stock"
MERGER_ROUND_NAME = "MR"    # 18xx.games' G18Ireland::Round::Merger.short_name, the key of corporations_by_round
USER = "user"               # the reason 18xx.games' page sends with a player's own program_disable
# the programs 18xx.games' 18Ireland runs (stock round: BuySellParShares includes Programmer; the
# private auction: WaterfallAuction includes ProgrammerAuctionBid) and the merger pass, which its
# Merge step leaves as a todo (ENGINE.md: our reading)
SETTABLE = (A.ProgramSharePass, A.ProgramBuyShares, A.ProgramMergerPass, A.ProgramAuctionBid)
MERGER_OPTIONS = ("disable_others",)


class Program(msgspec.Struct, frozen=True):
    action: A.ProgramSharePass | A.ProgramBuyShares | A.ProgramMergerPass | A.ProgramAuctionBid
    since: int                      # `stamp` when it was set: actions stamped up to it never stop it


class Tracked(msgspec.Struct, frozen=True):
    """A share action of a player in its latest stock-round turn (18xx.games' players_history)."""

    kind: str                       # "par" | "buy" | "sell"
    corporation: str
    at: int                         # `stamp` when it happened


class Made(msgspec.Struct, frozen=True):
    """A move a program made for its player in the last decision (public: everyone sees the move)."""

    player: str
    action: A.Pass | A.BuyShares | A.Bid


class Programs(msgspec.Struct, frozen=True):
    held: dict[str, Program] = {}               # player -> the program it runs (secret to others)
    notes: dict[str, list[str]] = {}            # player -> its latest program messages (secret to others)
    history: dict[str, list[Tracked]] = {}      # player -> share actions in its latest turn of this stock round
    made: list[Made] = []                       # the moves programs made in the last decision


SUB = 1024      # more than the moves programs make in one decision (program_moves.LIMIT)


def stamp(moves: int, p: Programs) -> int:
    """Orders program settings against the actions they watch from public facts alone (decisions
    applied, moves programs made in this one), so the order tells nobody of another's program:
    a decision is stamped moves * SUB, the k-th move a program makes after it moves * SUB + k."""
    return moves * SUB + len(p.made)


def describe(action: Any) -> str:
    """The program as a sentence (the words of 18xx.games' `to_s`, for the seat's own view)."""
    if isinstance(action, A.ProgramSharePass):
        return ("Pass in Stock Round" + (", unconditionally" if action.unconditional else "")
                + (", indefinitely" if action.indefinite else ""))
    if isinstance(action, A.ProgramBuyShares):
        source = "market" if action.from_market else "Treasury"
        until = "floated" if action.until_condition == "float" else f"{action.until_condition} shares"
        return f"Buy {action.corporation} from {source} until {until}" + (", then auto pass" if action.auto_pass_after else "")
    if isinstance(action, A.ProgramAuctionBid):
        buy = f"Buy if price at {action.buy_price}. " if action.enable_buy_price else ""
        bid = f"Bid on {action.bid_target} up to {action.maximum_bid}. " if action.enable_maximum_bid else ""
        return (buy + bid + ("Otherwise auto pass." if action.auto_pass_after else "")).strip()
    if isinstance(action, A.ProgramMergerPass):
        rounds = " and ".join(f"{r} ({', '.join(c) if c else 'none'})"
                              for r, c in (action.corporations_by_round or {}).items())
        return f"Pass on mergers in {rounds}" + (", unless someone else acts" if "disable_others" in (action.options or []) else "")
    return type(action).__name__


def fits(action: Any, round_kind: str) -> bool:
    """18xx.games' `disable?` read at a round change: may the program stay into `round_kind`?"""
    if isinstance(action, A.ProgramSharePass):
        return round_kind == SHARE_ROUND or bool(action.indefinite)
    if isinstance(action, A.ProgramBuyShares):
        return round_kind == SHARE_ROUND
    if isinstance(action, A.ProgramMergerPass):
        return round_kind == "merger"
    if isinstance(action, A.ProgramAuctionBid):
        return round_kind == "auction"
    return False


# --- changes ---------------------------------------------------------------------------------

def note(p: Programs, player: str, text: str) -> Programs:
    notes = dict(p.notes)
    notes[player] = [*notes.get(player, []), text][-NOTES_KEPT:]
    return replace(p, notes=notes)


def enable(p: Programs, player: str, action: Any, since: int) -> Programs:
    held = dict(p.held)
    clean = replace(action, id=None, user=None, created_at=None, auto_actions=None)
    held[player] = Program(action=clean, since=since)
    return note(replace(p, held=held), player, f"Enabled programmed action '{describe(clean)}'")


def disable(p: Programs, player: str, reason: str) -> Programs:
    if player not in p.held:
        return p
    held = dict(p.held)
    program = held.pop(player)
    return note(replace(p, held=held), player, f"Disabled programmed action '{describe(program.action)}' due to '{reason}'")


def entered(p: Programs, round_kind: str) -> Programs:
    """A round begins: programs that do not fit it are dropped (18xx.games' check_programmed_actions);
    the share actions watched are those of this round's turns only."""
    for player, program in list(p.held.items()):
        if not fits(program.action, round_kind):
            held = dict(p.held)
            del held[player]
            p = note(replace(p, held=held), player, f"Programmed action '{describe(program.action)}' removed due to round change")
    return replace(p, history={}) if p.history else p


def hidden_from(p: Programs, player: str | None) -> Programs:
    """What `player` may know of the programs: its own, none of the others'. The actions watched
    are kept only while any program is held, so they go too unless the player holds one."""
    held = {k: v for k, v in p.held.items() if k == player}
    notes = {k: v for k, v in p.notes.items() if k == player}
    history = p.history if held else {}
    if held == p.held and notes == p.notes and history == p.history:
        return p
    return replace(p, held=held, notes=notes, history=history)


# --- what a seat is offered, and the checks ------------------------------------------------------

def tag(action: Any) -> str:
    return type(action).__struct_config__.tag


@lru_cache(maxsize=1)
def share_percent() -> dict[str, int]:
    """Each company's ordinary share, in percent (its smallest certificate)."""
    return {c["sym"]: min(c["shares"]) for c in M.ENTITIES["corporations"]}


def shares_in(sym: str) -> int:
    """How many of the company's ordinary shares make 100% (majors 10, minors 5)."""
    return 100 // share_percent()[sym]


def offered(state: Any, player: str) -> list[LegalAction]:
    """The programs `player` may set or disable now (any time, whoever's turn it is)."""
    money = state.money
    # the minors it could put into a merger: those it holds shares in (merger.candidates)
    held_minors = [sym for sym, c in money.corps.items()
                   if c.type == "minor" and c.ipoed and not c.closed and money.book.percent_of(player, sym) > 0]
    out = families(money, player, state.programs.held.get(player), held_minors)
    if state.round == "auction" and state.auction is not None:
        out[1:1] = _auction_bid(state.auction, player)
    return out


def _auction_bid(auction: Any, player: str) -> list[LegalAction]:
    """Auto bid in the private auction: a target on offer, the flags, a buy price (in the bid
    step, up to the private's value) and a maximum bid (in the bid step, up to the player's cash)."""
    step = auction.increment
    rows = [(o.company, em, eb, ap, price) for o in auction.offers for em in BOOLS for eb in BOOLS for ap in BOOLS
            for price in range(0, o.value + 1, step)]
    choices = trie(("bid_target", "enable_maximum_bid", "enable_buy_price", "auto_pass_after", "buy_price"), rows)
    cash = auction.cash[player]
    if choices is None:
        return []
    first = rows[0]
    action = A.ProgramAuctionBid(entity=player, entity_type="player", bid_target=first[0], enable_maximum_bid=first[1],
                                 enable_buy_price=first[2], auto_pass_after=first[3], buy_price=first[4], maximum_bid=0)
    return [LegalAction(action=action, choices=choices,
                        range=AmountRange(field="maximum_bid", min=0, max=cash - cash % step, step=step))]


BOOLS = [False, True]
SHARE_PASS_CHOICES = Choice("unconditional", BOOLS, then=[Choice("indefinite", BOOLS)])
MERGER_CHOICES = Choice("options", [[], list(MERGER_OPTIONS)])


@lru_cache(maxsize=64)
def _buy_rows(companies: tuple[tuple[str, bool], ...]) -> tuple[tuple[Any, ...], Choice | None]:
    """The buy-shares trie for the companies in play ((company, floated) pairs): the same for
    every player, so built once per set of companies."""
    rows = []
    for sym, floated in companies:
        untils: list[int | str] = ([] if floated else ["float"]) + list(range(1, shares_in(sym) + 1))
        rows += [(sym, u, m, a) for u in untils for m in BOOLS for a in BOOLS]
    return (rows[0] if rows else ()), trie(("corporation", "until_condition", "from_market", "auto_pass_after"), rows)


def families(money: Any, player: str, held: Program | None, minors_held: list[str]) -> list[LegalAction]:
    who: dict[str, Any] = {"entity": player, "entity_type": "player"}
    out = [LegalAction(action=A.ProgramSharePass(**who, unconditional=False, indefinite=False),
                       choices=SHARE_PASS_CHOICES)]
    first, buy = _buy_rows(tuple((sym, c.floated) for sym, c in money.corps.items() if c.ipoed and not c.closed))
    if buy is not None:
        out.append(LegalAction(action=A.ProgramBuyShares(**who, corporation=first[0], until_condition=first[1],
                                                         from_market=first[2], auto_pass_after=first[3]), choices=buy))
    if minors_held:
        by_round = {MERGER_ROUND_NAME: sorted(minors_held)}
        out.append(LegalAction(action=A.ProgramMergerPass(**who, corporations_by_round=by_round, options=[]),
                               choices=MERGER_CHOICES))
    if held is not None:
        out.append(LegalAction(action=A.ProgramDisable(**who, reason=USER, original_type=tag(held.action))))
    return out


def check(state: Any, player: str, action: Any, held: Program | None) -> None:
    """Refuse a program a seat may not set (RuleError), with the reason."""
    money = state.money
    if isinstance(action, A.ProgramDisable):
        if held is None:
            raise RuleError("no_program", "you have no program to disable")
        if action.reason != USER:
            raise RuleError("bad_program", f"a program is disabled with reason {USER!r}")
        if action.original_type not in (None, tag(held.action)):
            raise RuleError("bad_program", f"your program is {tag(held.action)}, not {action.original_type}")
        return
    if not isinstance(action, SETTABLE):
        raise RuleError("no_such_program", f"18Ireland has no {tag(action)} (its rounds run share pass, "
                                           "buy shares, auction bid and merger pass programs)")
    if isinstance(action, A.ProgramBuyShares):
        corp = money.corps.get(action.corporation)
        if corp is None or not corp.ipoed or corp.closed:
            raise RuleError("no_such_company", f"{action.corporation} is not a company in play")
        until = action.until_condition
        if until == "float":
            if corp.floated:
                raise RuleError("bad_program", f"{action.corporation} has floated already")
        elif type(until) is not int or not 1 <= until <= shares_in(action.corporation):
            raise RuleError("bad_program", f"until_condition is 'float' or a number of shares from 1 to "
                                           f"{shares_in(action.corporation)}")
    if isinstance(action, A.ProgramAuctionBid):
        if state.round != "auction" or state.auction is None:
            raise RuleError("bad_program", "an auction bid program is set during the private auction")
        if not any_admits(_auction_bid(state.auction, player), replace(action, enable_maximum_bid=bool(action.enable_maximum_bid),
                                                                       enable_buy_price=bool(action.enable_buy_price),
                                                                       auto_pass_after=bool(action.auto_pass_after))):
            raise RuleError("bad_program", "bid_target is a private on offer, buy_price a multiple of 5 up to its "
                                           "value, maximum_bid a multiple of 5 up to your cash")
    if isinstance(action, A.ProgramMergerPass):
        by_round = action.corporations_by_round or {}
        if set(by_round) != {MERGER_ROUND_NAME}:
            raise RuleError("bad_program", f"corporations_by_round names the round {MERGER_ROUND_NAME!r} (18Ireland's merger round)")
        for sym in by_round[MERGER_ROUND_NAME]:
            corp = money.corps.get(sym)
            if corp is None or corp.type != "minor":
                raise RuleError("bad_program", f"{sym} is not a minor")
        if any(o not in MERGER_OPTIONS for o in action.options or []):
            raise RuleError("bad_program", f"options are among {list(MERGER_OPTIONS)}")


def view_of(p: Programs, player: str | None) -> dict[str, Any] | None:
    """The seat's own program and messages (None for a spectator)."""
    if player is None:
        return None
    program = p.held.get(player)
    return {"program": None if program is None else {**msgspec.to_builtins(program.action),
                                                    "description": describe(program.action)},
            "notes": list(p.notes.get(player, []))}
