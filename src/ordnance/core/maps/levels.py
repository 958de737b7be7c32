"""The simple level rule every map ruleset here shares: when height lets a line pass over.

Real games trace elevation with slopes, crest lines and blind hexes; this engine keeps a simpler,
symmetric rule (a documented simplification, the same for every game):

- A unit is at the ground level of its hex (its ``elevation`` in the map file).
- Something in a hex between them (terrain, a marker, the hex's own ground) has a *top*: the
  hex's ground level plus the thing's ``height`` in whole levels (a half-level obstacle such as
  an ASL wall has height 0). The line passes over it only when **both** ends are higher than
  its top. An obstacle as high as both ends blocks them (ASL's same-level obstacle), and a
  two-level SMOKE at ground level hinders units up to level 2 (C8.5-effect: nothing above it).
- The ground of a hex between them is itself an obstacle (a hill) when it is at least as high
  as the higher end and higher than the lower one: two units at level 0 do not see across a
  level-1 hill, a unit at level 2 sees over it to level 0, and two units on one plateau see
  each other across it.

Both tests are symmetric in the two ends, so a verdict built on them stays reciprocal.

>>> ends = Ends(0, 0)
>>> ends.passes_over(ground=0, height=1), ends.ground_blocks(1)
(False, True)
>>> Ends(2, 2).passes_over(ground=0, height=1), Ends(2, 0).ground_blocks(1)
(True, False)
>>> Ends(2, 2).passes_over(ground=0, height=2)  # a two-level SMOKE still hinders at level 2
False
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ends:
    """The levels of the two ends of a line of sight (firer and target, in either order)."""

    firer: int
    target: int

    @property
    def lower(self) -> int:
        return min(self.firer, self.target)

    @property
    def higher(self) -> int:
        return max(self.firer, self.target)

    def passes_over(self, ground: int, height: int) -> bool:
        """Whether the line passes above something ``height`` levels tall on ``ground``."""
        return self.lower > ground + height

    def ground_blocks(self, ground: int) -> bool:
        """Whether a hex's ground at ``ground`` is a hill between the two ends."""
        return ground >= self.higher and ground > self.lower

    @property
    def same_level(self) -> bool:
        return self.firer == self.target
