"""``ordnance rules [ID | WORDS]``: what a cited clause says, in our own words.

The same summaries as the web table's /clauses page (:mod:`ordnance.core.clauses`), each
after its rulebook number, grouped by the inventory's sections and wrapped at 80 columns.
"""

from __future__ import annotations

import sys
import textwrap
from typing import Annotated

import typer

from ordnance.cli.groups import app
from ordnance.core.clauses import Clause, Found, look_up
from ordnance.core.errors import BadInput

WIDTH = 80


@app.command("rules")
def rules_command(
    query: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="ID|WORDS...",
            help="A clause ID (C8.9-lt), a rule (C8.9, D13, 'LnL 14.2.2'), several of"
            " these, or words that every clause found must hold (smoke dispenser). None: every"
            " clause.",
            show_default=False,
        ),
    ] = None,
    *,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """What a clause says, in our words: one clause, a rule's clauses, or a word search."""
    terms = query or []
    if terms and not any(term.strip() for term in terms):
        raise BadInput("clause", " ".join(terms), "give a clause ID, a rule number or words")
    found = look_up(terms)
    if not found.clauses:
        raise BadInput(
            "clause",
            found.query,
            "no clause has this ID or rule number, or all of these words"
            " ('ordnance rules' lists every clause)",
        )
    if as_json:
        from ordnance.cli.output import emit_json  # noqa: PLC0415

        emit_json(
            {
                "query": found.query,
                "found": found.how,
                "rules": [_row(c) for c in found.clauses],
                "clauses": [c.id for c in found.clauses],
                "explanation": explanation(found),
            }
        )
        return
    sys.stdout.write(text(found))


def _row(c: Clause) -> dict[str, str | None]:
    return {"id": c.id, "rule": c.rule, "section": c.section, "summary": c.summary}


def explanation(found: Found) -> str:
    """One sentence on what was found.

    >>> explanation(look_up(["C8.9"]))
    '4 clauses of rule C8.9.'
    >>> explanation(look_up(["d13.31"]))
    'Clause D13.31.'
    """
    count = len(found.clauses)
    many = "clause" if count == 1 else "clauses"
    if found.how == "all":
        return f"Every clause: {count}."
    if found.how == "clause":
        return f"Clause {found.clauses[0].id}."
    if found.how == "rule":
        return f"{count} {many} of rule {found.query}."
    if found.how == "several":
        return f"{count} {many} of {', '.join(found.query.split())}."
    return f"{count} {many} holding every word of '{found.query}'."


def text(found: Found) -> str:
    """The clauses under their section headings, each wrapped at 80 columns.

    >>> print(text(look_up(["D13.31"])), end="")
    ASL D13 — Vehicular Smoke Dispensers
      D13.31: sD places Dispersed (white) smoke in the AFV's own hex, at its Base
        Level.
    Clause D13.31.
    """
    lines: list[str] = []
    section = None
    for c in found.clauses:
        if c.section != section:
            if section is not None:
                lines.append("")
            section = c.section
            lines.append(section)
        lines.extend(
            textwrap.wrap(
                f"{c.cited}: {c.summary}",
                width=WIDTH,
                initial_indent="  ",
                subsequent_indent="    ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    lines.append(explanation(found))
    return "\n".join(lines) + "\n"
