"""Lock 'n Load Tactical: maps and LOS, and the optional Smoke and WP shells (14.2.2, 14.2.3).

- ``terrain`` and ``los``: the terrain table (``data/terrain.toml``) and the LOS verdict.
- ``settings``: the readings where the rules are silent, each with its provenance.
- ``shell``: a shot at a hex (the To Hit roll, hit / short / beyond / none); ``landing``: where
  its marker goes (clear LOS, the enemy's choice along a hexside).
- ``wp``: the WP damage check (``data/wp_check.toml``); ``pool``: side pools and depletion.
- ``odds``: exact odds of all three; ``game``: the ruleset the game service plays.
"""
