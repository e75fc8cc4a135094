"""Shared 18xx machinery (board side: hexes, tiles, track, tokens, routes) for 18Ireland and 1841.

Not a title: it exports no META. See README.md in this directory.
"""
