"""Work done every so often beside the live tables, never on a move's path:
pairing the Play-now pools and the bot ladder, rating matches left unrated,
moving tournaments on, and deleting chat past its keeping time
(:mod:`games.periodic.runner`).
"""
