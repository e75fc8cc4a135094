"""The board side: hexes, tiles, the map, board state, track, tokens, routes (README.md)."""
