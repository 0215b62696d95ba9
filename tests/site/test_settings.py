"""Settings switch between the embedded defaults and the real services by
environment; production variables make `check --deploy` clean."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PRINT = (
    "import json, django; from django.conf import settings; django.setup();"
    "db = settings.DATABASES['default']; layer = settings.CHANNEL_LAYERS['default'];"
    "print(json.dumps({'engine': db['ENGINE'], 'name': str(db['NAME']),"
    " 'host': db.get('HOST', ''), 'layer': layer['BACKEND'],"
    " 'hosts': layer.get('CONFIG', {}).get('hosts'), 'debug': settings.DEBUG,"
    " 'allowed': settings.ALLOWED_HOSTS, 'csrf': settings.CSRF_TRUSTED_ORIGINS,"
    " 'conductor': settings.BLOT_CONDUCTOR}))"
)

_SETTINGS_VARS = (
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "CHANNEL_LAYER_BACKEND", "BLOT_CONDUCTOR", "BLOT_ANALYST",
    "BLOT_CHAT_BURST", "BLOT_CHAT_SUSTAINED", "BLOT_BOT_BUDGET_MS",
)


def _env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SETTINGS_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "blotsite.settings"
    env.update(overrides)
    return env


def _settings(**overrides: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _PRINT],
        cwd=ROOT, env=_env(**overrides), capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


def test_it_runs_embedded_without_environment():
    s = _settings()
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(ROOT / "db.sqlite3")
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert s["debug"] is True
    assert s["conductor"] == "inprocess"  # bots run inside the Daphne process


def test_it_switches_to_postgresql_and_redis():
    s = _settings(
        DATABASE_URL="postgres://blot:pw@db.example:5432/blot",
        REDIS_URL="redis://cache.example:6379/2",
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert (s["host"], s["name"]) == ("db.example", "blot")
    assert s["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert s["hosts"] == ["redis://cache.example:6379/2"]
    assert s["conductor"] == "external"  # bots run in `manage.py blotworker` processes


def test_it_can_pick_the_core_redis_channel_layer():
    s = _settings(REDIS_URL="redis://127.0.0.1:6379/0", CHANNEL_LAYER_BACKEND="core")
    assert s["layer"] == "channels_redis.core.RedisChannelLayer"


def test_it_reads_hosts_and_origins():
    s = _settings(
        ALLOWED_HOSTS="blot.example, www.blot.example",
        CSRF_TRUSTED_ORIGINS="https://blot.example",
    )
    assert s["allowed"] == ["blot.example", "www.blot.example"]
    assert s["csrf"] == ["https://blot.example"]


def test_it_refuses_production_without_a_secret_key():
    out = subprocess.run(
        [sys.executable, "-c", _PRINT],
        cwd=ROOT, env=_env(DEBUG="0"), capture_output=True, text=True,
    )
    assert out.returncode != 0
    assert "SECRET_KEY must be set" in out.stderr


def test_it_passes_the_deployment_checks_with_production_variables():
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(
            DEBUG="0",
            SECRET_KEY="x" * 20 + "a-very-long-random-production-secret-key-0123456789",
            ALLOWED_HOSTS="blot.example",
            CSRF_TRUSTED_ORIGINS="https://blot.example",
        ),
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


_POOL = (
    "import json, django; from django.conf import settings; django.setup();"
    "db = settings.DATABASES['default'];"
    "print(json.dumps({'pool': db.get('OPTIONS', {}).get('pool'),"
    " 'age': db['CONN_MAX_AGE']}))"
)


def _run(code: str, **overrides: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_env(**overrides), capture_output=True,
        text=True,
    )


def test_postgresql_goes_through_a_bounded_pool_sized_by_settings():
    done = _run(
        _POOL, DATABASE_URL="postgres://u:p@db.example:5432/blot", CONN_MAX_AGE="60",
        BLOT_DB_POOL_MIN="3", BLOT_DB_POOL_MAX="7", BLOT_DB_POOL_TIMEOUT_S="12",
        BLOT_DB_POOL_RECONNECT_S="6",
    )
    s = json.loads(done.stdout)
    assert s["pool"] == {"min_size": 3, "max_size": 7, "timeout": 12, "reconnect_timeout": 6}
    assert s["age"] == 0  # the pool keeps the connections, never a thread


def test_the_pool_gives_up_a_reconnection_attempt_after_seconds_not_minutes():
    """psycopg_pool's own default (300 s) backs its tries off to a minute apart
    during a long outage; ours starts afresh on demand after a few seconds."""
    done = _run(_POOL, DATABASE_URL="postgres://u:p@db.example:5432/blot")
    assert json.loads(done.stdout)["pool"]["reconnect_timeout"] == 4
    refused = _run(
        _POOL, DATABASE_URL="postgres://u:p@db.example:5432/blot", BLOT_DB_POOL_RECONNECT_S="0"
    )
    assert refused.returncode != 0
    assert "BLOT_DB_POOL_RECONNECT_S must be at least 1" in refused.stderr


def test_it_refuses_kept_connections_without_the_pool():
    done = _run(
        _POOL, DATABASE_URL="postgres://u:p@db.example:5432/blot", CONN_MAX_AGE="60",
        BLOT_DB_POOL="0",
    )
    assert done.returncode != 0
    assert "CONN_MAX_AGE leaks database connections" in done.stderr


_LIVE = (
    "import json, django; from django.conf import settings; django.setup();"
    "print(json.dumps({'conductor': settings.BLOT_CONDUCTOR, 'budget': settings.BLOT_BOT_BUDGET_S,"
    " 'burst': settings.BLOT_CHAT_BURST, 'sustained': settings.BLOT_CHAT_SUSTAINED}))"
)


def test_the_conductor_can_be_turned_off_but_not_misspelt():
    done = _run(_LIVE, BLOT_CONDUCTOR="off")
    assert json.loads(done.stdout)["conductor"] == "off"
    refused = _run(_LIVE, BLOT_CONDUCTOR="of")
    assert refused.returncode != 0
    assert "BLOT_CONDUCTOR must be one of inprocess, external, off" in refused.stderr


def test_the_analyst_setting_is_on_or_off():
    refused = _run(_LIVE, BLOT_ANALYST="maybe")
    assert refused.returncode != 0
    assert "BLOT_ANALYST must be one of on, off" in refused.stderr


def test_a_bot_thinks_a_fifth_of_a_second_unless_told_otherwise():
    assert json.loads(_run(_LIVE).stdout)["budget"] == 0.2
    assert json.loads(_run(_LIVE, BLOT_BOT_BUDGET_MS="50").stdout)["budget"] == 0.05


def test_chat_rates_are_read_as_count_per_seconds():
    s = json.loads(_run(_LIVE).stdout)
    assert (s["burst"], s["sustained"]) == ([5, 10], [30, 600])
    s = json.loads(_run(_LIVE, BLOT_CHAT_BURST="8/20", BLOT_CHAT_SUSTAINED="50/900").stdout)
    assert (s["burst"], s["sustained"]) == ([8, 20], [50, 900])
    for bad in ("8", "8/x", "0/10"):
        refused = _run(_LIVE, BLOT_CHAT_BURST=bad)
        assert refused.returncode != 0
        assert "BLOT_CHAT_BURST must be" in refused.stderr
