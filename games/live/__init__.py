"""Live tables: moves in real time, bots and clocks, what each viewer is sent.

``play`` applies moves (the one serialised path per table), ``conductor`` makes
bots and clocks act when a table is due, ``render`` draws a viewer's table from
the engine observation, ``consumers`` carries it all over WebSockets.
"""
