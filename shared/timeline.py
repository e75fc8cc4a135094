"""The state of one table: setup folded with every logged entry, undo and redo included.

Decisions form a tree, as commits do: each decision is a node whose parent is the
position it was made in, and every log entry moves a head. `Undo(action_id=k)` moves the
head back to where it stood after entry k (18xx.games' meaning), `Undo()` to the parent of
the last decision, `Redo` to where the most recent undo found it; nothing is deleted, so
a fold of the log always gives the same state.

States are kept at the head, at the last `RECENT` former heads and at every
`checkpoint_every`-th decision along a path, so going back costs at most that many `apply`
calls, however long the game (and nothing for a recent position); accepting an action costs
one `apply` whatever the table's length.

Who may undo what is the table option `undo` (UNDO_POLICIES): "none"; "own" - a seat
takes back only its own decisions made since another seat last decided, before the game
ends; "any" - anyone, anything (hot-seat tables and imports). Under every policy, undo
never crosses a step after which the engine's `reveals(before, after)` is true.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Generic, NamedTuple, TypeVar

from shared.engine import UNDO_POLICIES, Engine, Redo, RuleError, Undo

S = TypeVar("S")

UNDO_OPTION = "undo"
RECENT = 16  # former heads whose states are kept besides the checkpoints


class Node:
    """One decision (or the setup, seq 0) and, when cached, the state right after it."""

    __slots__ = ("seq", "seat", "action", "parent", "depth", "state", "barrier")

    def __init__(self, seq: int, seat: int, action: Any, parent: Node | None, state: Any, barrier: bool) -> None:
        self.seq = seq
        self.seat = seat
        self.action = action
        self.parent = parent
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.state = state
        self.barrier = barrier

    def path(self) -> list[Node]:
        """The decisions from the setup to this one, oldest first (the root excluded)."""
        out = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out


class Pending(NamedTuple):
    """What `Timeline.check` found: the state an entry leads to, for `commit`."""

    seat: int
    action: Any
    state: Any
    head: Node | None  # where undo/redo moves the head; None for a decision
    barrier: bool


def split_options(options: dict[str, Any], default_policy: str) -> tuple[dict[str, Any], str]:
    """(the title's own options, the table's undo policy); RuleError for a bad policy."""
    title_options = {k: v for k, v in options.items() if k != UNDO_OPTION}
    policy = options.get(UNDO_OPTION, default_policy)
    if policy not in UNDO_POLICIES:
        raise RuleError("bad_options", f"undo must be one of {', '.join(UNDO_POLICIES)}, not {policy!r}")
    return title_options, policy


class Timeline(Generic[S]):
    def __init__(self, engine: Engine[S], seats: list[str], options: dict[str, Any], seed: int) -> None:
        self.engine = engine
        self.seats = list(seats)
        self.options = dict(options)
        self.seed = seed
        title_options, self.policy = split_options(self.options, engine.meta.undo)
        self.every = max(1, engine.meta.checkpoint_every)
        self._reveals = getattr(engine, "reveals", None)
        self.root = Node(0, -1, None, None, engine.setup(self.seats, title_options, seed), False)
        self.head = self.root
        self.heads: list[Node] = [self.root]  # heads[k]: the head after log entry k
        self.nodes: dict[int, Node] = {0: self.root}  # decision nodes by seq
        self.redo: list[tuple[Node, int]] = []  # (head before an undo, the seat that undid)
        self._recent: deque[Node] = deque()  # recent heads whose states are kept for a while

    # --- reading ----------------------------------------------------------------------------

    @property
    def state(self) -> S:
        return self.head.state

    @property
    def initial(self) -> S:
        return self.root.state

    @property
    def length(self) -> int:
        """Log entries folded, undo and redo included: the table's seq."""
        return len(self.heads) - 1

    @property
    def effective(self) -> list[tuple[int, Any]]:
        """(seat, action) of every decision in force, oldest first."""
        return [(n.seat, n.action) for n in self.head.path()]

    def state_after(self, node: Node) -> S:
        """The state right after `node`, folded from its nearest cached ancestor."""
        todo = []
        cur = node
        while cur.state is None:
            todo.append(cur)
            assert cur.parent is not None  # the root always holds the setup
            cur = cur.parent
        state = cur.state
        for n in reversed(todo):
            state = self.engine.apply(state, n.seat, n.action)
            if n.depth % self.every == 0:
                n.state = state
        return state

    # --- folding ----------------------------------------------------------------------------

    def check(self, seat: int, action: Any) -> Pending:
        """What `action` by `seat` leads to, or RuleError; changes nothing."""
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise RuleError("bad_seat", f"seat {seat!r} does not exist at this table")
        if isinstance(action, Undo):
            target = self._undo_target(seat, action)
            return Pending(seat, action, self.state_after(target), target, False)
        if isinstance(action, Redo):
            if not self.redo:
                raise RuleError("nothing_to_redo", "there is no undone action to redo")
            head, undoer = self.redo[-1]
            if self.policy != "any" and undoer != seat:
                raise RuleError("redo_not_allowed", "only the seat that undid an action can redo it")
            return Pending(seat, action, self.state_after(head), head, False)
        before = self.state
        after = self.engine.apply(before, seat, action)
        barrier = bool(self._reveals(before, after)) if self._reveals is not None else False
        return Pending(seat, action, after, None, barrier)

    def can_undo(self, seat: int) -> bool:
        """Whether `Undo()` by `seat` would be accepted now (the check `check` makes)."""
        try:
            self._undo_target(seat, Undo())
        except RuleError:
            return False
        return True

    def _undo_target(self, seat: int, undo: Undo) -> Node:
        if self.policy == "none":
            raise RuleError("undo_not_allowed", "this table does not allow undo")
        head = self.head
        if head.parent is None:
            raise RuleError("nothing_to_undo", "there is no action to undo")
        if undo.action_id is None:
            target = head.parent
        else:
            k = undo.action_id
            if type(k) is not int or not 0 <= k < self.length:
                raise RuleError("bad_undo", f"action_id must be a log entry from 0 to {self.length - 1}, not {k!r}")
            target = self.heads[k]
            if target.depth >= head.depth or not _is_ancestor(target, head):
                raise RuleError("bad_undo", f"the position after entry {k} is not behind the current one")
        if self.policy == "own" and self.engine.result(head.state) is not None:
            raise RuleError("game_over", "the game has ended")
        node = head
        while node is not target:
            if node.barrier:
                raise RuleError("undo_not_allowed", "hidden information was revealed since then: that cannot be undone")
            if self.policy == "own" and node.seat != seat:
                raise RuleError("undo_not_allowed", "only your own actions can be undone, before anyone else acts")
            assert node.parent is not None
            node = node.parent
        return target

    def commit(self, pending: Pending) -> S:
        """Fold an entry that `check` just accepted on this same timeline (so a service can
        validate, append to the log, then fold without applying the action twice)."""
        old = self.head
        action = pending.action
        if isinstance(action, Undo):
            assert pending.head is not None
            self.redo.append((old, pending.seat))
            new = pending.head
        elif isinstance(action, Redo):
            assert pending.head is not None
            self.redo.pop()
            new = pending.head
        else:
            new = Node(self.length + 1, pending.seat, action, old, None, pending.barrier)
            self.nodes[new.seq] = new
            self.redo.clear()
        new.state = pending.state
        self.head = new
        self.heads.append(new)
        if old is not new and old.parent is not None and old.depth % self.every:
            # Besides the head and the checkpoints, the last few heads keep their states, so
            # the usual undo (one step or a few back) costs nothing at all.
            self._recent.append(old)
            if len(self._recent) > RECENT:
                dropped = self._recent.popleft()
                if dropped is not self.head and dropped.depth % self.every:
                    dropped.state = None
        return new.state

    def push(self, seat: int, action: Any) -> S:
        """Validate and fold one log entry; on RuleError nothing changes."""
        return self.commit(self.check(seat, action))


def _is_ancestor(node: Node, of: Node) -> bool:
    cur: Node | None = of
    while cur is not None and cur.depth > node.depth:
        cur = cur.parent
    return cur is node
