"""Sending what was drawn: each viewpoint's frame to its channel-layer group after
commit, and catching up after the layer was away.
"""
