from shared.engine import OptionSpec, TitleMeta

META = TitleMeta(
    imports_18xx='1841',
    id="1841",
    name="1841",
    min_players=3,
    max_players=8,
    rules_version="1",
    summary="Railways in Northern Italy 1841-: concessions, corporations that own and found corporations, "
            "borders that move with the wars (18xx.games rules).",
    # 18xx.games' optional rules, under its own names (an export's `optional_rules` map one to one)
    options=[
        OptionSpec("version_1", "bool", False, label="First edition",
                   help="The first edition's map and corporations, and a sealed-bid concession auction"),
        OptionSpec("lite", "bool", False, label="Lite",
                   help="A smaller map and bank for 3-6 players, no Tuscan corporations"),
        OptionSpec("sfli_run_variant", "bool", False, label="SFLi runs",
                   help="SFLi, formed by the Tuscan merge, runs in the operating round it forms"),
        OptionSpec("p2p_purchases", "bool", False, label="Player to player",
                   help="Players may buy shares and concessions from each other"),
    ],
    option_sets=[{"version_1": True}, {"lite": True}, {"lite": True, "version_1": True},
                 {"sfli_run_variant": True}, {"p2p_purchases": True}],
    bot_kit="shared.bots.g1841",
    web_module="core18xx/page.js",
    # as 18Ireland: 18xx.games lets anyone undo; nothing after the set-up is random, and the one
    # secret (version_1's sealed bids) is a reveal undo never crosses
    undo="any",
    public_view=False,
)
