"""The shape every ASL game ruling shares, and the sequence-of-play citation.

>>> from ordnance.core.ruleset import Command
>>> ruling = game_ruling(Command("german", "phase", {}, "phase next"), ["A3", "A3"], "Done.")
>>> ruling["clauses"], ruling["explanation"]
(['A3'], 'Done.')
"""

from __future__ import annotations

from ordnance.core.rulings import command_ruling

SEQUENCE = "A3"  # ASL's sequence of play: the reading the game takes where C8 and D13 are silent


# A command's ruling: the command, its fields, the clauses in first-seen order, one explanation.
game_ruling = command_ruling
