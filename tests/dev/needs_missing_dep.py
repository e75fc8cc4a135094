"""A service module whose own import is broken (used by test_dev_app): `roundhouse dev` must
report it, not skip it as "not written yet"."""

import roundhouse_no_such_dependency  # noqa: F401
