"""1841's train events as procedures that ask questions (18xx.games' pending options, token
purchases and removals of `ChooseOption`, `BuyNewTokens`, `RemoveTokens` during the
Ferdinandea secession and the Tuscan merge).

An event is written as straight-line code over a `Run`: it changes `run.s` and, where a player
must decide, calls `run.ask(question)`. The first time a question has no answer yet, the run
stops (`Pending`) and the table waits with the partial position on view and the question as
its one legal action. Each answer re-runs the event from the position it began in
(`EventRun.base`) with all answers so far, so the position is always a pure function of the base
and the answers and nothing in between needs storing (a pass over given answers is kept,
`_outcome`: the foresight's passes are those the answers then make).

Answers are kept as text: a `choose` as its choice (`"full"`, `"2"`), a `remove_token` as
`"remove:HEX:CITY"`, a pass as `"pass"`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from shared.engine import LegalAction, RuleError
from shared.families import Choice
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.choice import trie
from shared.games.core18xx.memo import Memo
from shared.games.core18xx.money import trains as T
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import holders as H
from shared.games.g1841.state import EventRun, Question, State

replace = msgspec.structs.replace


class Pending(Exception):
    def __init__(self, question: Question) -> None:
        super().__init__(question.topic)
        self.question = question


class Run:
    """One pass over an event's procedure: the position as it goes, the answers given so far,
    the log lines it writes."""

    def __init__(self, state: State, answers: list[str]) -> None:
        self.s = state
        self.base = state
        self.answers = answers
        self.used = 0
        self.log: list[str] = []
        # who answers for a corporation nobody controls yet (a merger's new one, before its
        # exchange): the merger's decider
        self.speaker = ""

    def say(self, line: str) -> None:
        self.log.append(line)

    def ask(self, q: Question) -> str:
        if q.kind != "bankrupt":
            self._discards()
        return self._answer(q)

    def _discards(self) -> None:
        """A corporation over its train limit discards before any question is answered:
        18xx.games' `DiscardTrain` stands before `ChooseOption`, `RemoveTokens`, `BuyNewTokens`
        and `TokenEmergencyMoney` in G1841's operating steps (only `Bankrupt` precedes it), so a
        merger whose new corporation holds both trains over its limit asks the discard first."""
        from shared.games.g1841.operating import crowded
        while over := crowded(self.s):
            corp = over[0]
            trains = self.s.depot.owned_by(corp)
            by = "" if H.decider(self.s, corp) is not None else self.speaker
            q = Question("discard", "discard", corp, f"{corp} is over its train limit: discard a train",
                         choices=[t.id for t in trains], by=by)
            train = self._answer(q)
            self.s = replace(self.s, depot=T.discard(self.s.depot, corp, train))
            self.say(f"{corp} discards {self.s.depot.trains[train].name}")

    def _answer(self, q: Question) -> str:
        if self.used >= len(self.answers):
            raise Pending(q)
        answer = self.answers[self.used]
        self.used += 1
        if not admissible(q, answer):
            raise RuleError("bad_choice", f"{answer!r} does not answer: {q.text}")
        return answer

    def choose(self, q: Question) -> str:
        """A question with one possible answer is no question (18xx.games asks none)."""
        return self.ask(q)


def sale_answer(seller: str, cert_ids: list[str]) -> str:
    return f"sell:{seller}:{','.join(sorted(cert_ids))}"


def admissible(q: Question, answer: str) -> bool:
    if q.kind in ("choose", "discard"):
        return answer in [str(c) for c in q.choices]
    if q.kind == "sell":
        return answer in [sale_answer(seller, ids) for seller, ids, _p, _x in q.sales]
    if q.kind == "bankrupt":
        return answer in ("bankrupt:0", "bankrupt:1")
    if answer == "pass":
        return q.can_pass
    kind, _, rest = answer.partition(":")
    coord, _, city = rest.rpartition(":")
    return kind == "remove" and any(s[0] == coord and str(s[1]) == city for s in q.spots)


Procedure = Callable[[Run, list[str]], None]


def _procedure() -> Procedure:
    from shared.games.g1841 import trainevents
    return trainevents.run_events


def start(state: State, events: list[str]) -> State:
    """The position after a train's `events`, or the first question they ask."""
    return _run(state, events, [], state.moves)


class Outcome(NamedTuple):
    """Where one pass of the procedure over given answers stops: at a question (`question`),
    refused (`refused`: the RuleError's code and message), or at the events' end; `s` and `log`
    the position and the lines written up to there (read only)."""
    s: State
    log: list[str]
    question: Question | None
    refused: tuple[str, str] | None


def _outcome(base: State, events: list[str], answers: list[str]) -> Outcome:
    """One pass of the procedure, kept per base, events and answers: the foresight's passes
    (`refuses`, `completes`) over the answers a question may get are the very passes its answer
    then makes (`process`), and the next question's foresight walks the same answers again."""
    key = (id(base), tuple(events), tuple(answers))
    known = _OUTCOMES.get(key, (base,))
    if known is not None:
        return known
    run = Run(base, answers)
    question = refused = None
    try:
        _procedure()(run, list(events))
    except Pending as p:
        question = p.question
    except RuleError as exc:
        refused = (exc.code, exc.message)
    return _OUTCOMES.put(key, (base,), Outcome(run.s, run.log, question, refused))


_OUTCOMES = Memo(512)


def _run(base: State, events: list[str], answers: list[str], moves: int) -> State:
    out = _outcome(base, events, answers)
    if out.refused is not None:
        raise RuleError(*out.refused)
    if out.question is not None:
        lines = list(out.log)
        q = _answerable(base, events, answers, out.question)
        return replace(out.s, event=EventRun(events=list(events), base=base, answers=list(answers),
                                             question=q, log=lines), event_log=lines, moves=moves)
    return replace(out.s, event=None, event_log=list(out.log), moves=moves)


def refuses(base: State, events: list[str], answers: list[str]) -> bool:
    """Whether the events refuse these answers before their next question (a merger's end
    without a president or with a new circular chain)."""
    return _outcome(base, events, answers).refused is not None


# a plain merger's questions before its end's checks (the price, the holders' exchanges); the
# token removals come after them
DECISIVE = frozenset({"price", "upgrade"})
# runs one foresight may make before it takes a merger as completable (see `completes`)
BUDGET = 400


def completes(base: State, events: list[str], answers: list[str]) -> bool:
    """Whether some answers to the questions still to come take the events past every check
    that refuses a position (a plain merger's end with a president and no new circular chain):
    a depth-first search over the decisive questions' answers, the president's certificate
    ("pres") tried first. Only a plain merger refuses after further questions; other events
    need just `refuses`. Past `BUDGET` runs the search gives up and says yes (see the README)."""
    if not any(e.startswith("merge:") for e in events):
        return not refuses(base, events, answers)
    # asked of one position by the merge step's "is it open?", its listing and its check of
    # the decision: one search each
    key = (id(base), tuple(events), tuple(answers))
    known = _COMPLETES.get(key, (base,))
    if known is None:
        known = _COMPLETES.put(key, (base,), _search(base, events, answers))
    return known


_COMPLETES = Memo(256)


def known_to_complete(base: State, events: list[str], answers: list[str]) -> bool:
    """Whether `completes` has already answered yes for these, without searching."""
    return _COMPLETES.get((id(base), tuple(events), tuple(answers)), (base,)) is True


def _search(base: State, events: list[str], answers: list[str]) -> bool:
    budget = [BUDGET]

    def search(given: list[str]) -> bool:
        budget[0] -= 1
        out = _outcome(base, events, given)
        if out.refused is not None:
            return False
        q = out.question
        if q is None:
            return True
        if q.kind == "discard":
            # which train goes decides nothing the merger's end checks
            return search([*given, str(q.choices[0])])
        if q.topic not in DECISIVE or budget[0] <= 0:
            return True
        options = sorted((str(c) for c in q.choices), key=lambda c: c != "pres")
        return any(search([*given, c]) for c in options)

    return search(list(answers))


def _answerable(base: State, events: list[str], answers: list[str], q: Question) -> Question:
    if q.kind in ("sell", "bankrupt", "discard"):
        return q
    if q.kind == "choose":
        kept = [c for c in q.choices if completes(base, events, [*answers, str(c)])]
        return replace(q, choices=kept or q.choices)
    spots = [x for x in q.spots if not refuses(base, events, [*answers, f"remove:{x[0]}:{x[1]}"])]
    can_pass = q.can_pass and not refuses(base, events, [*answers, "pass"])
    return replace(q, spots=spots, can_pass=can_pass) if spots or can_pass else q


def answer_of(state: State, action: Any) -> str:
    ev = state.event
    assert ev is not None
    q = ev.question
    if isinstance(action, A.Choose) and q.kind == "choose":
        return str(action.choice)
    if isinstance(action, A.DiscardTrain) and q.kind == "discard":
        return str(action.train)
    if isinstance(action, A.Pass) and q.kind == "remove":
        return "pass"
    if isinstance(action, A.SellShares) and q.kind == "sell":
        return sale_answer(str(action.entity), list(action.shares))
    if isinstance(action, A.Bankrupt) and q.kind == "bankrupt":
        return f"bankrupt:{action.option or 0}"
    if isinstance(action, A.RemoveToken) and q.kind == "remove":
        try:
            coord, city = BS.find_node(state, action.city)
        except B.BoardError as exc:
            raise RuleError(exc.code, str(exc)) from None
        return f"remove:{coord}:{city}"
    raise RuleError("wrong_step", f"answer first: {q.text}")


def process(state: State, action: Any) -> State:
    """An answer to the pending question: the event runs again from its start with it."""
    ev = state.event
    assert ev is not None
    given = answer_of(state, action)
    if not admissible(ev.question, given):
        raise RuleError("bad_choice", f"{given!r} does not answer: {ev.question.text}")
    return _run(ev.base, ev.events, [*ev.answers, given], state.moves)


def legal(state: State) -> list[LegalAction]:
    ev = state.event
    assert ev is not None
    q = ev.question
    who: dict[str, Any] = {"entity": q.entity, "entity_type": "player" if q.entity.isdigit() else "corporation"}
    if q.kind == "choose":
        values = list(q.choices)
        return [LegalAction(action=A.Choose(**who, choice=values[0]), choices=Choice("choice", values))]
    if q.kind == "sell":
        return [LegalAction(action=A.SellShares(entity=seller, entity_type="player" if seller.isdigit() else "corporation",
                                                shares=sorted(ids), percent=percent, share_price=price))
                for seller, ids, percent, price in q.sales]
    if q.kind == "bankrupt":
        return [LegalAction(action=A.Bankrupt(**who, option=o)) for o in (0, 1)]
    if q.kind == "discard":
        return [LegalAction(action=A.DiscardTrain(**who, train=str(t))) for t in q.choices]
    out = []
    rows = [(BS.node_id(state, coord, city), slot) for coord, city, slot in q.spots]
    choices = trie(("city", "slot"), rows)
    if choices is not None:
        out.append(LegalAction(action=A.RemoveToken(**who, city=rows[0][0], slot=rows[0][1]), choices=choices))
    if q.can_pass:
        out.append(LegalAction(action=A.Pass(**who)))
    return out


def event_done(state: State) -> State:
    """Once the events have run to their end, the operating turn goes on as after any step."""
    if state.event is not None or state.round != "operating" or state.operating is None or state.operating.turn is None:
        return state
    from shared.games.g1841 import operating as OP
    return OP.skip_dividend(state)
