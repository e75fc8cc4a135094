"""Offline tools that make and check the England & Wales map file (never imported at runtime).

build_map.py lays a hex grid over geography.py's shapes and design.py's cities and writes
shared/games/rotw_england_wales/map.json; preview.py draws a map file as SVG to check by eye.
"""
