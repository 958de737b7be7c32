"""An infantry counter's three numbers as printed: ``APFP-Range-Casualty Rating``.

A Rifle squad ``4-6-5`` fires 4 APFP out to 6 hexes and is worth 5 CP eliminated; its half squad
``2-6-3``; a leader ``1-3-1`` (his Leadership Modifier is printed apart). Text and value round-trip.

>>> squad = Counter.parse("4-6-5")
>>> squad.apfp, squad.range, squad.casualty, str(squad)
(4, 6, 5, '4-6-5')
>>> squad
Counter.parse('4-6-5')
>>> Counter.parse("4-6")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad counter '4-6' at position 3: expected APFP-Range-Casualty ...
>>> Counter.parse("4-x-5")
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad counter '4-x-5' at position 2: 'x' is not a whole number
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.core.errors import BadInput

_FIELDS = ("APFP", "Range", "Casualty Rating")
MAX_VALUE = 99


@dataclass(frozen=True, order=True)
class Counter:
    """APFP, range in hexes and Casualty Rating of an infantry unit."""

    apfp: int
    range: int
    casualty: int

    def __post_init__(self) -> None:
        for name, value in zip(_FIELDS, (self.apfp, self.range, self.casualty), strict=True):
            if not 0 <= value <= MAX_VALUE:
                raise BadInput("counter", str(self), f"{name} must be 0 to {MAX_VALUE}")
        if self.range < 1 or self.casualty < 1:
            raise BadInput("counter", str(self), "range and Casualty Rating are at least 1")

    @classmethod
    def parse(cls, text: str) -> Counter:
        parts = text.strip().split("-")
        if len(parts) != 3:
            raise BadInput(
                "counter",
                text,
                "expected APFP-Range-Casualty Rating, e.g. 4-6-5",
                len(text.strip()),
            )
        values: list[int] = []
        position = 0
        for part in parts:
            if not (part.isascii() and part.isdigit()) or len(part) > 3:
                raise BadInput("counter", text, f"{part!r} is not a whole number", position)
            values.append(int(part))
            position += len(part) + 1
        return cls(*values)

    def __str__(self) -> str:
        return f"{self.apfp}-{self.range}-{self.casualty}"

    def __repr__(self) -> str:
        return f"Counter.parse('{self}')"

    def halved(self) -> Counter:
        """The half squad a squad is reduced to when its counter does not say otherwise.

        Half the APFP (rounded down), the same range, half the Casualty Rating rounded up:
        4-6-5 gives 2-6-3 and 4-6-4 gives 2-6-2, as the reference's examples print
        [inferred: a pattern, overridable per unit with ``reduced``].

        >>> Counter.parse("4-6-5").halved(), Counter.parse("4-6-4").halved()
        (Counter.parse('2-6-3'), Counter.parse('2-6-2'))
        """
        return Counter(self.apfp // 2, self.range, max(1, (self.casualty + 1) // 2))
