"""One table answers every failure: the JSON API's kind and status and the CLI's exit code."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ordnance.cli import app as cli
from ordnance.core.errors import (
    EXIT_BAD_INPUT,
    EXIT_REFUSED,
    BadInput,
    IllegalAction,
    NoSuchGame,
    OrdnanceError,
    TooLarge,
)
from ordnance.game.dberrors import StorageError
from ordnance.game.errors import (
    ANSWERS,
    OTHER,
    NotAuthorized,
    RolledBack,
    StaleState,
    answer_of,
)
from ordnance.web.api import error_answer

ONE_OF_EACH: list[OrdnanceError] = [
    IllegalAction("SYS.record", "no ammunition left"),
    RolledBack("g1", 5, "the database holds 5 entries"),
    StaleState("g1", 4, 5),
    NotAuthorized("g1", "german"),
    StorageError("sqlite:///g.db", "disk I/O error"),
    BadInput("side", "x", "no such side"),
    NoSuchGame("game", "g9", "no such game in games.db"),
    TooLarge("upload", "map.yaml", "too large: the limit is 256 KB"),
    OrdnanceError("something else"),
]


class _Raising:
    """A command line whose command fails with ``error``."""

    def __init__(self, error: OrdnanceError) -> None:
        self.error = error

    def main(self, **_: Any) -> int:
        raise self.error


@pytest.mark.clause("SYS.record")
def test_the_table_names_each_error_class_once_subclasses_first():
    classes = [cls for cls, _ in ANSWERS]
    assert len(set(classes)) == len(classes)
    for i, cls in enumerate(classes):  # a base after its subclasses (first match wins)
        assert not any(issubclass(later, cls) for later in classes[i + 1 :])
    assert all(isinstance(e, OrdnanceError) for e in ONE_OF_EACH)
    assert {answer_of(e) for e in ONE_OF_EACH} >= {a for _, a in ANSWERS} | {OTHER}
    # The CLI's own answers (a usage error, an unreadable path) use the table's codes.
    assert (cli.EXIT_REFUSED, cli.EXIT_BAD_INPUT) == (EXIT_REFUSED, EXIT_BAD_INPUT)
    assert {a.exit for _, a in ANSWERS} == {EXIT_REFUSED, EXIT_BAD_INPUT}


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("error", ONE_OF_EACH, ids=lambda e: type(e).__name__)
def test_the_web_and_the_cli_answer_a_failure_from_the_one_table(error, monkeypatch, capsys):
    answer = answer_of(error)
    sent = error_answer(error)
    assert sent.status_code == answer.status
    assert json.loads(bytes(sent.body))["error"] == answer.kind
    # The database away is the same 503 everywhere (it once was 422 on a page).
    assert (answer.status == 503) == isinstance(error, StorageError)
    monkeypatch.setattr(cli.typer.main, "get_command", lambda _app: _Raising(error))
    assert cli.main(["game", "status", "g1"]) == answer.exit
    assert str(error) in capsys.readouterr().err
