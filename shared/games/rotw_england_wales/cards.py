"""Operations cards (data in cards.json): the face-up display, taking a card, and the
achievement card Passenger Line (seed: first to deliver 4 of the goods colours)."""

from __future__ import annotations

from shared.engine import RuleError

from . import rules, turn
from .actions import TakeCard
from .board import get_board
from .compat import Choice, LegalAction
from .goods import add_cubes, all_cities, city_name
from .state import State, card_kind

TAKEABLE = ("engine", "city_growth", "tunnel_engineer", "railway_inspector")
NAMES = {c["kind"]: c["name"] for c in rules.card_data()["operations"]}


def refill(s: State) -> None:
    while len(s.display) < rules.display_size(len(s.players)) and s.deck:
        s.display.append(s.deck.pop(0))


def growth_targets(s: State) -> list[str]:
    return [h for h in all_cities(s) if h not in s.empty]


def legal(s: State, seat: int) -> LegalAction | None:
    cards, thens = [], []
    p = s.players[seat]
    for c in s.display:
        kind = card_kind(c)
        if kind not in TAKEABLE or c in cards:
            continue
        if kind == "engine" and p.engine >= rules.MAX_ENGINE:
            continue
        if kind == "city_growth":
            targets = growth_targets(s)
            if not targets or not any(s.bag.values()):
                continue
            cards.append(c)
            thens.append(Choice("city", targets))
        else:
            cards.append(c)
            thens.append(Choice("city", [""]))  # every branch sets `city`, so no value leaks across
    if not cards:
        return None
    first = TakeCard(card=cards[0], city=thens[0].values[0])
    return LegalAction(first, choices=Choice("card", cards, then=thens))


def take_card(s: State, seat: int, a: TakeCard) -> None:
    if a.card not in s.display:
        raise RuleError("no_card", f"{a.card} is not on display")
    kind = card_kind(a.card)
    if kind not in TAKEABLE:
        raise RuleError("not_takeable", f"{NAMES.get(kind, kind)} is won, not taken")
    p = s.players[seat]
    if kind == "city_growth":
        if a.city not in growth_targets(s):
            raise RuleError("bad_city", "City growth needs a city that is not empty")
    elif a.city:
        raise RuleError("bad_field", "only City growth names a city")
    if kind == "engine" and p.engine >= rules.MAX_ENGINE:
        raise RuleError("engine_max", "your engine is at its top level")
    s.display.remove(a.card)
    if kind == "engine":
        p.engine += 1
        s.discard.append(a.card)
        s.log.append(f"{p.name} takes Locomotive upgrade: engine level {p.engine}")
    elif kind == "city_growth":
        got = add_cubes(s, a.city, rules.card_value("city_growth", "cubes"))
        s.discard.append(a.card)
        s.log.append(f"{p.name} takes City growth: {got} goods into {city_name(s, get_board(s.board), a.city)}")
    else:
        p.hand.append(a.card)
        s.log.append(f"{p.name} takes {NAMES[kind]}")
    refill(s)
    turn.action_done(s)


def after_delivery(s: State, seat: int, colour: str) -> None:
    """Where the delivered cube goes: back into the bag, unless it is kept in front of the
    player to track the Passenger Line (seed); a won Passenger Line sends them all back."""
    card = next((c for c in s.display if card_kind(c) == "passenger_line"), None)
    p = s.players[seat]
    if card is None or colour in p.passenger:
        s.bag[colour] = s.bag.get(colour, 0) + 1
        return
    p.passenger.append(colour)
    if len(p.passenger) >= rules.card_value("passenger_line", "colours"):
        vp = rules.card_value("passenger_line", "vp")
        s.display.remove(card)
        p.bonus.append([NAMES["passenger_line"], vp])
        for q in s.players:
            for c in q.passenger:  # the tracking cubes go back to the bag (seed)
                s.bag[c] = s.bag.get(c, 0) + 1
            q.passenger = []
        s.log.append(f"{p.name} wins the Passenger Line (+{vp} VP)")
        refill(s)
