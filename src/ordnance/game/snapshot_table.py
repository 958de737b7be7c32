"""The ``snapshots`` table (migration 0003) as SQLAlchemy describes it, on the store's metadata,
so the schema test compares it with the migrations too. :mod:`.snapshots` itself reads and
writes it in plain SQL (a CLI command need not import SQLAlchemy)."""

from __future__ import annotations

import sqlalchemy as sa

from ordnance.game.database import metadata

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("head", sa.String(64), nullable=False),
    sa.Column("engine", sa.String(32), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("sig", sa.String(128), nullable=False),
)
