"""The documentation runs as written: every page is in the site's navigation, the command reference
is current, every `sh` code block runs and each command exits as the page says, every `>>>`
example passes, and the README is the short door into the site.

A command in a `sh` block must exit 0 unless the line ends with a comment `# exit N`. A block
right after `<!-- docs-test: skip (why) -->` is not run (a server, a second machine, data that is
not shipped). Each page's blocks run in order in one shell, in a fresh folder holding a link to
`examples/`, with its own database, key store and receipts, so a page may set a variable
(`GAME=...`) in one block and use it in the next. Each `ordnance` command there is a process of
its own, forked from one that has already imported the CLI (tests/forked_cli.py), which calls
what the installed `ordnance` script calls; ORDNANCE_DOCS_FORK=0 starts a fresh interpreter
for each instead.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from tests.forked_cli import ForkServer

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.rglob("*.md"))
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\s*\((?P<why>[^)]+)\)\s*-->")
EXPECTED_EXIT = re.compile(r"#\s*exit\s+(?P<code>\d+)\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<lang>[\w+-]*)")
RUN_LANG = "sh"


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    skip: str | None  # why it is not run


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, with the skip marker that precedes each, if any."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        start, indent, fence = index, len(match["indent"]), match["fence"]
        body: list[str] = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][indent:])
            index += 1
        before = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
        marker = SKIP.search(before)
        why = marker["why"] if marker else None
        found.append(Block(page, start + 1, match["lang"], "\n".join(body), why))
        index += 1
    return found


def commands(block: Block) -> list[tuple[int, str]]:
    """The block's shell lines (continuations joined), each with its line number in the page."""
    joined: list[tuple[int, str]] = []
    pending = ""
    first = 0
    for offset, raw in enumerate(block.text.splitlines()):
        line = raw.rstrip()
        if not pending:
            first = block.line + 1 + offset
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        if whole and not whole.startswith("#"):
            joined.append((first, whole))
    return joined


def script(page: Path) -> str:
    """A bash script that runs the page's `sh` blocks and stops at the first unexpected exit."""
    parts = ["set -u"]
    for block in blocks(page):
        if block.lang != RUN_LANG or block.skip is not None:
            continue
        for line_number, command in commands(block):
            expected = EXPECTED_EXIT.search(command)
            code = int(expected["code"]) if expected else 0
            where = f"{page.relative_to(ROOT)}:{line_number}"
            quoted = command.replace("'", "'\\''")
            parts.append(
                f"{{ {command}\n}}; rc=$?; if [ $rc -ne {code} ]; then "
                f"echo 'docs-test: {where}: exit '$rc', documented {code}: {quoted}' >&2; "
                "exit 99; fi"
            )
    return "\n".join(parts) + "\n"


RUNNABLE = [page for page in [README, *PAGES] if any(b.lang == RUN_LANG for b in blocks(page))]


def test_every_page_has_been_found():
    assert len(PAGES) >= 15
    assert len(RUNNABLE) >= 8


@pytest.mark.parametrize("doc", RUNNABLE, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_page_commands_exit_as_documented(
    doc: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "docs").mkdir()
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "ORDNANCE_DB": str(tmp_path / "games.sqlite3"),
        "ORDNANCE_KEYS": str(tmp_path / "keys"),
        "ORDNANCE_RECEIPTS": str(tmp_path / "receipts"),
        "COLUMNS": "100",
    }
    env.pop("ORDNANCE_TOKEN", None)
    server = None
    if os.environ.get("ORDNANCE_DOCS_FORK", "1") != "0":
        # Each `ordnance` line forks from a process with the CLI imported (tests/forked_cli.py);
        # ORDNANCE_DOCS_FORK=0 starts a fresh interpreter for each instead.
        server = ForkServer(tmp_path_factory.mktemp("fork"), env)
        env["PATH"] = f"{server.bin_dir}{os.pathsep}{env['PATH']}"
    try:
        done = subprocess.run(
            ["bash", "-c", script(doc)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    finally:
        if server is not None:
            server.close()
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
    assert done.returncode == 0, tail


def test_every_command_block_is_run_or_says_why_not():
    """A command shown outside a `sh` block would escape the check above."""
    stray = [
        f"{block.page.relative_to(ROOT)}:{block.line}"
        for page in [README, *PAGES]
        for block in blocks(page)
        if block.lang in {"", "bash", "shell", "console"}
        and any(line.lstrip().startswith("ordnance ") for line in block.text.splitlines())
    ]
    assert stray == []


def test_a_skipped_block_says_why():
    skipped = [block for page in PAGES for block in blocks(page) if block.skip is not None]
    assert skipped, "the skip marker is used (serve, two machines, vasl-templates data)"
    assert all(len(block.skip or "") > 5 for block in skipped)


def test_examples_in_the_pages_run():
    attempted = 0
    for page in [README, *PAGES]:
        if ">>> " not in page.read_text(encoding="utf-8"):
            continue
        results = doctest.testfile(str(page), module_relative=False)
        assert results.failed == 0, page
        attempted += results.attempted
    assert attempted >= 8


def _nav_pages(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in _nav_pages(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in _nav_pages(value)]
    return []


def test_every_page_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = _nav_pages(config["nav"])
    pages = [str(page.relative_to(DOCS)) for page in PAGES]
    assert sorted(set(pages) - set(listed)) == []
    assert sorted(set(listed) - set(pages)) == []
    assert len(listed) == len(set(listed))


def test_the_command_reference_is_generated_from_the_cli():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_cli_reference.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    for command in ("asl ammo", "game do", "map los", "vv odds", "lnl shell"):
        assert f"`ordnance {command}`" in text


def test_the_readme_opens_with_the_two_commands_and_stays_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150
    opening = "\n".join(lines[:10])
    assert "make run" in opening
    assert "make test" in opening
    assert "This release covers" not in "\n".join(lines)


def test_the_readme_links_only_to_pages_that_exist():
    text = README.read_text(encoding="utf-8")
    linked = re.findall(r"\]\((docs/[^)#]+)", text)
    assert linked
    assert [link for link in linked if not (ROOT / link).is_file()] == []


def test_no_heading_of_the_old_readme_was_lost():
    """The long README (commit e4cc406) moved into docs/: each of its headings is on some page."""
    known = subprocess.run(
        ["git", "cat-file", "-e", "e4cc406:README.md"], cwd=ROOT, capture_output=True, check=False
    )
    if known.returncode != 0:
        pytest.skip("the commit of the long README is not in this checkout's history")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "compare_doc_headings.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("0 of ")
