"""Advanced Squad Leader: special ammunition (C8) and vehicular smoke dispensers (D13)."""
