"""The restore drill (``manage.py restore_drill``): a backup is only as good
as a restore that was tried.

It dumps the site's database as a backup does (``pg_dump``'s custom format on
PostgreSQL, as deploy/backup/blot-backup; SQLite's own dump of SQL on the
embedded default), restores the dump into a fresh database, and then, in a
process of its own pointed at the copy (:func:`inspect`), reads every match
back:

* every finished match's page, each of its deals' replays and record.json are
  the same as the source's, byte for byte (the CSRF token aside);
* every player's rating history (their rating changes, and their page) is the
  same;
* every running match's page draws, its deals' moves are the source's (or a
  prefix of them, if the site moved on meanwhile), and each running table takes
  its next move through the one move path: play continues from the copy.

The copy is dropped afterwards unless kept. It never publishes a frame or wakes
a worker: the inspecting process has no Redis.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from django.conf import settings
from django.db import connections
from django.test import Client

from games.models import Deal, Match, RatingChange, Table

_CSRF = re.compile(
    r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"'
)


_MAIN = re.compile(r"<main>.*</main>", re.S)


def _digest(body: bytes) -> str:
    """A page's content: its ``<main>`` (the head's scripts follow the process's
    DEBUG, not the data), without the CSRF token; a JSON answer whole."""
    text = body.decode("utf-8", errors="replace")
    main = _MAIN.search(text)
    text = _CSRF.sub(r'\1"', main.group(0) if main else text)
    return hashlib.sha256(text.encode()).hexdigest()


def _client() -> Client:
    hosts = [h for h in settings.ALLOWED_HOSTS if h not in ("*",) and not h.startswith(".")]
    return Client(HTTP_HOST=hosts[0] if hosts else "localhost", secure=not settings.DEBUG)


def _page(client: Client, url: str) -> tuple[int, str]:
    response = client.get(url)
    return response.status_code, _digest(response.content)


def snapshot(continue_play: bool = False) -> dict[str, Any]:
    """What the drill compares, read from the default database: per match its
    status, its deals' move counts and its pages' digests; per player their
    rating changes and page. ``continue_play``: then make one move at each
    running table (only ever on the restored copy)."""
    client = _client()
    matches: dict[str, Any] = {}
    for match in Match.objects.order_by("pk"):
        pages = {f"/matches/{match.pk}/": _page(client, f"/matches/{match.pk}/")}
        deals = {}
        for deal in match.deals.order_by("number"):
            deals[str(deal.number)] = deal.actions
            if deal.status != Deal.Status.PLAYING:
                base = f"/matches/{match.pk}/deals/{deal.number}"
                for url in (f"{base}/replay/", f"{base}/record.json"):
                    pages[url] = _page(client, url)
        matches[str(match.pk)] = {"status": match.status, "deals": deals, "pages": pages}
    ratings: dict[str, Any] = {}
    changes = RatingChange.objects.select_related("user").order_by("user_id", "pk")
    for change in changes:
        entry = ratings.setdefault(change.user.username, {"changes": []})
        entry["changes"].append(
            [change.match_id, change.variant, change.shown_before, change.shown_after]
        )
    for username, entry in ratings.items():
        entry["page"] = _page(client, f"/players/{quote(username)}/")
    moved: dict[str, Any] = {}
    if continue_play:
        moved = _continue_running_tables()
    return {"matches": matches, "ratings": ratings, "moved": moved}


def _continue_running_tables() -> dict[str, Any]:
    """One move at each running table, through the move path every move takes."""
    from games.live.submit.play import current, submit

    out: dict[str, Any] = {}
    for table in Table.objects.filter(status=Table.Status.PLAYING).order_by("pk"):
        live = current(table)
        if live is None or live.engine.to_act is None:
            continue
        action = live.engine.legal_actions()[0]
        try:
            version = submit(table.pk, action, table.version, by_server=True)
        except Exception as exc:
            out[str(table.pk)] = {"error": f"{type(exc).__name__}: {exc}"}
        else:
            out[str(table.pk)] = {"from": table.version, "to": version}
    return out


@dataclass
class Report:
    """What the drill found: counts, and every difference (empty: it passed)."""

    finished: int = 0
    running: int = 0
    pages: int = 0
    players: int = 0
    continued: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


def _running_problems(pk: str, source: dict[str, Any], restored: dict[str, Any]) -> list[str]:
    """A running match may have moved on since the dump: each deal of the copy
    is the source's, the copy's last one may be a beginning of the source's."""
    problems = []
    numbers = sorted(restored["deals"], key=int)
    for number in numbers:
        kept, actions = restored["deals"][number], source["deals"].get(number)
        if actions is None:
            problems.append(f"match {pk}: deal {number} is not the source's")
        else:
            last = number == numbers[-1]
            if (actions[: len(kept)] if last else actions) != kept:
                problems.append(f"match {pk}: deal {number}'s moves differ")
    return problems


def compare(source: dict[str, Any], copy: dict[str, Any]) -> Report:
    """``copy`` (read from the restored database, before its moves) against
    ``source`` (read from the live one just after the dump)."""
    report = Report()
    newest_copied = max((int(pk) for pk in copy["matches"]), default=0)
    for pk, match in source["matches"].items():
        running = match["status"] == Match.Status.PLAYING
        restored = copy["matches"].get(pk)
        if restored is None:
            if not (running and int(pk) > newest_copied):  # else: begun after the dump
                report.problems.append(f"match {pk} is missing from the restored copy")
            continue
        report.running += running
        report.finished += not running
        if running:
            report.problems += _running_problems(pk, match, restored)
        elif restored["deals"] != match["deals"]:
            report.problems.append(f"match {pk}: its deals' moves differ")
        for url, page in match["pages"].items():
            got = restored["pages"].get(url)
            report.pages += got is not None
            if got is None:
                if not running:
                    report.problems.append(f"{url} is missing from the restored copy")
            elif got[0] != 200:
                report.problems.append(f"{url} does not load from the restored copy")
            elif not running and got != page:
                report.problems.append(f"{url} differs in the restored copy")
    # A rating history is whole when it has every change of the matches the copy
    # holds finished (a match finished after the dump adds one only to the source).
    finished_in_copy = {
        int(pk) for pk, m in copy["matches"].items() if m["status"] != Match.Status.PLAYING
    }
    for username, entry in source["ratings"].items():
        report.players += 1
        kept = copy["ratings"].get(username, {"changes": [], "page": [200, ""]})
        expected = [c for c in entry["changes"] if c[0] in finished_in_copy]
        if kept["changes"] != expected:
            report.problems.append(f"{username}'s rating history differs")
        elif kept["page"][0] != 200:
            report.problems.append(f"/players/{username}/ does not load from the restored copy")
    for pk, moved in copy["moved"].items():
        if "error" in moved:
            report.problems.append(f"table {pk} cannot play on: {moved['error']}")
        else:
            report.continued += 1
    return report


# --- Dump and restore ---------------------------------------------------------


def _is_postgres(db: dict[str, Any]) -> bool:
    return str(db["ENGINE"]).endswith("postgresql")


def _pg_url(db: dict[str, Any], name: str, password: bool = False) -> str:
    """A URL for ``name`` on ``db``'s server; its password only when asked
    (command lines get it through PGPASSWORD, out of the process list)."""
    user = quote(str(db.get("USER") or ""))
    secret = quote(str(db.get("PASSWORD") or "")) if password else ""
    auth = f"{user}:{secret}@" if secret else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{quote(name)}"


def _pg_env(db: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return env


def _run(argv: list[str], env: dict[str, str] | None = None) -> None:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")


@dataclass
class Copy:
    """A restored copy of the database: how to reach it and how to drop it."""

    url: str
    name: str
    dump_bytes: int
    postgres: bool

    def drop(self) -> None:
        if self.postgres:
            db = connections["default"].settings_dict
            import psycopg

            with psycopg.connect(_pg_url(db, "postgres", password=True), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        else:
            Path(self.name).unlink(missing_ok=True)


def dump_and_restore(workdir: Path) -> Copy:
    """Dump the default database and restore it into a new one."""
    db = connections["default"].settings_dict
    stamp = time.strftime("%Y%m%d%H%M%S")
    if _is_postgres(db):
        dump = workdir / "blot.dump"
        env = _pg_env(db)
        _run(
            ["pg_dump", "--format=custom", "--no-owner", "--no-privileges",
             f"--file={dump}", _pg_url(db, str(db["NAME"]))],
            env,
        )
        name = f"{db['NAME']}_drill_{stamp}"[:63]
        import psycopg

        with psycopg.connect(_pg_url(db, "postgres", password=True), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error",
              f"--dbname={_pg_url(db, name)}", str(dump)], env)
        return Copy(_pg_url(db, name, password=True), name, dump.stat().st_size, postgres=True)
    source = str(db["NAME"])
    dump = workdir / "blot.sql"
    with sqlite3.connect(source) as conn, open(dump, "w") as out:
        for line in conn.iterdump():  # one read transaction: a consistent snapshot
            out.write(f"{line}\n")
    name = str(workdir / f"drill-{stamp}.sqlite3")
    restored = sqlite3.connect(name)
    try:
        restored.executescript(dump.read_text())
    finally:
        restored.close()
    return Copy(f"sqlite:///{name}", name, dump.stat().st_size, postgres=False)


def inspect(copy: Copy, out: Path) -> dict[str, Any]:
    """Read the copy in a process of its own (the site's settings, pointed at
    the copy, without Redis), playing one move at each running table."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=copy.url,
        BLOT_DB_POOL="0",
        BLOT_CONDUCTOR="inprocess",
        BLOT_ANALYST="off",
        BLOT_LOG_REQUESTS="0",
        DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "blotsite.settings"),
    )
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    argv = [sys.executable, "-m", "django", "restore_drill", "--inspect", str(out)]
    done = subprocess.run(
        argv, env=env, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=3600
    )
    if done.returncode != 0:
        raise RuntimeError(f"reading the restored copy failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def drill(keep: bool = False) -> tuple[Report, Copy]:
    """Dump, restore, read back and compare; drop the copy unless ``keep``."""
    with tempfile.TemporaryDirectory(prefix="blot-drill-") as tmp:
        workdir = Path(tmp)
        copy = dump_and_restore(workdir)
        try:
            # Read after the dump: finished matches cannot have changed since,
            # running ones may only have moved on (compare() allows for that).
            source = json.loads(json.dumps(snapshot()))
            restored = inspect(copy, workdir / "copy.json")
        except BaseException:
            copy.drop()
            raise
        if not keep:
            copy.drop()
        elif not copy.postgres:  # keep the file outside the temporary directory
            kept = Path(settings.BASE_DIR) / Path(copy.name).name
            os.replace(copy.name, kept)
            copy.name, copy.url = str(kept), f"sqlite:///{kept}"
        return compare(source, restored), copy


def redacted(url: str) -> str:
    """``url`` without its password, for the report."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))
