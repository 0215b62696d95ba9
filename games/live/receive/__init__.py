"""The table's WebSocket: one consumer per viewer, which seat a connection speaks for,
and the messages it takes.
"""
