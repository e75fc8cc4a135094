"""The game service's fixtures (tests/game/conftest.py) for the tests here that play 18Ireland
through its HTTP API."""

from tests.game.conftest import client, make_cfg, make_table, new_client  # noqa: F401 - fixtures, found by name
