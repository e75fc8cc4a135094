"""1841's board rules as pure functions over the core's board (`core18xx/board`): track lays,
borders, routes, stations and the board side of the game's events. Inputs are plain values (a
`MapDef` from `g1841.data.the_map(variant)`, a `BoardState`, the variant name, a phase as 2..8
or "2".."8", a corporation symbol, its kind "major"/"minor", its token order); nothing here
reads a game state. Facts from 18xx.games `lib/engine/game/g_1841/`; see the title's README
("Board rules").

API
---
graph (18xx.games' network walk; what every check below reads):
    network(m, b, corp, regions=NO_BORDERS) -> Reach        all bases (tokens not on passes)
    from_base(m, b, corp, base, regions=NO_BORDERS) -> Reach one base alone
    railheads(m, b, corp); regions: the borders standing (region graph) or none (plain graph)
regions (province borders):
    borders(variant, phase) -> frozenset[(hex, edge)]      both sides of each standing border
    phase_board(m, b, variant, phase) -> BoardState         b with the phase's borders closed:
        what a game keeps; call it at setup and on the phase4/phase5 border events
    open_board(m, b), track_board(m, b, variant, phase)     no borders / the board track is
        walked on (borders in phase 2 only)
track (lays):
    lays_allowed(kind, phase, bases) -> int                  lays this turn
    railheads(m, b, corp, order=None) -> [(hex, city)]       bases: tokens not on passes
    legal_lays(m, b, variant, phase, corp, kind, start, laid=(), cash=None, order=None) -> [Lay]
        start: the board when the turn's first lay was made; laid: hexes laid since, in order;
        order: the corporation's token order (hexes or (hex, city)), home first; ~80 ms median
        on late boards: use check_lay to check one lay
    check_lay(m, b, variant, phase, corp, kind, start, laid, hex, tile, rotation, cash=None,
              order=None) -> Lay, or BoardError(code, message)
    unused_bases(m, b, corp, start, laid, order=None), pass_size(m, b, hex, variant),
    phase_colors(variant, phase)
routes (trains and revenue; the board's borders are ignored: trains cross them):
    train(variant, type, ident=None) -> core Train         "2".."8": length and free stop kinds
    revenue_colors(variant, phase)                          off-board colours (white/gray/black)
    context(m, b, variant, phase, corp) -> RouteContext     passes/ports as kinds, yellow Milano
    run_routes(m, b, variant, phase, corp, {train id: type}, [RouteSpec]) -> (results, total)
    best_routes(m, b, variant, phase, corp, [(train id, type)]) -> BestRoutes
stations (tokens; placing a token costs nothing, tokens are bought at founding):
    initial(m, variant) -> BoardState                       every home hex reserved, phase 2 borders
    places_homes_itself(variant, corp), place_homes(m, b, variant, corp)   historical homes
    home_hexes / home_choices(m, b, variant, phase, corp, first_home=None) -> hexes / [TokenSpot]
        a general corporation's (or SFMA's) home, or a major's optional second token
    legal_tokens(m, b, variant, phase, corp, sfma_floated=False) -> [TokenSpot]
    firenze_open(variant, phase, corp, sfma_floated), reached(m, b, variant, phase, corp)
    hex_price(m, b, variant, phase, hex), token_price(m, b, variant, phase, corp, homes)
    purchase_range(variant, kind), purchase_options(first_price, price, fewest, most, cash)
    buyable_tokens(m, b, variant, phase, corp, sellers) -> [BuyableToken(hex, city, slot, owner)]
    buy_token(m, b, corp, hex, city, slot) -> BoardState
events (tokens and borders of the events and mergers; money and order are the engine's):
    border_event(m, b, variant, "phase4_regions" | "phase5_regions") -> BoardState
    secession_happens(m, b, variant, irsff_floated), milano_venezia_connected(m, b, variant)
    secession_corporations(variant) -> (Veneto half, other half)
    secession_tokens(m, b, variant, unplaced, order=None) -> Secession(board, tokens per corp)
    secession_purchase_limit(tokens, cash)
    tuscan_merge_happens(floated), tuscan_merge_steps(floated, holding), sfli_runs(variant,
        sfli_run_variant, a_merged_one_operated)
    merger_duplicates / remove_duplicates / shared_hex(m, b, a, other)
    merger_removal(m, b, variant, a, other, tokens_a, tokens_b, duplicates, tuscan=""|"first"|"last")
        -> Removal(fewest, most, hexes, tokens)
    tuscan_frozen_removals(m, b, variant, a, other), remove_tokens(m, b, owners, [(hex, city)])
    merged_tokens(b, corps, target), transform_token_options(tokens, cash)
"""
