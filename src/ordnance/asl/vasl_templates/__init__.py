"""Counter data in the vasl-templates format: a bridge to the notation, an importer, rosters.

The vasl-templates project keeps every vehicle and Gun counter as JSON. :mod:`.bridge` reads
and writes one capability value as a Token, :mod:`.data` loads a data directory into entries,
:mod:`.roster` lists a nationality's units with what each may fire in a scenario's context
(which files a nationality's roster reads is told in :func:`~.roster.roster_groups`).

>>> token = token_from_vasl("A", [[5, 4], [6, 5]])
>>> token, token_to_vasl(token)
(Token.parse('A5(4)/6(5)'), [[5, 4], [6, 5]])
"""

from __future__ import annotations

from ordnance.asl.vasl_templates.bridge import (
    VaslStyle,
    VaslToken,
    VaslValue,
    token_from_literal,
    token_from_vasl,
    token_to_literal,
    token_to_vasl,
)
from ordnance.asl.vasl_templates.data import Entry, VaslData, data_directory, load, load_entries
from ordnance.asl.vasl_templates.roster import (
    RosterRuling,
    Unit,
    find_unit,
    name_matches,
    plain_name,
    roster,
    roster_groups,
)

__all__ = [
    "Entry",
    "RosterRuling",
    "Unit",
    "VaslData",
    "VaslStyle",
    "VaslToken",
    "VaslValue",
    "data_directory",
    "find_unit",
    "load",
    "load_entries",
    "name_matches",
    "plain_name",
    "roster",
    "roster_groups",
    "token_from_literal",
    "token_from_vasl",
    "token_to_literal",
    "token_to_vasl",
]
