"""Shared 18xx machinery for 18Ireland and 1841: board/, money/, rounds/.

Not a title: it exports no META. See README.md in this directory.
"""
