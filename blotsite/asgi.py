"""ASGI entry point: HTTP through Django, WebSockets through Channels routing."""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blotsite.settings")

# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from blotsite.bodylimit import BodySizeLimit, install_daphne_guard  # noqa: E402
from blotsite.compression import compress_daphne_sockets  # noqa: E402
from blotsite.handshake import defer_autobahn_config_dump  # noqa: E402
from blotsite.routing import websocket_urlpatterns  # noqa: E402
from games.live.conduct import conductor  # noqa: E402
from games.periodic import runner as periodic  # noqa: E402
from games.runtime import shutdown  # noqa: E402

# Short GIL slices: the event loop's forwarding does not wait 5 ms behind a
# database thread (settings.BLOT_GIL_SWITCH_US).
sys.setswitchinterval(settings.BLOT_GIL_SWITCH_US / 1_000_000)

# Under Daphne (which has imported this module to serve it), refuse oversized
# bodies while they arrive, not after Daphne has queued them in memory.
install_daphne_guard(settings.BLOT_MAX_REQUEST_BODY_BYTES)
# Autobahn's per-connection configuration dump, formatted only if it is logged.
defer_autobahn_config_dump()
# Frames deflated on the wire for clients that offer it (every browser does).
if settings.BLOT_WS_COMPRESSION:
    compress_daphne_sockets()

router = ProtocolTypeRouter(
    {
        "http": BodySizeLimit(django_asgi_app, settings.BLOT_MAX_REQUEST_BODY_BYTES),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope: Any, receive: Any, send: Any) -> None:
    # The first request or connection starts this process's conductor (bots and
    # turn clocks) and periodic jobs (pairing, tournaments), so a restarted
    # server resumes pending turns on its own.
    if scope["type"] in ("http", "websocket"):
        shutdown.install()  # SIGTERM: finish moves in flight, then exit
        conductor.ensure_started()
        periodic.ensure_started()
    return await router(scope, receive, send)

# What starting made (Django, the apps, the URL conf, the consumers' modules)
# lives as long as the process: move it out of the cyclic collector's sight, so
# a full collection walks only what serving made. Measured at 50 busy tables: a
# full collection paused a Daphne for ~60 ms before, 17-36 ms after.
gc.collect()
gc.freeze()
# Collected far less often: serving makes few cycles (settings.BLOT_GC_YOUNG_THRESHOLD).
gc.set_threshold(settings.BLOT_GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
