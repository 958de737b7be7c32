"""Alembic's entry point: migrate the connection the game store hands over.

``ordnance.game.database.ensure_schema`` runs the migrations programmatically, inside its own
transaction (locked, so two processes opening a fresh database do not both create it); there is
no alembic.ini and no offline mode.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
