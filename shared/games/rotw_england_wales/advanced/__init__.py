"""The advanced share game of Railways of England and Wales (seed part III), the table option
`game=advanced`. Modules: state (the `adv` part of the state), data (companies, figures),
shares (control, money, bonds, price), auction (opening and round share auctions), build
and deliver (company turns, on the standard game's track geometry), dividends, merger
(with sealed votes), flow (the round), end (final money), view (view + redact), engine
(dispatch). Kept import-light: `..state` imports `advanced.state`.
"""
