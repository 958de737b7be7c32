"""Valor & Victory: the terrain table, line of sight on maps, and AP fire reach (so far)."""
