"""A worker killed with SIGKILL leaves no process behind (once its
decision processes and their resource tracker ran on with no parent)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.browser.servers import launch_worker, server_env
from tests.faults.conftest import needs_real_services, servers_database_url

pytestmark = [pytest.mark.django_db(transaction=True), needs_real_services]


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The fields after the command (which may hold spaces) in parentheses.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def test_a_killed_workers_decision_processes_end_with_it(tmp_path, make_table, alice) -> None:
    # A table with bots to decide for: the worker's decision processes are busy.
    make_table(alice, "open_blot", others=["hard"])
    env = server_env(
        DATABASE_URL=servers_database_url(), REDIS_URL=os.environ["REDIS_URL"]
    )
    worker = launch_worker(env, tmp_path / "worker.log")
    try:
        deadline = time.monotonic() + 60
        children: set[int] = set()
        # Two decision processes (the machine's cores) and the resource tracker.
        while len(children) < 2 and time.monotonic() < deadline:
            assert worker.proc.poll() is None, worker.log()
            children = _children(worker.proc.pid)
            time.sleep(0.2)
        assert len(children) >= 2, worker.log()
        time.sleep(0.5)  # every process's start-up done
        children = _children(worker.proc.pid)
        os.kill(worker.proc.pid, signal.SIGKILL)
        worker.proc.wait()
        deadline = time.monotonic() + 5
        while any(_running(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if _running(pid)]
    finally:
        worker.stop()
