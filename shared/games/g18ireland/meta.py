from shared.engine import OptionSpec, TitleMeta

META = TitleMeta(
    imports_18xx='18Ireland',
    id="18ireland",
    name="18Ireland",
    min_players=3,
    max_players=6,
    rules_version="1",
    summary="Irish railways 1830s-: auction privates, start minors, lay broad and narrow gauge, merge minors "
            "into majors (18xx.games rules).",
    options=[
        OptionSpec("larger_bank", "bool", False, label="Larger bank",
                   help="The bank holds £5,000 instead of £4,000 (18xx.games optional rule): a longer game"),
    ],
    bot_kit="shared.bots.g18ireland",
    web_module="core18xx/page.js",
    # 18xx.games lets players undo freely (its exports hold undos by any seat, reaching back
    # into other players' moves); 18Ireland has no hidden information or randomness after the
    # set-up, so nothing an undo reveals needs protecting.
    undo="any",
    # each seat's view holds its own programs (docs/engine-contract.md): views differ by seat
    public_view=False,
)
