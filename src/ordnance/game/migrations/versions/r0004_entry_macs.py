"""Entry MACs: the service's HMAC of every entry it stores, beside the signed heads.

Revision ID: 0004
Revises: 0003

``entries`` gains ``mac`` (hex, nullable). Entries stored before this revision keep none: each
of them carries its own Ed25519 signature (migration 0002 and the service signed every entry
then), which the service goes on checking when it reads them. From now on every entry the
service stores has a MAC, and only some (the signed heads) a signature.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("entries", sa.Column("mac", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("entries", "mac")
