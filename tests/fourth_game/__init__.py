"""A fourth game, as small as a game can be, plugged in as docs/architecture.md says."""
