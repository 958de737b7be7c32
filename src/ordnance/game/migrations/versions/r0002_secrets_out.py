"""Secrets out of the game database: seeds to the key store, token MACs, signed entries.

Revision ID: 0002
Revises: 0001

- every server seed of ``dice_seeds`` goes to the service's key store (named by its SHA-256, the
  commitment the log already holds), then the table is dropped, so no seed stays readable here;
- every token's SHA-256 becomes a MAC keyed by the key store (a writer of the database can no
  longer put a token of their own there);
- ``entries`` gains ``sig``, and every existing entry is signed by the service's key: the
  operator vouches, at the upgrade, for the log as it stands.

The key store comes from the caller (``ordnance.game.database.ensure_schema``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

from ordnance.game.keystore import KeyStore
from ordnance.game.signing import Signer
from ordnance.game.tokens import mac_of_hash

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    keys = context.config.attributes["keystore"]
    assert isinstance(keys, KeyStore)
    connection = op.get_bind()
    # The key store is written first: if the upgrade fails after this, the seeds are in both
    # places and the next upgrade writes the same files again.
    for (seed,) in connection.execute(sa.text("SELECT seed FROM dice_seeds")).all():
        keys.put_seed(bytes.fromhex(seed))
    op.drop_table("dice_seeds")

    # The key store is touched only when there is something to convert: a fresh database
    # creates no key before the service needs one.
    rows = connection.execute(sa.text("SELECT game_id, side, token_hash FROM tokens")).all()
    mac_key = keys.token_key() if rows else b""
    for game, side, hashed in rows:
        connection.execute(
            sa.text("UPDATE tokens SET token_hash = :mac WHERE game_id = :game AND side = :side"),
            {"mac": mac_of_hash(mac_key, game, side, hashed), "game": game, "side": side},
        )

    op.add_column("entries", sa.Column("sig", sa.String(128), nullable=True))
    stored = connection.execute(sa.text("SELECT game_id, seq, hash FROM entries")).all()
    signer = Signer(keys.private_key()) if stored else None
    for game, seq, entry_hash in stored:
        assert signer is not None
        connection.execute(
            sa.text("UPDATE entries SET sig = :sig WHERE game_id = :game AND seq = :seq"),
            {"sig": signer.sign(entry_hash), "game": game, "seq": seq},
        )


def downgrade() -> None:
    raise NotImplementedError("the seeds left the database on purpose; restore a backup instead")
