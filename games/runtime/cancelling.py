"""Stopping a forever-running task even when an await dropped its cancel.

On Python 3.11 ``asyncio.wait_for`` returns the awaited result when the cancel
lands in the same turn of the loop as the result; asgiref's ``SyncToAsync`` can
do the same when the sync code awaited something. The task still counts the
cancel (``Task.cancelling``), so a loop that looks here each time round stops as
it was asked to, instead of running on and keeping its event loop from closing
(a test's loop at teardown, a process's at shutdown).
"""

from __future__ import annotations

import asyncio


def raise_if_cancelled() -> None:
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
