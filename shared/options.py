"""Table options checked against a title's `OptionSpec`s, the same way for every title.

The table-level option `undo` (see shared/timeline.py) is added to every title's list here,
with the title's default, so the lobby and the API offer it like any other option.
"""

from __future__ import annotations

from typing import Any

from shared.engine import UNDO_POLICIES, OptionSpec, RuleError, TitleMeta, option_default
from shared.timeline import UNDO_OPTION

UNDO_HELP = ("Who may take moves back: none; own - a player may undo their own moves until someone "
             "else moves; any - anyone, anything (friendly or hot-seat games)")


def table_options(meta: TitleMeta) -> list[OptionSpec]:
    """The title's options and the table-level ones, as the lobby shows them."""
    undo = OptionSpec(UNDO_OPTION, "choice", meta.undo, label="Undo", help=UNDO_HELP, choices=list(UNDO_POLICIES))
    return [*meta.options, undo]


def resolve_options(meta: TitleMeta, given: dict[str, Any]) -> dict[str, Any]:
    """`given` completed with defaults, or RuleError('bad_options') naming the first problem."""
    return _resolve(table_options(meta), given, "")


def _resolve(specs: list[OptionSpec], given: Any, prefix: str) -> dict[str, Any]:
    if not isinstance(given, dict):
        raise RuleError("bad_options", f"{prefix.rstrip('.') or 'options'} must be an object")
    known = {s.name: s for s in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise RuleError("bad_options", f"no option {', '.join(prefix + str(u) for u in unknown)}; "
                                       f"options are {', '.join(prefix + n for n in known) or 'none'}")
    out = {}
    for name, spec in known.items():
        out[name] = _value(spec, given[name], prefix + name) if name in given else option_default(spec)
    return out


def _value(spec: OptionSpec, value: Any, where: str) -> Any:
    if spec.type == "object":
        return _resolve(spec.fields or [], value, where + ".")
    if spec.type == "bool":
        if type(value) is not bool:
            raise RuleError("bad_options", f"{where} must be true or false")
    elif spec.type == "int":
        if type(value) is not int:
            raise RuleError("bad_options", f"{where} must be a whole number")
        if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
            raise RuleError("bad_options", f"{where} must be from {spec.min} to {spec.max}")
    elif spec.type == "str":
        if type(value) is not str:
            raise RuleError("bad_options", f"{where} must be a string")
    if spec.choices is not None and value not in spec.choices:
        raise RuleError("bad_options", f"{where} must be one of {', '.join(map(str, spec.choices))}")
    return value
