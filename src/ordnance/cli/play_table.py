"""Where ``game play`` plays: a game database here (:class:`LocalSeat`) or a served table
(:class:`RemoteSeat`), seen from one side's seat.

Both give the loop the same things: the folded game (for the prompt, the odds and the dice a
command needs), its log (for the news), its version (polled while the other side acts), the
status ``game status`` prints, and the side's commands and undos. Where the AI's turn is played
differs: here, by :func:`ordnance.game.autoplay.play` with the AI sides' kept tokens
(:mod:`ordnance.game.ai_tokens`), each command reported as it is stored; at a served table, by
the server itself, in the background, the loop only watching the versions it stores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ordnance.core.errors import BadInput

if TYPE_CHECKING:
    from ordnance.game.autoplay import AiMove
    from ordnance.game.entries import Entry
    from ordnance.game.fold import Game
    from ordnance.game.service import GameService


@dataclass(frozen=True)
class Waiting:
    """The AI's command held for physical dice: its side, its words, the version it was
    chosen at. The player at the loop rolls for it."""

    side: str
    text: str
    version: int


class Seat(Protocol):
    """One side's place at a game (see the module docstring)."""

    game_id: str
    side: str

    def game(self) -> Game: ...

    def log(self) -> list[Entry]: ...

    def version(self) -> int: ...

    def status(self) -> dict[str, Any]: ...

    def do(self, words: Sequence[str], version: int) -> None:
        """Send a command of the side, decided at ``version`` (stale past it: refused)."""
        ...

    def undo(self, version: int) -> None: ...

    def ai_turn(self, told: Callable[[], None]) -> Waiting | None:
        """Let the AI play while it is its decision (``told`` after each command it stores);
        the AI's command that waits for physical dice, if any."""
        ...

    def ai_dice(self, waiting: Waiting, dice: Sequence[str]) -> None:
        """Play the AI's waiting command with the dice the player entered."""
        ...

    def ai_busy(self) -> bool:
        """Whether an AI elsewhere (the server's) is playing now: the loop waits for it."""
        ...


def ai_sides_of(game: Game) -> list[str]:
    """The sides the scenario gives the AI (``ai: true``), in the scenario's order."""
    return list(game.scenario.ai_sides)


class LocalSeat:
    """A side at a game of a database here; the AI sides whose tokens are kept play here."""

    def __init__(
        self, service: GameService, game_id: str, side: str, token: str, ai: Mapping[str, str]
    ) -> None:
        self.service, self.game_id, self.side, self.token = service, game_id, side, token
        self.ai = dict(ai)

    def game(self) -> Game:
        return self.service.game(self.game_id)

    def log(self) -> list[Entry]:
        return self.service.log(self.game_id)

    def version(self) -> int:
        return self.service.store.version(self.game_id)

    def status(self) -> dict[str, Any]:
        return self.service.status(self.game_id, self.side)

    def do(self, words: Sequence[str], version: int) -> None:
        from ordnance.game.fairdice import new_entropy  # noqa: PLC0415

        self.service.do(
            self.game_id, self.side, self.token, list(words), expect_version=version,
            entropy=new_entropy(),
        )  # fmt: skip

    def undo(self, version: int) -> None:
        self.service.undo(self.game_id, self.side, self.token, expect_version=version)

    def ai_turn(self, told: Callable[[], None]) -> Waiting | None:
        if not self.ai:
            return None
        return self._play(told)

    def ai_dice(self, waiting: Waiting, dice: Sequence[str]) -> None:
        self._play(lambda: None, dice=dice, expect=waiting)

    def _play(
        self,
        told: Callable[[], None],
        dice: Sequence[str] = (),
        expect: Waiting | None = None,
    ) -> Waiting | None:
        from ordnance.game import autoplay  # noqa: PLC0415

        def moved(_: AiMove) -> None:
            told()

        run = autoplay.play(
            self.service,
            self.game_id,
            self.ai,
            dice=dice,
            expect_version=None if expect is None else expect.version,
            expect_command=None if expect is None else expect.text,
            limit=1 if expect is not None else autoplay.MAX_AI_COMMANDS,
            forced={self.side: self.token},
            on_move=moved,
        )
        waits = run.waiting
        return None if waits is None else Waiting(waits.side, waits.text, waits.version)

    def ai_busy(self) -> bool:
        return False


class RemoteSeat:
    """A side at a game of an ``ordnance serve`` table (its JSON API); the server plays its AI."""

    def __init__(self, server: str, game_id: str, side: str, token: str) -> None:
        self.server, self.game_id, self.side, self.token = server, game_id, side, token
        self._folded: tuple[int, list[Entry], Game] | None = None
        self._status: dict[str, Any] = {}

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        from ordnance.cli import remote  # noqa: PLC0415

        return remote._call(self.server, method, f"/api/games/{self.game_id}{path}", **kwargs)

    def _fresh(self) -> tuple[list[Entry], Game]:
        """The log and the game, read again only when the served version moved. The log is
        verified as ``game verify`` does (hashes, signatures, every command replayed)."""
        # The version of the status last read (each round of the loop reads one first).
        version = int(self._status["version"]) if self._status else self.version()
        if self._folded is None or self._folded[0] != version:
            from ordnance.game.logfile import read_verified  # noqa: PLC0415

            text = self._call("GET", "/export")
            log, folded = read_verified(str(text).encode("utf-8"))
            self._folded = (folded.version, log, folded)
        return self._folded[1], self._folded[2]

    def game(self) -> Game:
        return self._fresh()[1]

    def log(self) -> list[Entry]:
        return self._fresh()[0]

    def version(self) -> int:
        self._status = self.status()
        return int(self._status["version"])

    def status(self) -> dict[str, Any]:
        answer: dict[str, Any] = self._call("GET", "", params={"side": self.side})
        return answer

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def do(self, words: Sequence[str], version: int) -> None:
        from ordnance.cli import remote  # noqa: PLC0415
        from ordnance.cli.game_common import check_entropy_used  # noqa: PLC0415
        from ordnance.game.fairdice import new_entropy  # noqa: PLC0415

        entropy = new_entropy()
        applied, _ = remote.do(
            self.server, self.game_id, self.side, self.token, list(words), expect=version,
            entropy=entropy,
        )  # fmt: skip
        check_entropy_used(applied, entropy)

    def undo(self, version: int) -> None:
        body = {"side": self.side, "expect_version": version}
        self._call("POST", "/undo", json=body, headers=self._headers())

    def ai_turn(self, told: Callable[[], None]) -> Waiting | None:
        self.version()
        found = self._status.get("ai_waiting")
        if not isinstance(found, Mapping):
            return None
        return Waiting(str(found["side"]), str(found["command"]), int(found["version"]))

    def ai_dice(self, waiting: Waiting, dice: Sequence[str]) -> None:
        body = {
            "side": self.side,
            "dice": list(dice),
            "expect_version": waiting.version,
            "command": waiting.text,
        }
        self._call("POST", "/ai-dice", json=body, headers=self._headers())

    def ai_busy(self) -> bool:
        return bool(self._status.get("ai_to_play"))


def check_side(game: Game, side: str) -> None:
    """A side the game has (BadInput naming the sides otherwise)."""
    if side not in game.sides:
        raise BadInput("side", side, f"not a side of this game: {', '.join(game.sides)}")
