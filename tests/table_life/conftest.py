from tests.projection.conftest import *  # noqa: F401,F403 - the projection fixtures (app, driver) for these tests too
