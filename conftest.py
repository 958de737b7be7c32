"""Collection rules for the whole tree (pytest also collects doctests from src/)."""

# Alembic's env.py runs only inside Alembic; importing it for doctests would fail.
collect_ignore = ["src/ordnance/game/migrations/env.py"]
