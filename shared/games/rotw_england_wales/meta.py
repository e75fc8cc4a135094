"""What the registries know of Railways of England and Wales (see shared.engine.TitleMeta)."""

from __future__ import annotations

from .compat import OptionSpec, TitleMeta

META = TitleMeta(
    id="rotw-england-wales", name="Railways of England and Wales", min_players=2, max_players=5,
    rules_version="1",
    options=[OptionSpec(name="game", type="choice", default="standard", label="Game",
                        help="standard: players build and deliver for victory points; advanced: the share game "
                             "(companies, dividends, mergers, bonds; the most money wins)",
                        choices=["standard", "advanced"]),
             OptionSpec(name="bidding", type="choice", default="traditional", label="First-player auction",
                        help="standard game: traditional: only the winner pays; first_to_pass: passers pay half "
                             "their bid and play in reverse order of passing (Board Game Arena's options)",
                        choices=["traditional", "first_to_pass"]),
             OptionSpec(name="end_empty_cities", type="int", default=16, label="Empty cities to end (advanced)",
                        help="advanced game: the game ends after the round in which this many cities are empty; "
                             "0 = the standard game's count for the number of players", min=0, max=40)],
    summary="Railways of the World on the England & Wales map: build links, deliver goods, 2-5 players.",
    undo="own", public_view=False,
    bot_kit="shared.bots.rotw_england_wales", web_module="rotw/page.js",
)
