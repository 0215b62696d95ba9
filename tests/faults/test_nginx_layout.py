"""The production layout, run: Debian's nginx with deploy/nginx/blot.conf in
front of two Daphnes sharing the database and a private Redis.

Through the proxy, players move and a spectator watches; the site counts a
client by the address nginx forwarded (never one the client wrote); static
files come from nginx; bodies over the limit stop at nginx; /metrics is not
served to the world. Then one Daphne is killed outright: the players it held
lose their socket, reconnect through nginx (which sends them to the live one)
and play on, and the rest never notice.

The configuration is the shipped file with only its ports, paths and TLS lines
rewritten (the test has no certificate). nginx is installed by
scripts/ci-nginx-deps (.ci/run calls it); without it the test skips, saying so.
"""

from __future__ import annotations

import html
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from axes.models import AccessAttempt
from django.db import connection
from websockets.exceptions import ConnectionClosed

from games.models import Table
from tests.browser.servers import (
    ROOT,
    Server,
    free_port,
    launch_daphne,
    manage,
    server_env,
    wait_until_serving,
)
from tests.faults.conftest import PrivateRedis, real_services, servers_database_url
from tests.live.conftest import duel, live_of  # noqa: F401 - a fixture, and a helper
from tests.live.wsclient import session_cookie, version_of

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.django_db(transaction=True)]

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
CONF = ROOT / "deploy" / "nginx" / "blot.conf"
#: The address the test's client connects to nginx from (nginx itself reaches
#: the Daphnes from 127.0.0.1, so the two can be told apart).
CLIENT_ADDRESS = "127.0.0.2"


def _rewrite(conf: str, port: int, daphnes: list[int], tmp: Path) -> str:
    """The shipped configuration with this test's ports and paths, without TLS."""

    def sub(pattern: str, replacement: str, text: str, count: int = 0) -> str:
        new, n = re.subn(pattern, replacement, text, count=count, flags=re.M)
        assert n, f"deploy/nginx/blot.conf no longer has {pattern!r}"
        return new

    # The plain-HTTP server only redirects to HTTPS, which the test does not have.
    conf = re.sub(
        r"^server \{  # blot-http-redirect\n.*?^\}  # blot-http-redirect-end\n",
        "",
        conf,
        flags=re.M | re.S,
    )
    assert "blot-http-redirect" not in conf
    conf = sub(r"^    server 127\.0\.0\.1:8001 ", f"    server 127.0.0.1:{daphnes[0]} ", conf)
    conf = sub(r"^    server 127\.0\.0\.1:8002 ", f"    server 127.0.0.1:{daphnes[1]} ", conf)
    conf = sub(r"^    listen 443 ssl http2;$", f"    listen 127.0.0.1:{port};", conf)
    conf = sub(r"^    listen \[::\]:443 ssl http2;\n", "", conf)
    conf = sub(r"^    ssl_\w+ .*\n", "", conf)
    conf = sub(r"alias /srv/blot/staticfiles/;", f"alias {tmp / 'static'}/;", conf)
    conf = sub(r"access_log /var/log/nginx/blot\.access\.log;", f"access_log {tmp}/a.log;", conf)
    conf = sub(r"error_log  /var/log/nginx/blot\.error\.log warn;", f"error_log {tmp}/e.log;", conf)
    return conf


def _main_conf(tmp: Path) -> str:
    user = "user root;\n" if os.geteuid() == 0 else ""  # the worker reads the test's files
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temps = "\n".join(f"    {kind}_temp_path {tmp / kind};" for kind in kinds)
    return (
        f"{user}worker_processes 1;\ndaemon off;\npid {tmp}/nginx.pid;\n"
        f"error_log {tmp}/error.log;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n    include /etc/nginx/mime.types;\n{temps}\n"
        f"    access_log {tmp}/access.log;\n    include {tmp}/blot.conf;\n}}\n"
    )


@dataclass
class Layout:
    nginx: subprocess.Popen
    port: int
    daphnes: list[Server]
    tmp: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        """A request to nginx from :data:`CLIENT_ADDRESS`: (status, headers, body)."""
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=20, source_address=(CLIENT_ADDRESS, 0)
        )
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def socket(self, table_id: int, user=None):
        cookie = {"Cookie": session_cookie(user)} if user is not None else {}
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10,
                                        source_address=(CLIENT_ADDRESS, 0))
        return websockets_sync.connect(
            f"ws://127.0.0.1:{self.port}/ws/table/{table_id}/",
            sock=sock,
            origin=self.url,
            additional_headers=cookie,
            open_timeout=20,
        )

    def log(self) -> str:
        parts = [f"--- nginx\n{_tail(self.tmp / 'e.log')}{_tail(self.tmp / 'error.log')}"]
        parts += [f"--- daphne {d.port}\n{d.log()}" for d in self.daphnes]
        return "\n".join(parts)


def _tail(path: Path, last: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-last:]
    except OSError:
        return ""


def _database_url() -> str:
    if real_services():
        return servers_database_url()
    # The embedded pass: the test's own SQLite file, shared by both Daphnes.
    return "sqlite:///" + str(connection.settings_dict["NAME"])


@pytest.fixture
def layout(transactional_db, tmp_path) -> Iterator[Layout]:
    if NGINX is None:
        pytest.skip("nginx is not installed and scripts/ci-nginx-deps could not install it")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server for the two Daphnes' private Redis")
    redis = PrivateRedis(tmp_path / "redis.log")
    redis.start()
    (tmp_path / "metrics").mkdir()
    env = server_env(
        DATABASE_URL=_database_url(),
        REDIS_URL=redis.url,
        BLOT_CONDUCTOR="inprocess",
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_TRUSTED_PROXY_HOPS="1",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        BLOT_LOG_FORMAT="json",
        STATIC_ROOT=str(tmp_path / "static"),
    )
    manage(env, "collectstatic", "--noinput")
    daphnes = [launch_daphne(env, tmp_path / f"daphne-{n}.log") for n in (1, 2)]
    nginx = None
    try:
        for daphne in daphnes:
            wait_until_serving(daphne)
        port = free_port()
        conf = _rewrite(CONF.read_text(), port, [d.port for d in daphnes], tmp_path)
        (tmp_path / "blot.conf").write_text(conf)
        (tmp_path / "nginx.conf").write_text(_main_conf(tmp_path))
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp_path / "nginx.out", "wb"),  # noqa: SIM115 - the child keeps it
            start_new_session=True,
        )
        deadline = time.monotonic() + 20
        while True:
            assert nginx.poll() is None, _tail(tmp_path / "nginx.out") + _tail(tmp_path / "e.log")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        yield Layout(nginx, port, daphnes, tmp_path)
    finally:
        if nginx is not None and nginx.poll() is None:
            os.killpg(nginx.pid, signal.SIGTERM)
            nginx.wait(10)
        for daphne in daphnes:
            daphne.stop()
        redis.kill()


def _frame_at(ws, version: int, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.05, deadline - time.monotonic()))
        if 'id="table-root"' in frame and (version_of(frame) or -1) >= version:
            return frame


def _move(ws, frame: str) -> None:
    """Send the first move the frame offers its player."""
    found = re.search(r'hx-vals="([^"]+)"', frame)
    assert found, "the player to act is offered no move"
    ws.send(html.unescape(found.group(1)))


def test_players_and_a_spectator_play_through_nginx_and_a_killed_daphne_costs_a_reconnect(
    layout: Layout, duel: Table, alice, bob  # noqa: F811 - the fixture
) -> None:
    people = {0: alice, 1: bob}
    sockets = {0: layout.socket(duel.pk, alice), 1: layout.socket(duel.pk, bob),
               "spectator": layout.socket(duel.pk)}
    frames = {who: _frame_at(ws, duel.version) for who, ws in sockets.items()}
    to_act = live_of(duel).engine.to_act
    _move(sockets[to_act], frames[to_act])
    for who, ws in sockets.items():
        frames[who] = _frame_at(ws, duel.version + 1)

    # One Daphne dies outright: nginx closes the sockets it held.
    os.killpg(layout.daphnes[0].proc.pid, signal.SIGKILL)
    layout.daphnes[0].proc.wait(10)
    lost = []
    for who, ws in sockets.items():
        try:
            while True:  # whatever it was still sent, until it goes quiet or closes
                ws.recv(timeout=3)
        except TimeoutError:
            continue  # on the live Daphne: nothing happened to it
        except ConnectionClosed:
            lost.append(who)
    assert lost, "three sockets in turn went to both Daphnes; one of them should have died"
    for who in lost:  # a reconnect, through nginx, to the Daphne still alive
        sockets[who] = layout.socket(duel.pk, people.get(who))
        frames[who] = _frame_at(sockets[who], duel.version + 1)

    to_act = live_of(Table.objects.get(pk=duel.pk)).engine.to_act
    _move(sockets[to_act], frames[to_act])
    for ws in sockets.values():
        assert version_of(_frame_at(ws, duel.version + 2)) == duel.version + 2, layout.log()
        ws.close()
    status, _, body = layout.request("GET", "/health/ready/")
    assert status == 200, body


def test_the_site_counts_the_address_nginx_forwarded_not_one_the_client_wrote(
    layout: Layout, alice
) -> None:
    status, headers, page = layout.request("GET", "/accounts/login/")
    assert status == 200, layout.log()
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    cookie = re.search(r"csrftoken=([^;]+)", headers.get("Set-Cookie", ""))
    assert token and cookie
    form = urlencode({"csrfmiddlewaretoken": token.group(1).decode(), "username": "alice",
                      "password": "not her password"}).encode()
    status, _, _ = layout.request(
        "POST",
        "/accounts/login/",
        body=form,
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie.group(1)}",
            "X-Forwarded-For": "198.51.100.7",  # the client's own claim: ignored
        },
    )
    assert status == 200  # the form again, with its error
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [CLIENT_ADDRESS]


def test_nginx_serves_static_files_refuses_big_bodies_and_keeps_metrics_to_the_machine(
    layout: Layout,
) -> None:
    status, headers, _ = layout.request("GET", "/static/favicon.svg")
    assert status == 200
    assert headers.get("Expires") and headers.get("X-Request-ID") is None  # nginx's, not Daphne's
    status, _, _ = layout.request(
        "POST", "/accounts/login/", body=b"x" * (2 * 1024 * 1024),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 413
    for _ in range(4):  # nginx shares them out between the two Daphnes
        status, headers, body = layout.request("GET", "/health/ready/")
        assert status == 200 and headers["Content-Type"] == "application/json"
        assert json.loads(body)["status"] == "ok"
    assert layout.request("GET", "/metrics")[0] == 404
    # Asked directly, either Daphne answers for both (the multiprocess directory).
    for daphne in layout.daphnes:
        conn = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=10)
        conn.request("GET", "/metrics")
        response = conn.getresponse()
        text = response.read().decode()
        assert response.status == 200
        counted = sum(
            float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.startswith("blot_http_requests_total{") and 'view="health_ready"' in line
        )
        assert counted >= 4, text[:2000]
