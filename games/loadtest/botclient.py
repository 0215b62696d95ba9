"""The Bot API benchmark's bots (``manage.py bench_bot_api``): each in a thread,
with the standard library's HTTP client, as an outside bot would be written.

A bot reads its match stream on one connection and sends its moves on another
(kept alive between moves). For each move it notes two round trips: the POST
answered (the move stored), and the move seen back on its own stream (the first
state line at the new version). It plays a random legal action as soon as a
state offers one; when its match ends, it is given a new one (``next_match``).
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class BotRecord:
    """What one bot measured."""

    post_ms: list[float] = field(default_factory=list)
    seen_ms: list[float] = field(default_factory=list)
    stale: int = 0  # 409: the table moved between the state and the move
    errors: list[str] = field(default_factory=list)
    matches: int = 0


class ApiBot(threading.Thread):
    def __init__(
        self,
        url: str,
        token: str,
        next_match: Callable[[], int | None],
        until: float,
        seed: int,
    ) -> None:
        super().__init__(daemon=True, name=f"api-bot-{seed}")
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.next_match = next_match
        self.until = until
        self.rng = random.Random(seed)
        self.record = BotRecord()
        self._moves: http.client.HTTPConnection | None = None

    def run(self) -> None:
        match = self.next_match()
        while match is not None and time.monotonic() < self.until:
            try:
                over = self._play(match)
            except Exception as exc:  # report it; the run goes on with the others
                self.record.errors.append(f"{type(exc).__name__}: {exc}")
                return
            self.record.matches += over
            match = self.next_match() if time.monotonic() < self.until else None

    def _post(self, path: str, body: dict) -> tuple[int, dict]:
        for attempt in range(2):
            if self._moves is None:
                self._moves = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self._moves.request("POST", path, json.dumps(body), self.headers)
                answer = self._moves.getresponse()
                return answer.status, json.loads(answer.read())
            except (http.client.HTTPException, ConnectionError):
                self._moves.close()
                self._moves = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _play(self, match: int) -> bool:
        """Play ``match`` until it is over (True) or the run ends."""
        stream = http.client.HTTPConnection(self.host, self.port, timeout=60)
        stream.request("GET", f"/api/bot/match/{match}/stream", headers=self.headers)
        answer = stream.getresponse()
        if answer.status != 200:
            raise RuntimeError(f"stream {match}: {answer.status} {answer.read()[:200]!r}")
        waiting: tuple[int, float] | None = None  # (version posted on, when)
        try:
            while time.monotonic() < self.until:
                raw = answer.readline()
                if not raw:
                    return False
                if not raw.strip():
                    continue
                state = json.loads(raw)
                if state.get("type") == "error":
                    raise RuntimeError(state["error"]["message"])
                if waiting is not None and state["version"] > waiting[0]:
                    self.record.seen_ms.append((time.perf_counter() - waiting[1]) * 1000)
                    waiting = None
                if state["over"]:
                    return True
                if not state["legal"]:
                    continue
                move = {"version": state["version"], "action": self.rng.choice(state["legal"])}
                started = time.perf_counter()
                status, body = self._post(f"/api/bot/match/{match}/action", move)
                if status == 200:
                    self.record.post_ms.append((time.perf_counter() - started) * 1000)
                    waiting = (state["version"], started)
                elif status == 409:
                    self.record.stale += 1
                else:
                    self.record.errors.append(f"{status}: {body.get('error')}")
        finally:
            stream.close()
        return False
