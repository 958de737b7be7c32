"""The clause list the table's /clauses page shows and its clause IDs link to.

The data and its reader live in :mod:`ordnance.core.clauses`, which ``ordnance rules`` reads
too: the page and the command say the same.

>>> anchor("C8.4-dr"), anchor("C8.4"), anchor("Z9")
('C8.4-dr', 'C8.4-armor', None)
"""

from __future__ import annotations

from ordnance.core.clauses import anchor, clauses

__all__ = ["anchor", "clauses"]
