"""Settings for the Blot site, read from the environment.

With no environment variables the site runs embedded: a SQLite file next to
``manage.py`` and the in-memory channel layer, DEBUG on. Production sets at least
``SECRET_KEY``, ``DEBUG=0`` and ``ALLOWED_HOSTS``; ``DATABASE_URL`` (PostgreSQL)
and ``REDIS_URL`` (channels-redis) switch to the real services.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from blotsite.env import env_bool, env_choice, env_int, env_list, env_rate, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-blot-development-key-do-not-use-in-production"
SECRET_KEY = env_str("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "games",
]

MIDDLEWARE = [
    # First: counts and logs every answer, the others' included (games/ops).
    "games.ops.middleware.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout page.
    "axes.middleware.AxesMiddleware",
]

# django-axes' backend first: it refuses a locked-out username or address before
# any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "blotsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "blotsite.asgi.application"

# --- Database: SQLite file by default, DATABASE_URL (PostgreSQL via psycopg 3) otherwise.
# PostgreSQL is reached through Django's own psycopg connection pool:
# under ASGI every request may run in a thread of its own, and a connection kept
# per thread (CONN_MAX_AGE > 0) stayed open until the garbage collector found the
# thread gone: a burst of requests filled PostgreSQL's connection slots. A pool
# holds at most BLOT_DB_POOL_MAX connections per process whatever the burst; a
# request that finds them all in use waits up to BLOT_DB_POOL_TIMEOUT_S for one
# (slower, not an error). Every process (each Daphne, each worker) has its own
# pool, so PostgreSQL needs max_connections above the sum of their maximums.
_DATABASE_URL = env_str("DATABASE_URL")
BLOT_DB_POOL = env_bool("BLOT_DB_POOL", True)
BLOT_DB_POOL_MIN = env_int("BLOT_DB_POOL_MIN", 2)
BLOT_DB_POOL_MAX = env_int("BLOT_DB_POOL_MAX", 10)
# Short enough that a database outage shows as an error within seconds (the
# worker then forgives the heartbeats the outage froze; a call that merely waited
# the outage out would judge connected players away), long enough for a burst.
BLOT_DB_POOL_TIMEOUT_S = env_int("BLOT_DB_POOL_TIMEOUT_S", 5)
# How long the pool keeps trying to replace or add one connection before it gives
# that attempt up (psycopg_pool's reconnect_timeout; its default is 300 s). Its
# tries back off 1, 2, 4 ... s, so after a long outage the next try could be a
# minute after PostgreSQL came back, and every request waited for it meanwhile
# (moves refused for 32-42 s after a 75 s outage). Given up after a few seconds,
# each attempt's tries stay at most 2 s apart, and the next request that finds
# no connection starts a fresh attempt at once: connections come back within
# seconds of PostgreSQL, however long it was away.
BLOT_DB_POOL_RECONNECT_S = env_int("BLOT_DB_POOL_RECONNECT_S", 4)
if _DATABASE_URL:
    # Health checks: with the pool, each connection is checked as it is handed
    # out, so after PostgreSQL restarted a dead one is replaced, not used.
    DATABASES = {
        "default": dj_database_url.parse(_DATABASE_URL, conn_max_age=0, conn_health_checks=True)
    }
    _pooled = BLOT_DB_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if _pooled:
        if not 0 <= BLOT_DB_POOL_MIN <= BLOT_DB_POOL_MAX or BLOT_DB_POOL_MAX < 1:
            raise ImproperlyConfigured(
                "BLOT_DB_POOL_MAX must be at least 1 and BLOT_DB_POOL_MIN at most it"
            )
        if BLOT_DB_POOL_RECONNECT_S < 1:
            raise ImproperlyConfigured("BLOT_DB_POOL_RECONNECT_S must be at least 1")
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": BLOT_DB_POOL_MIN,
            "max_size": BLOT_DB_POOL_MAX,
            "timeout": BLOT_DB_POOL_TIMEOUT_S,
            "reconnect_timeout": BLOT_DB_POOL_RECONNECT_S,
        }
    elif env_int("CONN_MAX_AGE", 0):
        # Without the pool a connection is opened and closed per request. Kept
        # connections (CONN_MAX_AGE) leak under ASGI (above): refused by name.
        raise ImproperlyConfigured(
            "CONN_MAX_AGE leaks database connections under ASGI; leave it unset and "
            "size the connection pool with BLOT_DB_POOL_MAX instead"
        )
    # With the pool CONN_MAX_AGE is not used: the pool keeps the connections.
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "db.sqlite3"),
        }
    }

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads write at once (requests, consumers, the conductor's own
    # thread). A transaction that starts as a reader and then writes fails at once
    # with "database is locked" when another connection writes meanwhile; one
    # that takes the write lock first (IMMEDIATE) waits its turn instead.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE", timeout=20
    )
    # Tests on a file too, as the site runs: Django's default in-memory test
    # database shares one cache between connections, where a read that meets
    # another thread's write fails at once ("database table is locked") instead
    # of waiting out the timeout above: a failure the site itself never has.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channel layer: in-memory by default, Redis when REDIS_URL is set.
# The Redis layer is channels-redis' pub/sub layer: measured with
# `manage.py bench_channel_layer` it delivers a table's group message in about a
# seventh of the core layer's time (docs/performance.md, "Channel layer"). It does not queue
# messages for absent listeners, which live tables do not need: every message
# carries the table version and a client that misses one resynchronises.
# CHANNEL_LAYER_BACKEND=core selects the list-based RedisChannelLayer instead.
_REDIS_URL = env_str("REDIS_URL")
CHANNEL_LAYER_BACKENDS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
if _REDIS_URL:
    _layer = env_str("CHANNEL_LAYER_BACKEND", "pubsub")
    if _layer not in CHANNEL_LAYER_BACKENDS:
        raise ImproperlyConfigured(
            f"CHANNEL_LAYER_BACKEND must be one of {', '.join(CHANNEL_LAYER_BACKENDS)}"
        )
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKENDS[_layer],
            # A prefix of its own lets several checkouts share one Redis without
            # hearing each other's table groups (pub/sub ignores database numbers).
            "CONFIG": {"hosts": [_REDIS_URL], "prefix": env_str("CHANNEL_LAYER_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Cache: where the rate limits count (games/ratelimit.py). Local memory on the
# embedded default (one process); Redis when REDIS_URL is set, so a limit holds
# across every Daphne process.
if _REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", env_str("CHANNEL_LAYER_PREFIX", "blot")),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Abuse limits. Logins: django-axes locks a username, and separately
# an address, after BLOT_LOGIN_FAILURE_LIMIT failed attempts, for
# BLOT_LOGIN_COOLOFF_MINUTES (a success resets the count). Counts are kept in the
# database, so they hold across processes and restarts.
AXES_FAILURE_LIMIT = env_int("BLOT_LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("BLOT_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "games.views.accounts.locked_out"
# The client's address (games/ratelimit.py client_address): REMOTE_ADDR, or behind
# BLOT_TRUSTED_PROXY_HOPS proxies the X-Forwarded-For entry the outermost of them
# wrote; never an entry the client wrote itself.
AXES_CLIENT_IP_CALLABLE = "games.ratelimit.client_address"
#: How many reverse proxies in front of Daphne append to X-Forwarded-For.
BLOT_TRUSTED_PROXY_HOPS = env_int("BLOT_TRUSTED_PROXY_HOPS", 0)
#: Accounts created per address per hour.
BLOT_SIGNUPS_PER_ADDRESS_HOURLY = env_int("BLOT_SIGNUPS_PER_ADDRESS_HOURLY", 5)
#: Tables created per user, and per address, per hour.
BLOT_TABLES_PER_USER_HOURLY = env_int("BLOT_TABLES_PER_USER_HOURLY", 20)
BLOT_TABLES_PER_ADDRESS_HOURLY = env_int("BLOT_TABLES_PER_ADDRESS_HOURLY", 60)
#: The largest request body the site reads (blotsite/bodylimit.py answers 413 past
#: it, before reading): the site's forms are a few kilobytes.
BLOT_MAX_REQUEST_BODY_BYTES = env_int("BLOT_MAX_REQUEST_BODY_BYTES", 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = BLOT_MAX_REQUEST_BODY_BYTES

# How long a thread of a Daphne process may hold the GIL while another waits
# (Python's default: 5 ms). A Daphne's event loop forwards frames while its
# database threads take moves and joins; in 5 ms slices a move waits behind
# other threads' slices. At 0.5 ms, 10 tables with 300 spectators joining, move to
# last viewer p95 over the run 44-61 ms (55-80 ms at 5 ms), p99 82-101 (131-176).
BLOT_GIL_SWITCH_US = env_int("BLOT_GIL_SWITCH_US", 500)
# How many new container objects a Daphne lets pile up before the cyclic
# collector walks them (Python's default: 700). A move's drawing makes many
# short-lived ones that reference counting frees anyway; at 700 the collector
# ran about 1,500 times in each 100-table load run across the two Daphnes, 2-3 s
# of their CPU, and each full collection (about 45 ms) paused every table of its
# Daphne. At 50,000: 4 collections, 0.07-0.12 s, 9 MB more per Daphne.
BLOT_GC_YOUNG_THRESHOLD = env_int("BLOT_GC_YOUNG_THRESHOLD", 50_000)
#: Deflate WebSocket frames for clients that offer it (blotsite/compression.py):
#: a viewer's frame is the whole table, mostly what the last one was.
BLOT_WS_COMPRESSION = env_bool("BLOT_WS_COMPRESSION", True)
#: Tables with a bot seat one user may have waiting or playing at once.
BLOT_BOT_TABLES_PER_USER = env_int("BLOT_BOT_TABLES_PER_USER", 3)
#: One bot-work budget per person (games/services/botwork.py): tables with
#: bots playing at once across their tables and the tournaments they organise
#: (a tournament filled with bots counts half its places). Staff are not limited.
BLOT_BOT_WORK_PER_USER = env_int("BLOT_BOT_WORK_PER_USER", 12)
#: Tournaments one person may create per day (staff are not limited).
BLOT_TOURNAMENTS_PER_USER_DAILY = env_int("BLOT_TOURNAMENTS_PER_USER_DAILY", 5)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# --- Internationalisation (docs/languages.md). Each language is named in its own
# language, so a reader finds theirs whatever the page is in. LocaleMiddleware
# picks the visitor's language (the set_language cookie, then Accept-Language);
# games.middleware then serves a signed-in player in their profile's language.
# URLs are the same in every language (no i18n_patterns). The catalogues in
# locale/ are compiled and shipped (`make messages` updates both).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("ru", "Русский"),
    ("hy", "Հայերեն"),
    ("ka", "ქართული"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# Dates and numbers follow the active language (Django's formats; ours for Armenian).
FORMAT_MODULE_PATH = ["blotsite.formats"]
# The language cookie outlives the session: a visitor keeps their choice.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_TZ = True
TIME_ZONE = "UTC"

# --- Static files: served by WhiteNoise from STATIC_ROOT (collectstatic), under
# Daphne as well as in tests; hashed, compressed names when DEBUG is off.
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Security: strict whenever DEBUG is off (`manage.py check --deploy` is clean).
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A supervisor or a scraper asks a Daphne directly, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts, styles and connections from this
# site only, no inline scripts or eval. Every script is a static file loaded with
# <script src defer>; htmx is told (a <meta name="htmx-config"> in base.html) not
# to inject its indicator <style> and never to eval. 'self' covers the site's own
# ws:// and wss:// addresses in current browsers.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Logs (docs/operations.md "Logs"): standard error, one line per record;
# BLOT_LOG_FORMAT=json makes each line a JSON object. BLOT_LOG_REQUESTS writes
# one line per request (blot.requests) and per socket event worth keeping
# (blot.events: sockets opened and closed, moves stored), at INFO.
BLOT_LOG_FORMAT = env_str("BLOT_LOG_FORMAT", "text")
if BLOT_LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured("BLOT_LOG_FORMAT must be 'text' or 'json'")
BLOT_LOG_REQUESTS = env_bool("BLOT_LOG_REQUESTS", True)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "structured": {
            "()": "games.runtime.structlog.StructuredFormatter",
            "json": BLOT_LOG_FORMAT == "json",
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    # While the database is away every request fails: one traceback, then a count
    # (games/runtime/lograte.py), not a traceback per request.
    "filters": {
        "outage": {"()": "games.runtime.lograte.RepeatedOutageFilter"},
        "pool_outage": {"()": "games.runtime.lograte.PoolOutageFilter"},
    },
    "loggers": {
        "django.request": {"filters": ["outage"]},
        "psycopg.pool": {"filters": ["pool_outage"]},
        "blot": {"level": "INFO" if BLOT_LOG_REQUESTS else "WARNING"},
    },
}

# --- Live tables (games/live). Bots and turn clocks are run by the "conductor":
# with the Redis layer, by `manage.py blotworker` processes ("external"), so bots
# think outside the web processes; on the embedded default, inside the Daphne
# process ("inprocess"). Either is safe with several processes: each move is
# version-checked.
# "off" runs no conductor at all and wakes none (the tests drive it themselves).
BLOT_CONDUCTOR = env_choice(
    "BLOT_CONDUCTOR", "external" if _REDIS_URL else "inprocess", ("inprocess", "external", "off")
)
#: Deal analyses run in their own process at nice 19 on one core
#: (games/live/conduct/analyst.py): "on" starts it (the worker's child, or on request
#: in the embedded default); "off" leaves the queue to `manage.py analyse` run apart.
BLOT_ANALYST = env_choice("BLOT_ANALYST", "on", ("on", "off"))
#: How long a finished deal's result stays on screen before the next deal's first move.
BLOT_NEXT_DEAL_PAUSE_MS = env_int("BLOT_NEXT_DEAL_PAUSE_MS", 2500)
#: Thinking time of a Hard bot at a live table (at most 0.5 s, so nobody waits on a bot).
BLOT_BOT_BUDGET_S = env_int("BLOT_BOT_BUDGET_MS", 200) / 1000
#: Presence: how often each process writes its connections' heartbeat, and after
#: how long without one a connection counts as gone (a crashed server's sockets).
BLOT_PRESENCE_HEARTBEAT_S = env_int("BLOT_PRESENCE_HEARTBEAT_S", 10)
BLOT_PRESENCE_STALE_S = env_int("BLOT_PRESENCE_STALE_S", 60)
#: How long a challenge waits for its answers before it expires.
BLOT_CHALLENGE_TTL_S = env_int("BLOT_CHALLENGE_TTL_S", 600)
#: Chat messages one person may send across every room: a burst and a sustained
#: rate, each ``(count, seconds)`` (written ``count/seconds`` in the environment).
BLOT_CHAT_BURST = env_rate("BLOT_CHAT_BURST", (5, 10))
BLOT_CHAT_SUSTAINED = env_rate("BLOT_CHAT_SUSTAINED", (30, 600))

# --- The Bot API (games/api, docs/bot-api.md). Calls per token per minute: past
# BLOT_API_SLOW_AFTER_PER_MINUTE each call waits BLOT_API_SLOWDOWN_MS before it is
# answered; past BLOT_API_CALLS_PER_MINUTE it is refused (429, Retry-After) until
# the minute is over. Counted in the shared cache, so the limit holds across
# every Daphne.
BLOT_API_CALLS_PER_MINUTE = env_int("BLOT_API_CALLS_PER_MINUTE", 600)
BLOT_API_SLOW_AFTER_PER_MINUTE = env_int("BLOT_API_SLOW_AFTER_PER_MINUTE", 300)
BLOT_API_SLOWDOWN_MS = env_int("BLOT_API_SLOWDOWN_MS", 500)
#: Streams one token may hold open at once in one Daphne process.
BLOT_API_STREAMS_PER_TOKEN = env_int("BLOT_API_STREAMS_PER_TOKEN", 32)
#: An idle stream sends a newline this often, so proxies do not cut it.
BLOT_API_KEEPALIVE_S = env_int("BLOT_API_KEEPALIVE_S", 7)
#: A bot's event stream looks at its challenges and matches at least this often
#: (announcements wake it at once; the look catches anything announced while
#: the channel layer was away).
BLOT_API_EVENT_POLL_S = env_int("BLOT_API_EVENT_POLL_S", 5)
#: The worker pairs willing bots for rated ladder matches this often (0: never).
BLOT_BOT_LADDER_EVERY_S = env_int("BLOT_BOT_LADDER_EVERY_S", 0)
#: Whether a rated match between people and bot accounts moves the people's
#: ratings too (the bots' ladder ratings always move).
BLOT_BOT_MATCHES_RATE_PEOPLE = env_bool("BLOT_BOT_MATCHES_RATE_PEOPLE", False)

# --- Health and metrics (games/ops, docs/operations.md "Health, metrics and logs").
REDIS_URL = _REDIS_URL
#: Requests to /health/ and /health/ready/ per address per minute (past it: 429).
BLOT_HEALTH_PER_MINUTE = env_int("BLOT_HEALTH_PER_MINUTE", 120)
#: A worker's or the analyst's heartbeat older than this is stale (/health/ready/).
BLOT_BEAT_STALE_S = env_int("BLOT_BEAT_STALE_S", 30)
#: /metrics answers a bearer token equal to this ...
BLOT_METRICS_TOKEN = env_str("BLOT_METRICS_TOKEN")
#: ... or a client in these addresses or networks (comma-separated); with neither
#: set, only a request from 127.0.0.1 or ::1 that no proxy forwarded.
BLOT_METRICS_ADDRESSES = env_list("BLOT_METRICS_ADDRESSES", [])
#: A worker serves /metrics on this port (0: it does not; its series then show in
#: the web processes' /metrics through PROMETHEUS_MULTIPROC_DIR on its machine).
BLOT_METRICS_PORT = env_int("BLOT_METRICS_PORT", 0)
#: prometheus-client's multiprocess mode: each process of the machine writes its
#: series here and any /metrics answers for all of them (read by prometheus-client
#: itself from the environment; empty it at each start of the machine's services).
PROMETHEUS_MULTIPROC_DIR = env_str("PROMETHEUS_MULTIPROC_DIR")
