"""The contract types this package uses, in one import (contract v2: `shared.engine`,
`shared.families`)."""

from __future__ import annotations

from shared.engine import OptionSpec, Result, RuleError, TitleMeta
from shared.families import AmountRange, Choice, LegalAction

__all__ = ["AmountRange", "Choice", "LegalAction", "OptionSpec", "Result", "RuleError", "TitleMeta"]
