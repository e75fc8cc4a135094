"""The engine contract, checked the same way on every registered title (shipped and test titles).

Positions come from random legal playouts. For each title: `apply` never changes its input
and raises only RuleError; every member of every legal family applies and what the
families leave out is refused; folding equals replaying; undo to any entry equals the fold
of the prefix; snapshots round-trip; a seat's view and legal actions depend only on what
that seat may know (they are the same on `redact(state, seat, k)` for every k, and
redactions re-sample what is hidden), which covers hands, decks and sealed choices before
the reveal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from shared.bots.random_bot import random_action
from shared.engine import RuleError, Undo, default_options, preview_of
from shared.families import admits, any_admits, expand, family_size
from shared.games import get_engine, titles
from shared.tables.snapshot import encode_timeline, restore_timeline
from shared.timeline import Node, Timeline

GAMES = 2
MAX_ACTIONS = 400  # per game: enough to cross every phase of the small titles
MEMBERS = 40  # family members tried per legal action
MUTANTS = 12  # out-of-family actions tried per state


def _playout(engine: Any, players: int, seed: int, variant: dict[str, Any] | None = None
             ) -> tuple[Timeline[Any], list[Any]]:
    """A random legal game on a Timeline with undo policy "any"; the states it went through."""
    rng = random.Random(seed)
    options = {**default_options(engine), **(variant or {}), "undo": "any"}
    timeline = Timeline(engine, [f"P{i}" for i in range(players)], options, seed)
    states = [timeline.state]
    for _ in range(MAX_ACTIONS):
        active = sorted(engine.active_seats(timeline.state))
        if engine.result(timeline.state) is not None:
            break
        # A table where nobody can act and nothing is decided would hang for good.
        assert active, f"{engine.title}: no seat can act and the game has no result (a stuck table)"
        seat = rng.choice(active)
        action = random_action(engine, timeline.state, seat, rng)
        assert action is not None, f"{engine.title}: active seat {seat} has no legal action"
        timeline.push(seat, action)
        states.append(timeline.state)
    return timeline, states


def _players(engine: Any, variant: dict[str, Any]) -> list[int]:
    """The fewest and the most players the title seats with these options (an option set may
    narrow the title's range: 1841's lite takes 3-6 of its 3-8)."""
    meta = engine.meta
    options = {**default_options(engine), **variant}
    most = meta.max_players
    while most > meta.min_players:
        try:
            engine.setup([f"P{i}" for i in range(most)], options, 0)
            break
        except RuleError:
            most -= 1
    return sorted({meta.min_players, most})


def _variants(engine: Any) -> list[dict[str, Any]]:
    """The default options, then each other value of every `choice` option on its own (a
    choice option may switch the title into another game, e.g. RotW's advanced share game),
    then the title's own `option_sets`."""
    out: list[dict[str, Any]] = [{}]
    for spec in engine.meta.options:
        if spec.type == "choice":
            out += [{spec.name: v} for v in spec.choices or () if v != spec.default]
    return out + [dict(s) for s in engine.meta.option_sets]


def _cases() -> list[tuple[str, int, int, dict[str, Any]]]:
    return [(t, n, g, v) for t in titles() for v in _variants(get_engine(t)) for n in _players(get_engine(t), v)
            for g in range(GAMES)]


def _case_id(c: tuple[str, int, int, dict[str, Any]]) -> str:
    extra = "".join(f"-{k}={v}" for k, v in c[3].items())
    return f"{c[0]}{extra}-{c[1]}p-g{c[2]}"


@pytest.fixture(scope="module", params=_cases(), ids=_case_id)
def game(request: pytest.FixtureRequest) -> tuple[Any, Timeline[Any], list[Any]]:
    title, players, g, variant = request.param
    engine = get_engine(title)
    timeline, states = _playout(engine, players, 1000 + 17 * g + players, variant)
    return engine, timeline, states


def _sample(states: list[Any], k: int = 25) -> list[Any]:
    step = max(1, len(states) // k)
    return states[::step] + [states[-1]]


def _members(legal: Any, rng: random.Random) -> list[Any]:
    if family_size(legal) <= MEMBERS:
        return list(expand(legal))
    everything = list(expand(legal))
    return rng.sample(everything, MEMBERS)


def _mutants(engine: Any, state: Any, seat: int, rng: random.Random) -> list[Any]:
    """Actions near the legal ones: a field nudged or swapped for another value seen."""
    legals = engine.legal_actions(state, seat)
    seen: list[Any] = []
    for legal in legals:
        for name in legal.action.__struct_fields__:
            seen.append(getattr(legal.action, name))
    out = []
    for legal in legals:
        base = legal.action
        for name in base.__struct_fields__:
            value = getattr(base, name)
            if type(value) is int:
                candidates: Sequence[int | str] = [value + d for d in (-2, -1, 1, 2, 50)] + [-1, 10**6]
            elif type(value) is str:
                candidates = [v for v in seen if type(v) is str and v != value] + ["zz-not-a-thing"]
            else:
                continue
            for c in rng.sample(candidates, min(3, len(candidates))):
                out.append(msgspec.structs.replace(base, **{name: c}))
    rng.shuffle(out)
    return out[:MUTANTS]


def _frozen(value: Any) -> bytes:
    return msgspec.msgpack.encode(value)


def test_apply_never_changes_its_input_and_raises_only_rule_errors(game) -> None:
    engine, _, states = game
    rng = random.Random(1)
    for state in _sample(states):
        before = _frozen(state)
        for seat in range(_seat_count(engine, state)):
            for action in _mutants(engine, state, seat, rng):
                try:
                    engine.apply(state, seat, action)
                except RuleError:
                    pass
        for seat in engine.active_seats(state):
            for legal in engine.legal_actions(state, seat):
                engine.apply(state, seat, next(expand(legal)))
        assert _frozen(state) == before


def test_every_member_of_every_legal_family_applies(game) -> None:
    engine, _, states = game
    rng = random.Random(2)
    tried = 0
    for state in _sample(states):
        for seat in engine.active_seats(state):
            for legal in engine.legal_actions(state, seat):
                for action in _members(legal, rng):
                    assert admits(legal, action)
                    engine.apply(state, seat, action)  # RuleError here breaks the contract
                    tried += 1
    assert tried > 0


def test_what_the_families_leave_out_is_refused(game) -> None:
    engine, _, states = game
    rng = random.Random(3)
    refused = 0
    for state in _sample(states):
        seats = set(engine.active_seats(state)) | {0}
        for seat in seats:
            legals = engine.legal_actions(state, seat)
            for action in _mutants(engine, state, seat, rng):
                if any_admits(legals, action):
                    continue
                with pytest.raises(RuleError):
                    engine.apply(state, seat, action)
                refused += 1
    assert refused > 0


def test_folding_the_log_equals_replaying_the_decisions(game) -> None:
    engine, timeline, _ = game
    state = timeline.initial
    for seat, action in timeline.effective:
        state = engine.apply(state, seat, action)
    assert _frozen(state) == _frozen(timeline.state)


def test_undo_to_any_entry_equals_the_fold_of_the_prefix(game) -> None:
    """...or is refused, when the way back crosses a step that revealed something (`reveals`)."""
    engine, timeline, states = game
    rng = random.Random(4)
    for k in sorted(rng.sample(range(timeline.length), min(6, timeline.length))):
        copy = _refold(engine, timeline)
        if _crosses_reveal(copy, k):
            with pytest.raises(RuleError):
                copy.push(0, Undo(action_id=k))
            continue
        copy.push(0, Undo(action_id=k))
        assert _frozen(copy.state) == _frozen(states[k])
    if timeline.length and not _crosses_reveal(timeline, timeline.length - 1):
        copy = _refold(engine, timeline)
        copy.push(0, Undo())
        assert _frozen(copy.state) == _frozen(states[-2])


def _crosses_reveal(timeline: Timeline[Any], k: int) -> bool:
    """Whether going back to entry k undoes a step after which the engine revealed something."""
    node: Node | None = timeline.head
    target = timeline.heads[k]
    while node is not target:
        assert node is not None, "entry k is on the path from the head back to the setup"
        if node.barrier:
            return True
        node = node.parent
    return False


def _refold(engine: Any, timeline: Timeline[Any]) -> Timeline[Any]:
    copy = Timeline(engine, timeline.seats, timeline.options, timeline.seed)
    for seat, action in timeline.effective:
        copy.push(seat, action)
    return copy


def test_a_snapshot_round_trips(game) -> None:
    engine, timeline, states = game
    back = restore_timeline(engine, timeline.seats, timeline.options, timeline.seed, encode_timeline(timeline))
    assert back is not None and back.length == timeline.length
    assert _frozen(back.state) == _frozen(timeline.state)
    if timeline.length > 1 and not _crosses_reveal(back, 1):
        back.push(0, Undo(action_id=1))
        assert _frozen(back.state) == _frozen(states[1])


def test_views_and_legal_actions_depend_only_on_what_the_seat_knows(game) -> None:
    engine, _, states = game
    for state in _sample(states, 15):
        for seat in range(_seat_count(engine, state)):
            # Redactions re-sample everything the seat cannot know: a view that showed any of
            # it would differ between them. (A redaction may also forget what no rule reads,
            # such as a past-events log, so views are compared between redactions.)
            legal = msgspec.json.encode(engine.legal_actions(state, seat))
            views = set()
            for k in range(4):
                seen = engine.redact(state, seat, k)
                views.add(msgspec.json.encode(engine.view(seen, seat)))
                assert msgspec.json.encode(engine.legal_actions(seen, seat)) == legal
            assert len(views) == 1


def _seat_count(engine: Any, state: Any) -> int:
    for name in ("seats", "players"):
        value = getattr(state, name, None)
        if isinstance(value, (list, tuple)):
            return len(value)
    raise AssertionError(f"{engine.title}: state has no seats/players list")


def test_redaction_really_resamples_what_a_seat_cannot_see() -> None:
    """The view check above is only as strong as `redact`: on the hidden-information test
    title, other seats' hands and sealed cards differ between redactions, one's own never."""
    engine = get_engine("sealed")
    state = engine.setup(["a", "b", "c"], {}, 5)
    state = engine.apply(state, 1, engine.legal_actions(state, 1)[0].action)  # seat 1 plays, sealed
    samples = [engine.redact(state, 0, k) for k in range(10)]
    assert all(s.hands[0] == state.hands[0] and s.played[0] == 0 for s in samples)
    assert len({(tuple(s.hands[1]), tuple(s.hands[2])) for s in samples}) > 1
    assert len({s.played[1] for s in samples}) > 1  # seat 1's sealed card is not known to seat 0
    assert all(engine.view(s, 0) == engine.view(state, 0) for s in samples)
    assert engine.view(state, 0)["played"][1] is True  # "has played", never the card


def test_a_preview_agrees_with_apply_and_reads_only_what_the_seat_knows(game) -> None:
    """`Engine.preview` (optional): for every legal action it previews, it says `legal` as apply
    accepts it, and it is the same on every redaction for the seat; for nearby actions it says
    `legal` exactly when apply accepts them."""
    engine, _, states = game
    answer = preview_of(engine)
    if answer is None:
        pytest.skip(f"{engine.title} previews no actions")
    rng = random.Random(7)
    checked = 0
    for state in _sample(states, 40):
        for seat in sorted(engine.active_seats(state)):
            for legal in engine.legal_actions(state, seat):
                try:
                    got = answer(state, seat, legal.action)
                except RuleError as exc:
                    assert exc.code == "no_preview", exc
                    continue
                assert got["legal"] and got["error"] is None, (legal.action, got)
                encoded = msgspec.json.encode(got)
                for k in range(3):
                    assert msgspec.json.encode(answer(engine.redact(state, seat, k), seat, legal.action)) == encoded
                checked += 1
            for near in _mutants(engine, state, seat, rng):
                try:
                    got = answer(state, seat, near)
                except RuleError as exc:
                    assert exc.code == "no_preview", exc
                    continue
                try:
                    engine.apply(state, seat, near)
                    accepted = True
                except RuleError:
                    accepted = False
                assert got["legal"] == accepted, (near, got)
    if not checked:
        pytest.skip(f"{engine.title}: no position of this playout offers an action it previews")
