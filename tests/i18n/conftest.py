"""Fixtures for the language tests: the site's users and tables."""

from tests.site.conftest import (  # noqa: F401 - fixtures shared with the site tests
    _fast_password_hashing,
    alice,
    bob,
    carol,
    make_table,
    make_user,
)
