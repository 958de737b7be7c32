"""The project paraphrases the rule texts and cites them; it never ships their sentences.

A run of ten words in a row from any text in ../shared/rules counts as a copied sentence. Skipped
when ../shared is not beside the checkout.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "rules"
CHECKED = {".py", ".md", ".txt", ".toml", ".yaml", ".yml", ".html", ".json", ".j2"}
RUN = 10


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs(words: list[str]) -> set[str]:
    return {" ".join(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


@pytest.mark.skipif(not RULES.is_dir(), reason="../shared/rules is not beside the checkout")
def test_no_file_repeats_a_rule_sentence():
    rule_runs: set[str] = set()
    for text in RULES.glob("*.txt"):
        rule_runs |= _runs(_words(text.read_text(errors="replace")))
    assert len(rule_runs) > 1000  # the rule texts were read
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    copied = [
        name
        for name in listed
        if Path(name).suffix in CHECKED
        and (ROOT / name).is_file()
        and _runs(_words((ROOT / name).read_text(errors="replace"))) & rule_runs
    ]
    assert copied == []
