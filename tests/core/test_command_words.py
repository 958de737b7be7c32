"""Reading a game command's words through the Click commands of a ruleset's command table.

What the hand-written reader did, the table still does: verb in any case, options in any
order, repeated options collected, a flag without a value, every slip one BadInput naming the
command, and the canonical text read back to the same command.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.game.commands import COMMANDS as ASL
from ordnance.asl.game.commands import parse_command as asl
from ordnance.core.command_words import (
    CommandTable,
    Option,
    Positional,
    Verb,
    split_words,
    whole_number,
)
from ordnance.core.errors import BadInput
from ordnance.lnl.game.commands import COMMANDS as LNL
from ordnance.lnl.game.commands import parse_command as lnl
from ordnance.vv.game.commands import COMMANDS as VV
from ordnance.vv.game.commands import parse_command as vv

PARSERS = {"asl": asl, "lnl": lnl, "vv": vv}


def refused(parse, words: str) -> str:
    with pytest.raises(BadInput) as caught:
        parse("german", shlex.split(words))
    return str(caught.value)


@pytest.mark.parametrize(
    ("game", "words", "args", "text"),
    [
        (
            "asl",
            "FIRE pak --drm -1 --ammo apcr --drm 2 --to-hit 7",
            {"unit": "pak", "ammo": "APCR", "to_hit": 7, "drms": [-1, 2]},
            "fire pak --ammo APCR --to-hit 7 --drm -1 --drm 2",
        ),
        ("asl", "mark pz4 --bu --motion", {"bu": True, "motion": True, "ce": False}, None),
        ("asl", "move pz4 --to 4j3 --to 4j4", {"to": ["4J3", "4J4"], "dest": None}, None),
        ("asl", "phase NEXT", {}, "phase next"),
        ("lnl", "choose e5", {"hex": "E5"}, "choose E5"),
        ("lnl", "move sq1 --to c3 --to c4", {"unit": "sq1", "to": ["C3", "C4"]}, None),
        ("lnl", "pass", {}, "pass"),
        (
            "vv",
            "fire a,b --leader lt --at e5 --weapons GUN,ffmg",
            {"units": ["a", "b"], "at": "E5", "leader": "lt", "weapons": ["gun", "ffmg"]},
            "fire a,b --at E5 --weapons gun,ffmg --leader lt",
        ),
        ("vv", "assign-cp --auto", {"auto": True, "allocations": []}, "assign-cp --auto"),
        ("vv", "move jeep --facing ne --to c8", {"to": "C8", "facing": "NE"}, None),
    ],
)
def test_words_read_into_the_same_arguments_and_canonical_text(game, words, args, text):
    command = PARSERS[game]("german", shlex.split(words))
    assert {key: command.args[key] for key in args} == args
    if text is not None:
        assert command.text == text
    again = PARSERS[game]("german", shlex.split(command.text))
    assert again == command


def test_the_arguments_keep_the_order_stored_commands_have():
    # ASL and LnL: the unit first; V&V: the options first (as the hand-written reader had it).
    assert list(asl("g", ["grenades", "pz4"]).args) == ["unit"]
    assert list(lnl("g", ["mg", "pz4", "--at", "E3"]).args) == ["unit", "at"]
    assert list(vv("g", ["rally", "a", "--leader", "lt"]).args) == ["leader", "units"]
    assert list(vv("g", ["assign-cp", "a:pin"]).args) == ["auto", "allocations"]


@pytest.mark.parametrize(
    ("game", "words", "fault"),
    [
        ("asl", "", "empty; one of phase, fire"),
        ("asl", "shoot pak", "unknown command; one of phase, fire"),
        ("asl", "dispence m24", "unknown command, did you mean 'dispense'?"),
        ("lnl", "smoke-shel pz4 --at E3", "did you mean 'smoke-shell'?"),
        ("vv", "asign-cp --auto", "did you mean 'assign-cp'?"),
        ("asl", "fire pak", "fire needs --ammo"),
        ("asl", "fire --ammo AP", "fire needs a unit id"),
        ("asl", "fire pak --ammo AP --to-hit", "--to-hit needs a value"),
        ("asl", "fire pak --ammo AP --ammo HE", "--ammo given twice"),
        ("asl", "fire pak --amo AP", "unknown option '--amo' for fire, did you mean '--ammo'?"),
        ("asl", "man pak --ce", "unknown option '--ce' for man; known: none"),
        ("asl", "fire pak --ammo AP --help", "unknown option '--help' for fire"),
        ("asl", "fire pak extra --ammo AP", "unexpected word(s) extra after fire"),
        ("asl", "fire pak --ammo AP --drm one", "bad number 'one'"),
        ("asl", "phase later", "the only phase command is 'phase next'"),
        ("asl", "phase", "the only phase command is 'phase next'"),
        ("lnl", "phase", "phase needs a step"),
        ("lnl", "move sq1", "move needs --to"),
        ("vv", "fire a", "fire needs --at"),
        ("vv", "fire --at E5", "fire needs unit ids"),
        ("vv", "fire a,,b --at E5", "expected unit ids separated by commas"),
        ("vv", "rally a,b", "rally one unit at a time"),
        ("vv", "assign-cp", "give UNIT:ACTION allocations or --auto"),
        ("vv", "assign-cp a:pin --auto", "give UNIT:ACTION allocations or --auto"),
    ],
)
def test_every_slip_is_one_bad_input(game, words, fault):
    line = refused(PARSERS[game], words)
    assert fault in line and "\n" not in line


def test_a_table_builds_one_click_command_per_verb_with_help_for_every_option():
    for table in (ASL, LNL, VV):
        assert set(table.commands) == set(table.verbs)
        for name, verb in table.verbs.items():
            assert verb.help, name
            assert all(option.help for option in verb.options.values()), name
            names = {opt for p in table.commands[name].params for opt in p.opts}
            assert set(verb.options) <= names


def test_a_hand_made_table():
    table = CommandTable(
        {
            "hold": Verb("Hold.", Positional("unit", "UNIT", "a unit")),
            "roll": Verb(
                "Roll.",
                None,
                {"--drm": Option("drms", whole_number, repeats=True, help="A DRM.")},
            ),
        }
    )
    assert table.read(["Roll", "--drm", "-2", "--drm=3"]) == ("roll", {"drms": [-2, 3]})
    assert table.read(["hold", "a"]) == ("hold", {"unit": "a"})
    assert table.suggestion("rol") == "roll" and table.suggestion("zzz") is None
    with pytest.raises(BadInput, match="unknown command; one of hold, roll"):
        table.read(["zzz"])


def test_words_read_again_come_from_the_cache_as_fresh_copies():
    first = asl("german", ["move", "pz4", "--to", "4J3"])
    first.args["to"].append("4J4")  # a caller that changes its copy changes no other
    again = asl("german", ["move", "pz4", "--to", "4J3"])
    assert again.args["to"] == ["4J3"] and again.text == "move pz4 --to 4J3"
    assert ("move", "pz4", "--to", "4J3") in ASL._read


@pytest.mark.clause("SYS.record")
@given(st.text(alphabet=st.sampled_from(list(" \t\n'\"\\ab-,=é\x0b")), max_size=30) | st.text())
def test_split_words_reads_as_shlex_does(text):
    """The plain-text shortcut of split_words reads every text as shlex.split does (or
    refuses it as shlex does)."""
    try:
        expected = shlex.split(text)
    except ValueError:
        with pytest.raises(ValueError):
            split_words(text)
        return
    assert split_words(text) == expected
