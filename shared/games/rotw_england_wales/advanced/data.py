"""The companies of the advanced game and their starting share prices.

RECONSTRUCTED (README 'Advanced game'): the seed says the starting price of each company is
printed on the available-shares box and "depends on its colour", but gives no figures, and
no public source we could find lists them. The companies are the colours the seed's examples
name (black, blue, yellow, red, green) plus purple (the base game's sixth player colour);
the prices are our own spread from $3,000 to $8,000 per share.
"""

from __future__ import annotations

COMPANIES: tuple[tuple[str, str, int], ...] = (  # (id, name, starting price in $1,000)
    ("red", "Red Company", 8),
    ("blue", "Blue Company", 7),
    ("green", "Green Company", 6),
    ("yellow", "Yellow Company", 5),
    ("purple", "Purple Company", 4),
    ("black", "Black Company", 3),
)

SHARES = 10
START_CASH = {2: 25000, 3: 25000, 4: 20000, 5: 20000}  # seed III.1
ROUND_BONUS = 5000  # every player after the dividends
BOND_CASH = 5000
BOND_INTEREST = 1000
BOND_REPAY = 5000
SECOND_LINK_SURCHARGE = 2000  # per hex of the second link of a build action
COMPANY_TURNS = 3
MERGER_PREMIUM = 1  # in thousands, over the target's share price
DIVIDEND_CAP = 3  # at most 3x the share price
DEFAULT_END_EMPTY = 16
BID_STEP = 1000
