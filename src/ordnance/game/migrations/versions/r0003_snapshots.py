"""Snapshots: a game's folded state every K entries, a cache the log can always rebuild.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        # The number of entries folded in, and the hash of the last of them.
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("head", sa.String(64), nullable=False),
        # The engine version that wrote it: another engine's snapshot is not read.
        sa.Column("engine", sa.String(32), nullable=False),
        # The state as JSON text (core/statecodec.py) and its SHA-256.
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        # The service key's signature of the snapshot's seal (game, version, head, engine,
        # digest): only a snapshot this service's key signed is read.
        sa.Column("sig", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
