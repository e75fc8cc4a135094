"""18Ireland's numbers for the 18xx heuristic (`shared/bots/kit18xx/params.py` says what each
means). Set by arena matches between variants (docs/bots.md)."""

from shared.bots.kit18xx import Params

PARAMS = Params(
    presidencies={3: 3, 4: 3, 5: 2, 6: 2},
    minor_bid_ceiling=160,
    late_phases=("8", "10", "D"),
    early_phases=("2",),
)
