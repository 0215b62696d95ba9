"""The Bot API (docs/bot-api.md): HTTP with a bearer token, newline-delimited
JSON streams, moves through the one checked path (``games.live.submit.play``)."""
