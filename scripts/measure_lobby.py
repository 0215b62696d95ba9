"""Bytes and server time of one lobby refresh (the fragment the lobby polls).

Run on a scratch database (it creates 10 users and 20 tables):

    export DATABASE_URL=sqlite:////tmp/lobby.sqlite3
    .venv/bin/python manage.py migrate
    .venv/bin/python manage.py shell < scripts/measure_lobby.py
"""

import gzip
import statistics
import time

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Player, RuleSetConfig
from games.services.tables import create_quick_bot_table, create_table

User = get_user_model()
belote = RuleSetConfig.objects.get(variant="belote", is_default=True)
for i in range(10):
    user = User.objects.create_user(f"lobby-measure-{i}", password="not-used-for-login")
    Player.objects.get_or_create(user=user, defaults={"display_name": f"Player {i}"})
    create_quick_bot_table(user, "belote" if i % 2 else "open_blot")  # playing
    create_table(
        user=user,
        variant="belote",
        fmt="first_to:1001",
        rule_set=belote,
        others=["open", "hard", "open"],
    )  # open
client = Client(HTTP_HOST="127.0.0.1")
times = []
for _ in range(200):
    started = time.perf_counter()
    response = client.get("/lobby/tables/")
    times.append((time.perf_counter() - started) * 1000)
times.sort()
p50, p95 = statistics.median(times), times[int(len(times) * 0.95)]
with CaptureQueriesContext(connection) as queries:
    assert client.get("/lobby/tables/").status_code == 200
body = response.content
print(
    f"20 tables (10 playing, 10 open): {len(body)} bytes, {len(gzip.compress(body))} gzipped; "
    f"server time p50 {p50:.1f} ms p95 {p95:.1f} ms; "
    f"{len(queries.captured_queries)} queries"
)
