"""Give each pytest-xdist worker its own names on the shared Redis.

Loaded with ``-p tests.worker_env`` (pyproject.toml), so it runs before Django's
settings are read. Workers share one Redis server: without a prefix of their own,
two workers' tests would hear each other's table groups (the test databases hand
out the same table ids in every worker). The servers a test starts inherit the
prefix through the environment. pytest-django already gives each worker its own
test database.
"""

from __future__ import annotations

import os

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker:
    for _name, _default in (("CHANNEL_LAYER_PREFIX", "asgi"), ("CACHE_KEY_PREFIX", "blot")):
        os.environ[_name] = f"{os.environ.get(_name, _default)}-{_worker}"
