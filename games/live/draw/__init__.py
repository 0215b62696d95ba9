"""Drawing a table: every viewpoint once per version, from the engine's observation of
the seat (or of a spectator).
"""
