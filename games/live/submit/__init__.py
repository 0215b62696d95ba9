"""Applying a move: the one serialised path per table (row lock, version check, the
engine as judge, the stored log).
"""
