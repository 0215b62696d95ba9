"""Live tables: moves in real time, bots and clocks, what each viewer is sent.

The folders follow a move:

- ``receive``: the table's WebSocket (one consumer per viewer) takes a message,
  knows which seat the connection may speak for, and hands the move on;
- ``submit``: ``play.submit`` applies it, the one serialised path per table
  (row lock, version check, the engine as the only judge, the stored log);
- ``plan``: ``turns`` decides who acts next and when (a person, a bot, a
  stand-in, a clock), so the conductor is woken only when it has work;
- ``draw``: each viewpoint of the table drawn once per version from the engine's
  observation (``render``, ``drawing``, the frame cache in ``frames``);
- ``deliver``: ``notify`` sends each viewpoint's frame to its group after commit
  (and ``layerwatch`` catches everyone up after the channel layer comes back).

and the conductor's (``conduct``): bots, turn clocks, pauses and the next deal,
decided in a pool of processes and submitted through the same ``play.submit``.
``store`` is what the live layer reads and keeps: the move's SQL rows, each
open deal's history per process, who is connected (presence).

Layers (pyproject.toml, checked by lint-imports): receive > conduct > submit >
plan > deliver > draw > store; none imports one to its left.
"""
