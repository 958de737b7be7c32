"""Game-independent building blocks: dice, rulings, errors, exact odds, data loading."""

from ordnance.core.dice import DR, DiceSource, DieRoll, ManualDice, SeededDice
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.odds import Distribution
from ordnance.core.rulings import DRM, Ruling

__all__ = [
    "DR",
    "DRM",
    "BadInput",
    "DiceSource",
    "DieRoll",
    "Distribution",
    "IllegalAction",
    "ManualDice",
    "OrdnanceError",
    "Ruling",
    "SeededDice",
]
