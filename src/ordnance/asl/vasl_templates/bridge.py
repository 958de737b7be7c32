"""The bridge between vasl-templates capability values and the notation's Tokens.

Its ``capabilities2`` maps a family key to an int (``{"sD": 7}`` is ``sD7``), a printed string
(``"6[9]†"`` is ``H6[9]!``) or a list of ``[number, date]`` steps with an optional trailing
dagger (``[[5, 4], [6, 5]]`` is ``A5(4)/6(5)``); its ``capabilities`` list holds literal
printed strings (``"AP9<sup>75</sup>†"`` is ``AP9(cal75)!``: a superscript of 60 or more is a
calibre).

>>> token = token_from_vasl("A", [[5, 4], [6, 5]])
>>> token, token == Token.parse("A5(4)/6(5)")
(Token.parse('A5(4)/6(5)'), True)
>>> token_to_vasl(token_from_vasl("H", [["6[9]", "3+"], "†"]))
[['6[9]', '3+'], '†']
>>> token_to_vasl(Token.parse("WP7(J4+)!3"))
[[7, 'J4+'], '†<sup>3</sup>']
>>> token_from_literal("AP9<sup>75</sup>†")
Token.parse('AP9(cal75)!')

The data does not spell a capability one way only: ``"6"`` and ``6``, ``["†¹"]`` and
``[null, "†¹"]`` both occur. The notation keeps none of that, so :func:`token_from_vasl` returns
a :class:`VaslToken`: a Token (equal to the plain one) that also remembers its spelling in a
:class:`VaslStyle`, and :func:`token_to_vasl` gives back exactly the JSON it came from.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ordnance.asl.notation import Family, Step, Token
from ordnance.core.errors import BadInput

VaslValue: TypeAlias = int | str | list["VaslValue"] | None

# The family key that lists a Gun's alternate statistics: data, not a capability.
ALTERNATE_STATS_KEY = "LF"
# Superscripts from this value up name a gun calibre in mm (75); below it they are date codes.
CALIBRE_FLOOR = 60

_SUP = re.compile(r"(†?)<sup>([^<>]*)</sup>")
_DIGITS = re.compile(r"[0-9]+")
_DAGGER = "†"


@dataclass(frozen=True)
class VaslStyle:
    """How a vasl-templates value spelled what the notation does not keep.

    ``text_number``: a plain number written as a string (``"6"``, not ``6``);
    ``text_numbers`` / ``text_dates``: indexes of steps whose number, or all-digit date, is a
    string; ``bare_null``: a number-less value written ``[null, date]`` or ``[null, dagger]``
    rather than ``[[null, date]]`` or ``[dagger]``. The default is the plain spelling.
    """

    text_number: bool = False
    text_numbers: tuple[int, ...] = ()
    text_dates: tuple[int, ...] = ()
    bare_null: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class VaslToken(Token):
    """A Token read from vasl-templates data, remembering how the data spelled it.

    It equals (and hashes as) the plain Token with the same capability.

    >>> token = token_from_vasl("s", "8")
    >>> token == Token.parse("s8"), token.style.text_number, token_to_vasl(token)
    (True, True, '8')
    """

    style: VaslStyle = field(default=VaslStyle())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Token):
            return _identity(self) == _identity(other)
        return NotImplemented

    __hash__ = Token.__hash__


def _identity(token: Token) -> tuple[Family, tuple[Step, ...], bool, int | None]:
    return token.family, token.steps, token.dagger, token.note


def token_from_vasl(key: str, value: VaslValue) -> Token:
    """Read one ``capabilities2`` value; ``key`` is its family symbol (``A``, ``sD``...).

    >>> token_from_vasl("C", [[7, "A2+"], "†<sup>1</sup>"])
    Token.parse('C7(A2+)!1')
    >>> token_from_vasl("HE", [None, "4+"]), token_from_vasl("A", ["†<sup>1</sup>"])
    (Token.parse('HE(4+)'), Token.parse('A!1'))
    >>> token_from_vasl("LF", [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad capability key 'LF': it lists alternate gun statistics...
    """
    family = _family_of_key(key)
    text, style = _value_text(key, value)
    try:
        token = Token.parse(family.value + text)
    except BadInput as error:
        raise BadInput("vasl-templates value", _shown(key, value), error.problem) from None
    return VaslToken(token.family, token.steps, token.dagger, token.note, style)


def token_to_vasl(token: Token) -> VaslValue:
    """Write a token as a ``capabilities2`` value (exactly as read, for a :class:`VaslToken`).

    >>> token_to_vasl(Token.parse("sD7")), token_to_vasl(Token.parse("H6[9]!"))
    (7, '6[9]†')
    >>> token_to_vasl(Token.parse("A5(4)/6(5)"))
    [[5, 4], [6, 5]]
    """
    style = token.style if isinstance(token, VaslToken) else VaslStyle()
    dagger = _dagger_text(token)
    tail: list[VaslValue] = [dagger] if dagger else []
    if not token.steps:
        return [None, *tail] if style.bare_null else tail
    if not token.is_dated:
        step = token.steps[0]
        assert step.number is not None  # an undated step always has a number (notation)
        if step.second is None and not dagger:
            return str(step.number) if style.text_number else step.number
        return _number_text(step) + dagger
    if style.bare_null and len(token.steps) == 1 and token.steps[0].number is None:
        return [None, _date_value(token.steps[0], 0, style), *tail]
    steps: list[VaslValue] = [
        [_number_value(step, index, style), _date_value(step, index, style)]
        for index, step in enumerate(token.steps)
    ]
    return steps + tail


def token_from_literal(text: str) -> Token:
    """Read one literal string of a ``capabilities`` list.

    >>> token_from_literal("C7†<sup>2</sup>"), token_from_literal("IR")
    (Token.parse('C7!2'), Token.parse('IR'))
    """
    try:
        return Token.parse(_from_printed(text))
    except BadInput as error:
        raise BadInput("vasl-templates capability", text, error.problem) from None


def token_to_literal(token: Token) -> str:
    """Write a token as a ``capabilities`` literal (superscripts as ``<sup>``).

    >>> token_to_literal(Token.parse("AP9(cal75)!")), token_to_literal(Token.parse("C7!2"))
    ('AP9<sup>75</sup>†', 'C7†<sup>2</sup>')
    """
    steps = []
    for step in token.steps:
        text = _number_text(step)
        if step.date is not None:
            code = step.date.calibre if step.date.calibre is not None else step.date
            text += f"<sup>{code}</sup>"
        steps.append(text)
    return token.family.value + "/".join(steps) + _dagger_text(token)


def _family_of_key(key: str) -> Family:
    if key == ALTERNATE_STATS_KEY:
        raise BadInput("capability key", key, "it lists alternate gun statistics, not a capability")
    try:
        return Family(key)
    except ValueError:
        symbols = ", ".join(f.value for f in Family)
        raise BadInput("capability key", key, f"not a capability symbol ({symbols})") from None


def _shown(key: str, value: object) -> str:
    return f"{key}: {json.dumps(value, ensure_ascii=False)}"


def _value_text(key: str, value: VaslValue) -> tuple[str, VaslStyle]:
    """The notation text after the family symbol, and the spelling details to keep."""
    if isinstance(value, bool):
        pass  # JSON true/false is no capability; bool is an int subclass, so test it first
    elif isinstance(value, int):
        return str(value), VaslStyle()
    elif isinstance(value, str):
        return _from_printed(value), VaslStyle(text_number=_DIGITS.fullmatch(value) is not None)
    elif isinstance(value, list):
        return _list_text(key, value)
    raise BadInput(
        "vasl-templates value", _shown(key, value), "expected a number, a string or a list"
    )


def _list_text(key: str, value: list[VaslValue]) -> tuple[str, VaslStyle]:
    """``[[n, date], ..., dagger?]``, or the bare forms ``[null, date]`` / ``[null, dagger]``."""
    items = list(value)
    dagger = ""
    last = items[-1] if items else None
    if isinstance(last, str) and last.startswith(_DAGGER):
        dagger = _from_printed(last)
        items.pop()

    def fault(problem: str) -> BadInput:
        return BadInput("vasl-templates value", _shown(key, value), problem)

    bare_null = bool(items) and items[0] is None
    if bare_null:
        if len(items) > 2:
            raise fault("after a bare null only one date may follow")
        pairs: list[VaslValue] = [[None, items[1]]] if len(items) == 2 else []
    else:
        pairs = items
    parts: list[str] = []
    text_numbers: list[int] = []
    text_dates: list[int] = []
    for index, pair in enumerate(pairs):
        if not isinstance(pair, list) or len(pair) != 2:
            raise fault("expected [number, date] steps and an optional dagger at the end")
        number, date = pair
        if isinstance(number, str) and _DIGITS.fullmatch(number):
            text_numbers.append(index)
        if isinstance(date, str) and _DIGITS.fullmatch(date):
            text_dates.append(index)
        parts.append(f"{_step_number(number, fault)}({_step_date(date, fault)})")
    style = VaslStyle(
        text_numbers=tuple(text_numbers), text_dates=tuple(text_dates), bare_null=bare_null
    )
    return "/".join(parts) + dagger, style


def _step_number(number: VaslValue, fault: Any) -> str:
    if number is None:
        return ""
    if isinstance(number, int) and not isinstance(number, bool):
        return str(number)
    if isinstance(number, str):
        return number
    raise fault(f"a step's number must be a number, a string or null, not {number!r}")


def _step_date(date: VaslValue, fault: Any) -> str:
    if isinstance(date, int) and not isinstance(date, bool):
        return str(date)
    if isinstance(date, str) and date:
        return date
    raise fault(f"a step's date must be a year digit or a date code, not {date!r}")


def _from_printed(text: str) -> str:
    """Printed text to the canonical notation: daggers, note indexes, dates, calibres."""

    def one(match: re.Match[str]) -> str:
        dagger, body = match.groups()
        if dagger:
            return "!" + body
        if _DIGITS.fullmatch(body) and int(body) >= CALIBRE_FLOOR:
            return f"(cal{body})"
        return f"({body})"

    return _SUP.sub(one, text).replace(_DAGGER, "!")


def _dagger_text(token: Token) -> str:
    if not token.dagger:
        return ""
    return _DAGGER + ("" if token.note is None else f"<sup>{token.note}</sup>")


def _number_text(step: Step) -> str:
    text = "" if step.number is None else str(step.number)
    return text + ("" if step.second is None else f"[{step.second}]")


def _number_value(step: Step, index: int, style: VaslStyle) -> VaslValue:
    if step.number is None:
        return None
    if step.second is not None or index in style.text_numbers:
        return _number_text(step)
    return step.number


def _date_value(step: Step, index: int, style: VaslStyle) -> VaslValue:
    text = str(step.date)
    if _DIGITS.fullmatch(text) and index not in style.text_dates:
        return int(text)
    return text
