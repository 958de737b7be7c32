"""Clause IDs on the table page link to their one-line summary on /clauses (core/clauses.json,
which ``ordnance rules`` reads too)."""

from __future__ import annotations

import html
import importlib.util
import re
import sys
from pathlib import Path

import pytest
from tests.web.conftest import create_game, csrf_of, version_of

from ordnance.core import clauses as data
from ordnance.web import clauses

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]
CLAUSES_MD = ROOT.parent / "shared" / "rules" / "CLAUSES.md"
RULESETS = ("asl", "lnl", "vv", "game", "core")
# A clause ID as the rulesets write it in a string (B.* are rule cross-references, not citations).
CITED = re.compile(
    r"""["'](C8\.[A-Za-z0-9.\-]+|D13\.[A-Za-z0-9.\-]+|(?:VV|LNL|SYS)\.[A-Za-z0-9\-]+)["']"""
)


def _script():
    path = ROOT / "scripts" / "clause_summaries.py"
    spec = importlib.util.spec_from_file_location("clause_summaries", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["clause_summaries"] = module
    spec.loader.exec_module(module)
    return module


def test_the_committed_summaries_match_the_inventory():
    if not CLAUSES_MD.is_file():
        pytest.skip("../shared/rules/CLAUSES.md is not present")
    assert data.DATA.read_text(encoding="utf-8") == _script().generate(CLAUSES_MD)


def test_every_clause_id_a_ruling_can_cite_resolves():
    source = ROOT / "src" / "ordnance"
    cited = {
        m.group(1)
        for ruleset in RULESETS
        for file in (source / ruleset).rglob("*.py")
        for m in CITED.finditer(file.read_text(encoding="utf-8"))
    }
    assert len(cited) > 40  # the sources were read
    assert sorted(c for c in cited if clauses.anchor(c) is None) == []


def test_a_rulings_clause_links_to_the_clauses_page_which_lists_it(client):
    game, links, _ = create_game(client, "vv-hedgerow-ambush", ai="german")
    page = client.get(links["american"])
    base = f"/games/{game}/american"
    csrf = csrf_of(page.text)
    # A refusal links its clause (no AP fire in the command phase).
    refused = client.post(
        f"{base}/do",
        data={"csrf": csrf, "version": version_of(page.text), "action": "fire a1 --at E5"},
    )
    assert refused.status_code == 409
    assert 'href="/clauses#VV.AP-phases">what VV.AP-phases says</a>' in refused.text
    client.post(
        f"{base}/do",
        data={"csrf": csrf, "version": version_of(page.text), "action": "phase next"},
    )
    v = version_of(client.get(base).text)
    fired = client.post(
        f"{base}/do", data={"csrf": csrf, "version": v, "action": "fire a1,a2,sgt --at E5"}
    )
    assert '<a class="clause" href="/clauses#VV.AP-resolve"><code>VV.AP-resolve</code></a>' in (
        fired.text
    )
    listing = client.get("/clauses")
    assert listing.status_code == 200
    assert '<dt id="VV.AP-resolve">V&amp;V r. 14.5 <code>VV.AP-resolve</code></dt>' in listing.text
    summary = next(r.summary for r in clauses.clauses() if r.id == "VV.AP-resolve")
    assert html.escape(summary, quote=False) in listing.text.replace("&#39;", "'").replace(
        "&#34;", '"'
    )
