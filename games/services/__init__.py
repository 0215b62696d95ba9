"""Mutations of the games app. Views call these; they never write models directly.

Every function that changes a table locks its row first (``select_for_update``)
so that two requests racing for the same seat are serialised by the database.
"""

from games.services.errors import ServiceError

__all__ = ["ServiceError"]
