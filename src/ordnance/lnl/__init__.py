"""Lock 'n Load Tactical: the terrain table and line of sight on maps (so far)."""
