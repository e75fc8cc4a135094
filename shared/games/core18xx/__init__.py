"""Shared 18xx machinery for 18xx titles: board/, money/, rounds/.

Not a title: it exports no META. See README.md in this directory.
"""
