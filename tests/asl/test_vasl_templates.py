"""The vasl-templates bridge and importer, against hand-made values and the real counter data."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ordnance.asl.capabilities import AmmoContext, evaluate
from ordnance.asl.dates import ScenarioDate, Theater
from ordnance.asl.notation import Token
from ordnance.asl.vasl_templates import (
    VaslData,
    VaslToken,
    load,
    load_entries,
    roster,
    roster_groups,
    token_from_literal,
    token_from_vasl,
    token_to_literal,
    token_to_vasl,
)
from ordnance.core.errors import BadInput

# Counts of the real data (../shared/data/vasl-templates, commit 786f35be), computed once.
ENTRIES = 1448
ENTRIES_WITH_CAPABILITIES = 711  # raw entries with a capabilities2 or capabilities field
TOKENS = 1221  # capability tokens written in the files: capabilities2 less LF, plus literals
LF_KEYS = 51
TOKENS_AFTER_COPY_FROM = 1315  # tokens on all entries once copy_from is applied
ENTRIES_WITH_TOKENS = 723  # entries with at least one token once copy_from is applied
FAMILY_COUNTS = {
    "s": 321,
    "sD": 158,
    "WP": 137,
    "H": 118,
    "A": 113,
    "C": 85,
    "sM": 84,
    "AP": 79,
    "HE": 57,
    "IR": 29,
    "D": 16,
    "sN": 14,
    "sP": 10,
}


def ctx(date: str, **kwargs: Any) -> AmmoContext:
    return AmmoContext(ScenarioDate.parse(date), **kwargs)


@cache
def loaded(directory: Path) -> VaslData:
    return load(directory)


def raw_records(directory: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every entry as written, read here independently of the importer."""
    for path in sorted(directory.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, list):
            for record in data:
                yield str(path.relative_to(directory)), record
            continue
        for value in data.values():
            if isinstance(value, dict):
                for records in value.values():
                    for record in records:
                        yield str(path.relative_to(directory)), record


def raw_values(directory: Path) -> Iterator[tuple[str, Any]]:
    for _, record in raw_records(directory):
        for key, value in record.get("capabilities2", {}).items():
            if key != "LF":
                yield key, value


def raw_literals(directory: Path) -> Iterator[str]:
    for _, record in raw_records(directory):
        yield from record.get("capabilities", [])


def by_name(entries, name: str, nationality: str):
    matches = [e for e in entries if e.name == name and e.nationality == nationality]
    assert len(matches) == 1, matches
    return matches[0]


# --- the bridge, on hand-made values ---------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "canonical"),
    [
        ("sD", 7, "sD7"),
        ("s", "6", "s6"),
        ("s", "8†", "s8!"),
        ("H", "6[9]†", "H6[9]!"),
        ("AP", "9†<sup>1</sup>", "AP9!1"),
        ("A", [[5, 4], [6, 5]], "A5(4)/6(5)"),
        ("A", [[4, "A4"], [5, 5], "†<sup>2</sup>"], "A4(A4)/5(5)!2"),
        ("H", [["6[9]", "3+"], "†"], "H6[9](3+)!"),
        ("H", [["7", "3+"]], "H7(3+)"),
        ("s", [["6", "J4+"], "†"], "s6(J4+)!"),
        ("HE", [None, "4+"], "HE(4+)"),
        ("IR", [[None, "2+"], "†"], "IR(2+)!"),
        ("IR", [[None, "2+"], "†<sup>1</sup>"], "IR(2+)!1"),
        ("s", [None, "†<sup>2</sup>"], "s!2"),
        ("A", ["†<sup>1</sup>"], "A!1"),
        ("D", ["†"], "D!"),
        ("C", [[10, "P"], "†<sup>1</sup>"], "C10(P)!1"),
        ("s", [[5, "1-2R"], "†"], "s5(1-2R)!"),
        ("C", [[7, "CS"], "†"], "C7(CS)!"),
        ("AP", [[6, "44-"]], "AP6(44-)"),
        ("WP", [[6, "M51+"], "†<sup>3</sup>"], "WP6(M51+)!3"),
        ("D", [[4, "J4+E"], "†"], "D4(J4+E)!"),
        ("sN", [[7, 4], [8, 5]], "sN7(4)/8(5)"),
        ("A", [[5, "4"]], "A5(4)"),
        ("A", [], "A"),
    ],
)
def test_values_bridge_to_tokens_and_back_exactly(key: str, value: Any, canonical: str) -> None:
    token = token_from_vasl(key, value)
    assert str(token) == canonical
    assert token == Token.parse(canonical) and hash(token) == hash(Token.parse(canonical))
    back = token_to_vasl(token)
    assert back == value
    assert json.dumps(back) == json.dumps(value)  # the exact JSON types, "6" is not 6


def test_plain_tokens_take_the_plain_spelling() -> None:
    assert token_to_vasl(Token.parse("s6")) == 6
    assert token_to_vasl(Token.parse("H7(3+)")) == [[7, "3+"]]
    assert token_to_vasl(Token.parse("HE(4+)")) == [[None, "4+"]]
    assert token_to_vasl(Token.parse("A!1")) == ["†<sup>1</sup>"]
    assert token_to_vasl(Token.parse("s8!")) == "8†"
    assert isinstance(token_from_vasl("s", 6), VaslToken)
    assert repr(token_from_vasl("s", "6")) == "Token.parse('s6')"


@pytest.mark.parametrize(
    ("literal", "canonical"),
    [
        ("C7†<sup>2</sup>", "C7!2"),
        ("AP9<sup>75</sup>†", "AP9(cal75)!"),
        ("H†", "H!"),
        ("IR", "IR"),
        ("s†", "s!"),
        ("s7†", "s7!"),
        ("AP4†<sup>1</sup>", "AP4!1"),
        ("A5<sup>4</sup>/6<sup>5</sup>", "A5(4)/6(5)"),
    ],
)
def test_literal_capabilities_read_as_tokens(literal: str, canonical: str) -> None:
    token = token_from_literal(literal)
    assert str(token) == canonical
    assert token_to_literal(token) == literal


@pytest.mark.parametrize(
    ("key", "value", "fault"),
    [
        ("LF", [], "alternate gun statistics"),
        ("Q", 5, "not a capability symbol"),
        ("s", True, "expected a number"),
        ("s", {"x": 1}, "expected a number"),
        ("A", [[5]], "expected [number, date] steps"),
        ("A", [[5, None]], "a step's date"),
        ("A", [[5.5, 4]], "a step's number"),
        ("A", [None, "4+", "5"], "after a bare null"),
        ("A", [[13, 4]], "numbers are 1 to 12"),
        ("s", "abc", "bad vasl-templates value"),
    ],
)
def test_bad_values_are_bad_input(key: str, value: Any, fault: str) -> None:
    with pytest.raises(BadInput, match=fault.replace("[", r"\[")):
        token_from_vasl(key, value)


def test_a_bad_literal_is_bad_input() -> None:
    with pytest.raises(BadInput, match="vasl-templates capability"):
        token_from_literal("Z7†")


# --- the real data -----------------------------------------------------------------------------


def test_every_entry_is_read(vasl_templates: Path) -> None:
    records = list(raw_records(vasl_templates))
    assert len(records) == ENTRIES
    assert sum(1 for _, r in records if "capabilities2" in r or "capabilities" in r) == (
        ENTRIES_WITH_CAPABILITIES
    )
    entries = loaded(vasl_templates).entries
    assert len(entries) == ENTRIES
    assert {e.kind for e in entries} == {"vehicle", "ordnance"}
    assert all(e.name and e.id and e.source for e in entries)


@pytest.mark.clause("C8.0")
def test_capability_token_counts(vasl_templates: Path) -> None:
    values = list(raw_values(vasl_templates))
    literals = list(raw_literals(vasl_templates))
    assert len(values) + len(literals) == TOKENS
    lf = sum(1 for _, r in raw_records(vasl_templates) if "LF" in r.get("capabilities2", {}))
    assert lf == LF_KEYS
    families = Counter(token_from_vasl(k, v).family.value for k, v in values)
    families.update(token_from_literal(text).family.value for text in literals)
    assert dict(families) == FAMILY_COUNTS
    entries = loaded(vasl_templates).entries
    assert sum(len(e.tokens) for e in entries) == TOKENS_AFTER_COPY_FROM
    assert sum(1 for e in entries if e.tokens) == ENTRIES_WITH_TOKENS
    written = [e for e in entries if e.copy_from is None and not e.amends]
    assert sum(len(e.tokens) for e in written) == TOKENS


@pytest.mark.clause("C8.91", "D13.1")
def test_every_value_round_trips(vasl_templates: Path) -> None:
    for key, value in raw_values(vasl_templates):
        token = token_from_vasl(key, value)
        text = str(token)
        assert str(Token.parse(text)) == text
        assert Token.parse(text) == token
        assert Token.parse(token.display()) == token
        back = token_to_vasl(token)
        assert json.dumps(back) == json.dumps(value), (key, value)
        # The plain token's spelling differs at most in the details VaslStyle keeps.
        assert token_from_vasl(key, token_to_vasl(Token.parse(text))) == token


def test_every_literal_round_trips(vasl_templates: Path) -> None:
    for literal in raw_literals(vasl_templates):
        token = token_from_literal(literal)
        assert str(Token.parse(str(token))) == str(token)
        assert token_to_literal(token) == literal


@pytest.mark.clause("C8.91", "C8.1-date", "C8.8", "D13.34")
@pytest.mark.parametrize(
    ("name", "nationality", "tokens"),
    [
        ("5cm PaK 38", "german", ["A5(1)/6(2)/5(3)/4(4)"]),
        ("3.7cm PaK 35/36", "german", ["A4(1)/5(2)/4(3)/3(4)", "H6[9]!"]),
        ("T-34/85", "russian", ["A5(4)/6(5)", "sD6!"]),
        ("OQF 17-Pounder", "british", ["HE8(J4+)!", "D5(S4)/6(5)!"]),
        ("M4A1(76)W", "american", ["A4(A4)/5(5)!2", "s5(5)", "sM8"]),
        ("M10 GMC", "american", ["A5(A4E)/6(5E)!1", "s5(5)", "sP5"]),
        ("M4", "american", ["s5(J4+)", "WP7(J4+)!3", "sM5(4+)"]),
        ("B1-bis", "french", ["AP9(cal75)!"]),
        ("JgdPz IV", "german", ["A4(4)", "HE7", "s7", "sN7(4)/8(5)"]),
        ("Churchill IV", "british", ["HE7(F3)/8(4+)!1", "D6(J4)/7(5)!2", "sD6(4+)", "sM8!3"]),
        ("Stuart III(a)", "british", ["HE(4+)", "C6(4+)!1", "sD5"]),
        ("OML 2-in. Mortar", "british", ["s7", "IR(2+)!"]),
        ("M3A1 37mm AT Gun", "american", ["C7(A2+)!1"]),
    ],
)
def test_spot_checks(vasl_templates: Path, name: str, nationality: str, tokens: list[str]) -> None:
    entry = by_name(loaded(vasl_templates).entries, name, nationality)
    assert [str(t) for t in entry.tokens] == tokens


def test_copy_from_inherits_then_overrides(vasl_templates: Path) -> None:
    entries = {e.id: e for e in loaded(vasl_templates).entries if not e.amends}
    copy = entries["ff/v:016"]  # Free French M10 GMC, copied from the American one
    assert copy.copy_from == "am/v:024"
    assert (copy.name, copy.tokens) == (entries["am/v:024"].name, entries["am/v:024"].tokens)
    assert copy.nationality == "free-french" and copy.kind == "vehicle"
    renamed = entries["ff/o:002"]  # copies a French mortar under its own name
    assert renamed.name == "Mortier de 60 mle 35(f)"
    assert renamed.name != entries["fr/o:001"].name


def test_extension_records_that_reuse_an_id_amend_the_entry(vasl_templates: Path) -> None:
    entries = loaded(vasl_templates).entries
    amending = [e for e in entries if e.amends]
    assert sorted(e.id for e in amending) == ["ru/v:004", "ru/v:078"]
    for amendment in amending:
        base = next(e for e in entries if e.id == amendment.id and not e.amends)
        assert (amendment.name, amendment.tokens) == (base.name, base.tokens)
        assert amendment.source == "extensions/kgs-v1.1.json#russian"
    units = roster(vasl_templates, "russian", ctx("1942-06")).units
    assert [u.id for u in units].count("ru/v:078") == 1


def test_nationalities_come_from_file_names_and_extension_keys(vasl_templates: Path) -> None:
    data = loaded(vasl_templates)
    where = {(e.source, e.nationality) for e in data.entries}
    assert ("vehicles/allied-minor/common.json", "allied-minor") in where
    assert ("ordnance/axis-minor/romanian.json", "romanian") in where
    assert ("vehicles/russian.lend-lease.json", "russian") in where
    assert ("vehicles/kfw/us-rok-ounc.json", "us-rok-ounc") in where
    assert ("ordnance/kfw/cpva.json", "cpva") in where
    assert ("extensions/bfp-bj-v403.json#british~anzac", "anzac") in where
    assert ("extensions/bfp-bj-v403.json#thai", "thai") in where
    assert data.parents["new-zealand"] == "british" and data.parents["gmd"] == "chinese"
    assert data.minors["polish"] == "allied-minor" and data.minors["romanian"] == "axis-minor"


@pytest.mark.clause("C8.0", "C8.91")
def test_german_roster_in_june_1944(vasl_templates: Path) -> None:
    ruling = roster(vasl_templates, "German", ctx("1944-06"))
    assert ruling.nationality == "german" and ruling.groups == ("german",)
    assert len(ruling.units) == 160
    jagdpanzer = next(u for u in ruling.units if u.name == "JgdPz IV")
    readings = {c.ammo: (c.available, c.number) for c in jagdpanzer.capabilities}
    assert readings == {"APCR": (True, 4), "HE": (True, 7), "SMOKE": (True, 7), "sN": (False, None)}
    data = ruling.to_json()
    assert data["date"] == "1944-06"
    unit = data["units"][0]
    assert {"name", "id", "kind", "capabilities"} <= set(unit)
    assert unit["kind"] in {"vehicle", "ordnance"}
    assert any(c["available"] for u in data["units"] for c in u["capabilities"])
    assert "C8.0" in data["clauses"] and "160 units" in data["explanation"]


@pytest.mark.clause("C8.2-service")
def test_rosters_include_parent_common_and_korean_war_files(vasl_templates: Path) -> None:
    canadian = roster(vasl_templates, "canadian", ctx("1944-09"))
    assert canadian.groups == ("canadian", "british")
    assert "C8.2-service" in canadian.clauses
    assert any(u.nationality == "british" for u in canadian.units)
    polish = roster(vasl_templates, "polish", ctx("1939-09"))
    assert {u.nationality for u in polish.units} == {"polish", "allied-minor"}
    assert roster(vasl_templates, "american", ctx("1951-03")).groups == (
        "american",
        "us-rok-ounc",
        "un-common",
    )
    assert roster_groups("rok", ScenarioDate(1950, 7)) == ("rok", "us-rok-ounc", "un-common")


def test_roster_nation_flags_use_the_roster_nationality(vasl_templates: Path) -> None:
    # Axis-minor common counters carry R/S/CS flags; the roster's side decides them.
    for word in ("romanian", "slovakian", "croatian", "hungarian"):
        for unit in roster(vasl_templates, word, ctx("1941-07")).units:
            for capability in unit.capabilities:
                assert "nationality is not given" not in capability.explanation


def test_unknown_nationality_is_bad_input(vasl_templates: Path) -> None:
    with pytest.raises(BadInput, match="unknown nationality"):
        roster(vasl_templates, "klingon", ctx("1944-06"))


@pytest.mark.clause("C8.2-elite", "C8.9-scope", "D13.1")
def test_evaluation_never_raises_for_any_entry(vasl_templates: Path) -> None:
    entries = loaded(vasl_templates).entries
    theaters = (None, Theater.ETO, Theater.PTO, Theater.BURMA)
    for date in ("1939-09", "1941-06", "1944-06", "1944-07", "1945-05", "1951-03"):
        for theater in theaters:
            for elite in (False, True):
                for entry in entries:
                    context = ctx(date, elite=elite, theater=theater, nationality="american")
                    for token in entry.tokens:
                        capability = evaluate(token, context)
                        if token.family.is_dispenser:
                            assert capability.depletion_number is None
                        if capability.number is not None:
                            assert 1 <= capability.number <= 16
                        assert capability.explanation.endswith(".")


# --- bad directories and files ------------------------------------------------------------


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_missing_directory_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="no vehicles/ or ordnance/ folder"):
        load_entries(tmp_path / "nowhere")


def test_invalid_json_names_the_file(tmp_path: Path) -> None:
    write(tmp_path / "vehicles" / "german.json", '[{"id": "ge/v:000",]')
    with pytest.raises(BadInput, match=r"vehicles/german\.json.*invalid JSON at line 1"):
        load_entries(tmp_path)


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ('{"id": "x"}', "expected a list of entries"),
        ('[{"name": "no id"}]', "an entry without an id"),
        ('[{"id": "a", "copy_from": "zz"}]', "entry a: copy_from names no entry"),
        ('[{"id": "a", "capabilities2": {"A": [[5]]}}]', "entry a: .*expected"),
        ('[{"id": "a", "capabilities": ["Q7"]}]', "entry a: .*capability"),
    ],
)
def test_bad_entries_name_the_file(tmp_path: Path, text: str, fault: str) -> None:
    write(tmp_path / "ordnance" / "german.json", text)
    with pytest.raises(BadInput, match=fault) as caught:
        load_entries(tmp_path)
    assert "ordnance/german.json" in str(caught.value)


def test_a_checkout_and_copy_from_loops(tmp_path: Path) -> None:
    data = tmp_path / "vasl_templates" / "webapp" / "data"
    write(
        data / "vehicles" / "german.json",
        '[{"id": "a", "name": "A", "capabilities2": {"sD": 7, "LF": [1]}},'
        ' {"id": "b", "copy_from": "a", "name": "B"}]',
    )
    write(data / "extensions" / "x.json", '{"extensionId": "x", "german": {"vehicles": []}}')
    entries = load_entries(tmp_path)
    assert [(e.name, [str(t) for t in e.tokens]) for e in entries] == [
        ("A", ["sD7"]),
        ("B", ["sD7"]),
    ]
    write(data / "ordnance" / "german.json", '[{"id": "c", "copy_from": "c"}]')
    with pytest.raises(BadInput, match="loops"):
        load_entries(tmp_path)
    write(data / "ordnance" / "german.json", "[]")
    write(data / "extensions" / "x.json", "[]")
    with pytest.raises(BadInput, match=r"extensions/x\.json"):
        load_entries(tmp_path)
