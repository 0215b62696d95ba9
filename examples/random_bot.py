#!/usr/bin/env python3
"""A Blot bot written with Python's standard library alone: it plays random legal
actions through the Bot API (docs/bot-api.md).

    export BLOT_TOKEN=blot_...        # from your bot account's page
    python3 examples/random_bot.py --url https://blot.example       # answer challenges
    python3 examples/random_bot.py --table open_blot --levels easy  # one test match

Without ``--table`` it follows its event stream: it accepts every challenge and
plays every match that starts, each in a thread reading that match's stream.
With ``--table`` it asks for a match against built-in bots, plays it, prints its
last state as JSON and exits. ``examples/normal_bot.py`` reuses this client.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

State = dict[str, Any]
Chooser = Callable[[State], dict[str, Any]]


class Api:
    """The few calls a bot makes, over urllib."""

    def __init__(self, url: str, token: str, timeout: float = 60) -> None:
        self.url, self.token, self.timeout = url.rstrip("/"), token, timeout

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        request = urllib.request.Request(self.url + path, data, headers, method=method)
        return urllib.request.urlopen(request, timeout=self.timeout)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON answer; an HTTP error comes back as ``{"error": ..., "status": n}``."""
        try:
            with self._request(method, path, body) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            return {**json.load(exc), "status": exc.code}

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """One dict per line of an NDJSON stream (keep-alive empty lines skipped)."""
        with self._request("GET", path) as response:
            for raw in response:
                if raw.strip():
                    yield json.loads(raw)


def random_choice(state: State) -> dict[str, Any]:
    return random.choice(state["legal"])


def play(api: Api, match: int, choose: Chooser) -> State:
    """Play one match to its end; its last state."""
    last: State = {}
    for state in api.stream(f"/api/bot/match/{match}/stream"):
        if state.get("type") == "error":
            raise SystemExit(f"match {match}: {state['error']['message']}")
        last = state
        if state["over"]:
            break
        if not state["legal"]:
            continue  # someone else's turn, or between deals
        answer = api.call(
            "POST",
            f"/api/bot/match/{match}/action",
            {"version": state["version"], "action": choose(state)},
        )
        # 409: the table moved on meanwhile; the stream brings the new state.
        if "error" in answer and answer["status"] != 409:
            print(f"match {match}: refused: {answer['error']['message']}", file=sys.stderr)
    return last


def follow_events(api: Api, choose: Chooser) -> None:
    """Accept every challenge; play every match that starts, each in a thread."""
    for event in api.stream("/api/bot/stream/event"):
        if event["type"] == "challenge":
            api.call("POST", f"/api/bot/challenge/{event['challenge']['id']}/accept")
        elif event["type"] == "matchStart":
            threading.Thread(target=play, args=(api, event["match"], choose), daemon=True).start()
        elif event["type"] == "error":
            raise SystemExit(event["error"]["message"])


def main(choose: Chooser = random_choice, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("BLOT_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("BLOT_TOKEN", ""))
    parser.add_argument("--table", choices=["belote", "open_blot"], help="play one test match")
    parser.add_argument("--levels", nargs="*", help="the built-in bots' levels")
    parser.add_argument("--format", help="e.g. first_to:501 or best_of:1")
    parser.add_argument("--bot-delay-ms", type=int, help="the built-in bots' pause")
    parser.add_argument("--trick-pause-ms", type=int, help="how long a won trick stays")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give the bot's token with --token or BLOT_TOKEN")
    api = Api(args.url, args.token)
    print("playing as", api.call("GET", "/api/bot/account").get("username"), file=sys.stderr)
    if args.table is None:
        follow_events(api, choose)
        return 0
    wanted = {"variant": args.table, "levels": args.levels, "format": args.format,
              "bot_delay_ms": args.bot_delay_ms, "trick_pause_ms": args.trick_pause_ms}
    table = api.call("POST", "/api/bot/table", {k: v for k, v in wanted.items() if v is not None})
    if "error" in table:
        raise SystemExit(table["error"]["message"])
    last = play(api, table["match"], choose)
    print(json.dumps(last))
    return 0 if last.get("over") else 1


if __name__ == "__main__":
    sys.exit(main())
