"""The rules logic's in-process fixtures (a SQLite persistence store, a settable clock), for
bot turns played against it."""

from tests.unit.rules.conftest import clock, store  # noqa: F401 (fixtures)
