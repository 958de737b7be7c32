"""How a game ended, in one sentence, for every face that says it (``game status``, the web
table's banner): who won and why, read from the ruleset's own view of the state.

- V&V keeps the scenario's victory conditions: when the last Player Turn ends its view's
  ``result`` holds each side's victory points and the winner (none: a draw; a tie goes to the
  side the scenario names), with the rule that decided it (``clause``).
- The ASL and LnLT modules play a scenario's turns but keep no victory conditions: their view
  says only that the game is over, and the sentence says that no winner is named.

>>> over_sentence({"over": True, "turn": 5, "turns": 5, "result": {"points": {"american": 4,
...     "german": 6}, "winner": "german", "clause": "V&V r. 2"}})
'german wins, 6 victory points to 4 (V&V r. 2); the last turn (5 of 5) has ended.'
>>> print(over_sentence({"over": True, "turn": 2, "turns": 2}))
The last turn (2 of 2) has ended; this scenario keeps no victory conditions, so no winner is named.
>>> over_sentence({"over": False}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def over_sentence(view: Mapping[str, Any]) -> str | None:
    """Who won and why, once the game is over (None before); ``view`` is the ruleset's view
    of the state (``game status --json``'s ``state``)."""
    if not view.get("over"):
        return None
    turn, turns = view.get("turn"), view.get("turns")
    ended = f"the last turn ({turn} of {turns}) has ended" if turn and turns else "it has ended"
    result = view.get("result")
    if not isinstance(result, Mapping) or not isinstance(result.get("points"), Mapping):
        return (
            f"{ended[:1].upper()}{ended[1:]}; this scenario keeps no victory conditions, so no"
            " winner is named."
        )
    points = {str(side): value for side, value in result["points"].items()}
    clause = f" ({result['clause']})" if result.get("clause") else ""
    winner = result.get("winner")
    if winner is None:
        level = ", ".join(f"{side} {value}" for side, value in points.items())
        return f"A draw: victory points {level}{clause}; {ended}."
    others = [value for side, value in points.items() if side != winner]
    theirs = points.get(str(winner))
    if others and others[0] == theirs:
        return (
            f"{winner} wins: the victory points are level, {theirs} each, and the scenario"
            f" gives a tie to {winner}{clause}; {ended}."
        )
    against = f" to {others[0]}" if others else ""
    return f"{winner} wins, {theirs} victory points{against}{clause}; {ended}."
