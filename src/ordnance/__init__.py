"""ordnance: rules engine, side record and exact odds for WWII tactical wargames.

The package is layered (see DESIGN.md of the project): :mod:`ordnance.core` knows no game,
:mod:`ordnance.asl` holds the Advanced Squad Leader rules, and :mod:`ordnance.cli` is a face.
"""

__version__ = "0.1.0"
