"""shared/protocol/json_patch.py: diff and apply are inverse on any JSON documents and on real
Chicago Express views (consecutive views of random games with undo and redo), the patches
are RFC 6902 (add/remove/replace, escaped JSON Pointers), and neither input is changed."""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.bots.random_bot import random_action
from shared.engine import Redo, Undo, default_options
from shared.games import get_engine
from shared.protocol.json_patch import PatchError, apply, diff, escape, unescape
from shared.timeline import Timeline


def wire(value: Any) -> Any:
    """`value` as a client gets it: encoded by the server, decoded on the other side."""
    return msgspec.json.decode(msgspec.json.encode(value))


def canonical(doc: Any) -> bytes:
    """JSON with sorted keys: equal bytes = the same document (member order aside)."""
    return msgspec.json.encode(doc, order="sorted")


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON: unlike Python's ==, a bool is never equal to a number (True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b  # one JSON number, whether it was written 2 or 2.0
    return type(a) is type(b) and a == b


# Keys with the characters JSON Pointer escapes. Numbers avoid 0 and 1: Python's == calls them
# equal to False and True, which diff documents it does not tell apart (see
# test_bool_and_number_are_one_value_to_diff).
keys = st.text(alphabet=st.sampled_from("ab~/0-é "), max_size=4)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-10**6, 10**6).filter(lambda n: n not in (0, 1))
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x not in (0.0, 1.0))
    | st.text(max_size=6)
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=25,
)


@st.composite
def edited(draw: st.DrawFn, doc: Any, depth: int = 0) -> Any:
    """`doc` with random edits: what consecutive views look like (mostly the same)."""
    if depth > 4 or draw(st.integers(0, 9)) == 0:
        return draw(documents) if draw(st.booleans()) else doc
    if isinstance(doc, dict):
        out = {}
        for key, value in doc.items():
            fate = draw(st.integers(0, 5))
            if fate == 0:
                continue  # removed
            out[key] = draw(edited(value, depth + 1)) if fate == 1 else value
        for key in draw(st.lists(keys, max_size=2)):
            out[key] = draw(documents)
        return out
    if isinstance(doc, list):
        kind = draw(st.sampled_from(["append", "truncate", "items", "prepend", "keep"]))
        if kind == "append":
            return doc + draw(st.lists(documents, min_size=1, max_size=3))
        if kind == "truncate":
            return doc[: draw(st.integers(0, len(doc)))]
        if kind == "prepend":
            return [draw(documents), *doc]
        if kind == "items":
            return [draw(edited(item, depth + 1)) if draw(st.booleans()) else item for item in doc]
        return list(doc)
    return draw(documents) if draw(st.booleans()) else doc


@st.composite
def document_pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    a = draw(documents)
    return a, draw(edited(a)) if draw(st.integers(0, 3)) else draw(documents)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(document_pairs())
def test_apply_of_diff_gives_the_new_document(pair):
    a, b = pair
    a_before, b_before = copy.deepcopy(a), copy.deepcopy(b)
    ops = diff(a, b)
    ops_before = copy.deepcopy(ops)
    result = apply(a, ops)
    assert same_json(result, b)
    # Over the wire too: the client applies the decoded patch to its decoded copy.
    assert same_json(apply(wire(a), wire(ops)), wire(b))
    # Neither input changed, nor the ops.
    assert same_json(a, a_before) and same_json(b, b_before) and same_json(ops, ops_before)
    assert all(op["op"] in ("add", "remove", "replace") for op in ops)
    if same_json(a, b):
        assert ops == []


def test_a_grown_list_is_appended_to():
    ops = diff({"log": [1, 2]}, {"log": [1, 2, {"x": 3}, 4]})
    assert ops == [{"op": "add", "path": "/log/-", "value": {"x": 3}}, {"op": "add", "path": "/log/-", "value": 4}]


def test_one_changed_item_is_patched_in_place():
    old = {"hexes": [{"id": f"h{i}", "house": False} for i in range(100)]}
    new = copy.deepcopy(old)
    new["hexes"][42]["house"] = True
    assert diff(old, new) == [{"op": "replace", "path": "/hexes/42/house", "value": True}]


def test_a_shrunk_list_loses_its_tail_from_the_end():
    old = {"log": [{"line": i} for i in range(30)]}
    new = {"log": old["log"][:27]}
    assert diff(old, new) == [{"op": "remove", "path": f"/log/{i}"} for i in (29, 28, 27)]
    assert apply(old, diff(old, new)) == new


def test_a_rewritten_list_is_replaced_when_that_is_shorter():
    old = {"order": list(range(50))}
    new = {"order": list(range(49, -1, -1))}
    assert diff(old, new) == [{"op": "replace", "path": "/order", "value": new["order"]}]


def test_pointer_tokens_are_escaped():
    old = {"a/b": {"~c": 1}}
    new = {"a/b": {"~c": 2}, "x~/y": None}
    ops = diff(old, new)
    assert ops == [
        {"op": "replace", "path": "/a~1b/~0c", "value": 2},
        {"op": "add", "path": "/x~0~1y", "value": None},
    ]
    assert apply(old, ops) == new
    for token in ("", "~", "/", "~1", "~01", "a/~b~/"):
        assert unescape(escape(token)) == token


def test_a_changed_root_is_replaced_whole():
    assert diff([1], {"a": 1}) == [{"op": "replace", "path": "", "value": {"a": 1}}]
    assert apply({"a": 1}, [{"op": "replace", "path": "", "value": 7}]) == 7


def test_bool_and_number_are_one_value_to_diff():
    # The documented limit of comparing with ==: views keep one JSON type per field.
    assert diff({"n": 1}, {"n": True}) == []


def test_apply_follows_rfc6902_for_the_three_ops():
    doc = {"a": [1, 2, 3], "b": {"c": 1}}
    assert apply(doc, [{"op": "add", "path": "/a/1", "value": 9}]) == {"a": [1, 9, 2, 3], "b": {"c": 1}}
    assert apply(doc, [{"op": "add", "path": "/a/3", "value": 9}])["a"] == [1, 2, 3, 9]
    assert apply(doc, [{"op": "add", "path": "/b/c", "value": 2}])["b"] == {"c": 2}  # add replaces a member
    assert apply(doc, [{"op": "remove", "path": "/a/0"}])["a"] == [2, 3]
    assert apply(doc, [{"op": "replace", "path": "/a/2", "value": None}])["a"] == [1, 2, None]
    assert doc == {"a": [1, 2, 3], "b": {"c": 1}}


@pytest.mark.parametrize(
    "op",
    [
        {"op": "replace", "path": "/missing", "value": 1},
        {"op": "remove", "path": "/b/missing"},
        {"op": "add", "path": "/missing/x", "value": 1},
        {"op": "add", "path": "/a/4", "value": 1},
        {"op": "replace", "path": "/a/3", "value": 1},
        {"op": "remove", "path": "/a/-"},
        {"op": "add", "path": "/a/01", "value": 1},
        {"op": "add", "path": "/a/x", "value": 1},
        {"op": "add", "path": "/a/0/x", "value": 1},
        {"op": "add", "path": "a", "value": 1},
        {"op": "remove", "path": ""},
        {"op": "add", "path": "/b/c"},
        {"op": "move", "from": "/a", "path": "/c"},
        {"path": "/a"},
        ["op", "add"],
    ],
)
def test_an_op_that_does_not_fit_is_refused_and_changes_nothing(op):
    doc = {"a": [1, 2, 3], "b": {"c": 1}}
    with pytest.raises(PatchError):
        apply(doc, [{"op": "add", "path": "/b/d", "value": 5}, op])
    assert doc == {"a": [1, 2, 3], "b": {"c": 1}}


# --- real views ------------------------------------------------------------------------------

CE = get_engine("chicago-express")


def play(seed: int, players: int, undo_rate: float, max_actions: int):
    """A random game of Chicago Express with undo and redo; yields each timeline state."""
    rng = random.Random(seed)
    timeline = Timeline(CE, [f"P{i}" for i in range(players)], default_options(CE), seed)
    yield timeline.state
    for _ in range(max_actions):
        state = timeline.state
        if CE.result(state) is not None:
            return
        roll = rng.random()
        if timeline.redo and roll < 0.5 * undo_rate:
            timeline.push(timeline.redo[-1][1], Redo())
        elif timeline.effective and roll < undo_rate:
            timeline.push(timeline.effective[-1][0], Undo())
        else:
            seat = min(CE.active_seats(state))
            timeline.push(seat, random_action(CE, state, seat, rng))
        yield timeline.state


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(CE.meta.min_players, CE.meta.max_players))
def test_consecutive_chicago_express_views(seed, players):
    keys = [None, *range(players)]
    states = play(seed, players, undo_rate=0.08, max_actions=400)
    first = next(states)
    server = {k: CE.view(first, k) for k in keys}  # what the projection diffs (engine objects)
    client = {k: wire(v) for k, v in server.items()}  # what a client holds (decoded JSON)
    patch_bytes = view_bytes = updates = 0
    for state in states:
        updates += 1
        for k in keys:
            new = CE.view(state, k)
            patch = msgspec.json.encode(diff(server[k], new))
            client[k] = apply(client[k], msgspec.json.decode(patch))
            full = msgspec.json.encode(new)
            assert canonical(client[k]) == canonical(new)
            server[k] = new
            patch_bytes += len(patch)
            view_bytes += len(full)
    assert updates > 20
    # The map and the log dominate a view and barely change: patches are a small fraction.
    assert patch_bytes * 20 < view_bytes, (patch_bytes, view_bytes)
