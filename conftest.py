"""Collection rules for the whole tree (pytest also collects doctests from src/)."""

import pytest

# Alembic's env.py runs only inside Alembic; importing it for doctests would fail.
collect_ignore = ["src/ordnance/game/migrations/env.py"]


@pytest.fixture(autouse=True)
def _private_key_store_and_receipts(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test (and doctest) gets its own key store and receipts folder: nothing is written
    to the user's data folder, and no test sees another's secrets."""
    home = tmp_path_factory.mktemp("ordnance-home")
    monkeypatch.setenv("ORDNANCE_KEYS", str(home / "keys"))
    monkeypatch.setenv("ORDNANCE_RECEIPTS", str(home / "receipts"))
