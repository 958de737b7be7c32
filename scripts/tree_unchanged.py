"""Run a command, then fail if it changed the git checkout: ``make test`` runs the suite so.

    python scripts/tree_unchanged.py -- make lint unit

Before and after the command, every path ``git status --porcelain`` lists (untracked files one
by one) is noted with a digest of its content, so a tree that was already dirty is compared
with itself: a file the command created, deleted or changed is reported, one per line, and the
exit code is 1 (or the command's own, when that failed). Files git ignores (``.venv``,
``site/``, caches) are not looked at. Outside a git checkout the command just runs, with a note.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path


def listing(root: Path) -> dict[str, str]:
    """Each path git reports as changed or untracked, with its status and content digest."""
    done = subprocess.run(
        ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        check=True,
    )
    found: dict[str, str] = {}
    records = iter(done.stdout.split(b"\0"))
    for record in records:
        if not record:
            continue
        status, name = record[:2].decode(), record[3:].decode("utf-8", "surrogateescape")
        if "R" in status or "C" in status:
            next(records, None)  # a rename's second name: where it came from
        path = root / name
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else "-"
        found[name] = f"{status} {digest}"
    return found


def _what(before: str | None, after: str | None) -> str:
    if before is None:
        return "new" if after is not None and after.startswith("??") else "changed"
    if after is None:
        return "deleted" if before.startswith("??") else "put back as committed"
    return "deleted" if after.endswith(" -") else "changed again"


def main(argv: list[str]) -> int:
    command = argv[1:] if argv[:1] == ["--"] else argv
    if not command:
        sys.stderr.write("usage: tree_unchanged.py -- COMMAND...\n")
        return 2
    root = Path.cwd()
    try:
        inside = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:  # no git on this machine
        inside = subprocess.CompletedProcess([], 1)
    if inside.returncode != 0:
        sys.stderr.write("tree check skipped: not a git checkout\n")
        return subprocess.run(command, check=False).returncode
    root = Path(inside.stdout.strip())
    before = listing(root)
    code = subprocess.run(command, check=False).returncode
    after = listing(root)
    names = before.keys() | after.keys()
    changed = sorted(name for name in names if before.get(name) != after.get(name))
    if changed:
        sys.stderr.write(f"the command changed {len(changed)} file(s) of the checkout:\n")
        for name in changed:
            sys.stderr.write(f"  {_what(before.get(name), after.get(name))}: {name}\n")
        return code or 1
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
