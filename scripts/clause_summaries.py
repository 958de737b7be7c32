"""Write the clause summaries ``ordnance rules`` and the web's /clauses page read, from
../shared/rules/CLAUSES.md.

The inventory lives beside the repository, not in installs, so the summaries (the first sentence
of each entry, the project's own paraphrase) are generated into package data (core/clauses.json)
and committed, each with the rulebook number it belongs to; tests/web/test_clauses.py checks the
committed file still matches the inventory.

Usage: python scripts/clause_summaries.py [--check]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLAUSES_MD = ROOT.parent / "shared" / "rules" / "CLAUSES.md"
OUT = ROOT / "src" / "ordnance" / "core" / "clauses.json"
_ROW = re.compile(r"^\| ([A-Z][A-Za-z0-9.\-]+) \| (.+) \|\s*$")
# A sentence ends at a full stop after a lower-case letter, digit or bracket (not "U.S.").
_SENTENCE = re.compile(r"(?<=[a-z0-9)\]]\.)\s+(?=[A-Z])")
# Entries whose first sentence follows a rule text's wording too closely to ship in the package
# (ten words in a row): shorter summaries in our own words, with the clause ID still the link.
OWN_WORDS = {
    "C8.31-target": "HEAT targets: vehicles and Guns, or Infantry and Cavalry that get the TEM of a"
    " wall, building, rubble or pillbox.",
    "D13.31": "sD places Dispersed (white) smoke in the AFV's own hex, at its Base Level.",
    "D13.35": "Smoke grenades of a vehicle with a main armament: who may try (a CT AFV only"
    " when CE), the dr that succeeds for each kind of vehicle, where the counter goes and when"
    " it is removed, and no grenades and dispenser both in one MPh.",
}
# The V&V text carries no rule numbers: its untitled opening and four headings are the Standard
# rules' 14.1 to 14.5 (../shared/reference/vv.md says so and cites each); a clause's number is
# that of the part of the text it comes from.
VV_RULES = {
    "targets": "14.1",
    "groups": "14.2",
    "leader": "14.2",
    "passengers": "14.3",
    "vehicles": "14.4",
    "weapons": "14.4",
    "range": "14.4",
    "arc": "14.4",
    "phases": "14.5",
    "select": "14.5",
    "resolve": "14.5",
}
_LNL_RULE = re.compile(r"\b14\.2\.[0-9]+\b")


def rule_number(cid: str, section: str) -> str | None:
    """The rulebook number a clause ID belongs to, as a player looks it up; None for the
    system's own clauses (SYS.*), which no rulebook has.

    >>> rule_number("C8.9-lt", "ASL C8"), rule_number("D13.31", "ASL D13")
    ('C8.9', 'D13.31')
    >>> rule_number("LNL.W-check", "Lock 'n Load Tactical — White Phosphorus Shells 14.2.3")
    'LnL 14.2.3'
    >>> rule_number("VV.AP-arc", "Valor & Victory"), rule_number("SYS.dice", "the system")
    ('V&V r. 14.4', None)
    """
    if cid.startswith(("C8.", "D13.")):
        return cid.split("-", 1)[0]
    if cid.startswith("LNL."):
        found = _LNL_RULE.search(section)
        if found is None:
            raise ValueError(f"{cid}: no LnL rule number in its section {section!r}")
        return f"LnL {found.group(0)}"
    if cid.startswith("VV.AP-"):
        return f"V&V r. {VV_RULES[cid.removeprefix('VV.AP-')]}"
    if cid.startswith("SYS."):
        return None
    raise ValueError(f"{cid}: no rulebook number known for this kind of clause ID")


def summaries(text: str) -> list[dict[str, str | None]]:
    """Each clause of the inventory: its ID, rulebook number, section and the first sentence
    of its entry.

    >>> summaries("## ASL C8 (x.txt)\\n| ID | Requirement |\\n| C8.0 | Keep a record. More. |\\n")
    [{'id': 'C8.0', 'rule': 'C8.0', 'section': 'ASL C8', 'summary': 'Keep a record.'}]
    """
    section = ""
    found: list[dict[str, str | None]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            section = re.sub(r"\s*\([^)]*\.txt\)\s*$", "", line[3:]).strip()
            continue
        match = _ROW.match(line)
        if match is None or match.group(1) == "ID":
            continue
        first = _SENTENCE.split(match.group(2).strip(), maxsplit=1)[0]
        summary = OWN_WORDS.get(match.group(1), first)
        cid = match.group(1)
        found.append(
            {"id": cid, "rule": rule_number(cid, section), "section": section, "summary": summary}
        )
    return found


def generate(source: Path = CLAUSES_MD) -> str:
    return json.dumps(summaries(source.read_text(encoding="utf-8")), indent=1) + "\n"


def main(argv: list[str]) -> int:
    if not CLAUSES_MD.is_file():
        print(f"clause_summaries: {CLAUSES_MD} is not present", file=sys.stderr)
        return 2
    text = generate()
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != text:
            print(
                f"clause_summaries: {OUT} is stale; run scripts/clause_summaries.py",
                file=sys.stderr,
            )
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(json.loads(text))} clauses to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
