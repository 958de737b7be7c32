"""Alembic migrations of the game database, shipped in the package and run on first use."""
