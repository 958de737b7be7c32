"""The game log: games, their hash-chained entries, side tokens (hashed) and dice seeds.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        # The number of entries; a write moves it only from the version it was based on.
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "entries",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("type", sa.String(16), nullable=False),
        sa.Column("side", sa.String(32), nullable=True),
        # Canonical JSON text, kept as text so every backend returns the hashed bytes.
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("prev", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("side", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "dice_seeds",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("epoch", sa.Integer, primary_key=True),
        # The server's secret seed of one epoch (hex); the log holds only its commitment
        # until the seed is revealed.
        sa.Column("seed", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    for table in ("dice_seeds", "tokens", "entries", "games"):
        op.drop_table(table)
