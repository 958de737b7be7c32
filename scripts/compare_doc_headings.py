"""Check that every heading of the README before the documentation site is a heading in docs/.

The README was moved into the pages of docs/ (commit e4cc406 holds the last long README); a
heading that is in no page means a section was lost. Headings are compared by their text, at any
level, ignoring a trailing attribute list (``{#id}``); lines inside code blocks are not headings.

    python scripts/compare_doc_headings.py               # against e4cc406:README.md
    python scripts/compare_doc_headings.py --ref HEAD    # against another commit's README
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "e4cc406"
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{[^}]*\})?\s*$")


def headings(text: str) -> list[str]:
    """The headings of a Markdown text, outside fenced code blocks.

    >>> headings("# One\\n```\\n# not a heading\\n```\\n## Two {#two}\\n")
    ['One', 'Two']
    """
    found: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            mark = stripped[:3]
            if fence is None:
                fence = mark
            elif mark == fence:
                fence = None
            continue
        if fence is None:
            match = HEADING.match(line)
            if match:
                found.append(match.group(2))
    return found


def docs_headings(docs: Path) -> set[str]:
    """Every heading of every page under ``docs``."""
    return {h for page in docs.rglob("*.md") for h in headings(page.read_text(encoding="utf-8"))}


def missing(reference: str, docs: Path) -> tuple[list[str], int]:
    """The old README's headings found in no page, and how many headings it had."""
    old = subprocess.run(
        ["git", "show", f"{reference}:README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wanted = headings(old)
    have = docs_headings(docs)
    return [h for h in wanted if h not in have], len(wanted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default=REFERENCE, help="the commit whose README.md to check")
    args = parser.parse_args(argv)
    try:
        lost, total = missing(args.ref, ROOT / "docs")
    except subprocess.CalledProcessError as error:
        print(f"cannot read README.md at {args.ref}: {error.stderr.strip()}", file=sys.stderr)
        return 2
    for heading in lost:
        print(f"missing: {heading}")
    print(f"{len(lost)} of {total} README headings (at {args.ref}) missing from docs/")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
