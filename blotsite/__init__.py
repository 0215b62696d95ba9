"""Project wiring: settings, ASGI routing and URLs (no game logic here)."""
