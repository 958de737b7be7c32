"""The AI sides' tokens, one file for the web table and the command line (game/ai_tokens.py)
(SYS.record)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ordnance.core.errors import BadInput
from ordnance.game.ai_tokens import AI_TOKENS, AiTokenError, AiTokens
from ordnance.game.errors import answer_of


@pytest.mark.clause("SYS.record")
def test_two_processes_sharing_the_file_keep_what_the_other_wrote(tmp_path: Path) -> None:
    one, two = AiTokens.at(tmp_path), AiTokens.at(tmp_path)  # a folder: the file in it
    assert one.path == tmp_path / AI_TOKENS
    one.put("g1", "german", "t1")
    two.put("g2", "american", "t2")  # merges g1 from the file, does not drop it
    one.put("g1", "american", "t3")  # and g2 again
    assert json.loads((tmp_path / AI_TOKENS).read_text()) == {
        "g1": {"german": "t1", "american": "t3"},
        "g2": {"american": "t2"},
    }
    one.put("g3", "german", "t4")
    assert two.sides("g3") == {"german": "t4"}  # a game it does not know: the file read again
    assert AiTokens.at(tmp_path).sides("g1") == {"german": "t1", "american": "t3"}
    assert (tmp_path / AI_TOKENS).stat().st_mode & 0o777 == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name != AI_TOKENS]  # no temporary left


@pytest.mark.clause("SYS.record")
def test_a_file_open_to_others_or_not_an_object_is_refused_and_left_as_it_is(
    tmp_path: Path,
) -> None:
    path = tmp_path / AI_TOKENS
    path.write_text('{"g1": {"german": "t1"}}')
    os.chmod(path, 0o644)
    with pytest.raises(BadInput, match="open to other users"):
        AiTokens(path)
    os.chmod(path, 0o600)
    path.write_text("[1, 2]")
    with pytest.raises(BadInput, match="not a JSON object"):
        AiTokens(path)
    path.write_text("{not json")
    with pytest.raises(BadInput, match="cannot be read"):
        AiTokens(path)
    assert path.read_text() == "{not json"


@pytest.mark.clause("SYS.record")
def test_a_file_that_cannot_be_written_is_the_servers_fault_and_names_the_file(
    tmp_path: Path,
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    tokens = AiTokens(blocked / AI_TOKENS)  # its folder is a file: nothing can be made there
    with pytest.raises(AiTokenError) as raised:
        tokens.put("g1", "german", "t1")
    assert str(raised.value).startswith(f"AI token file {blocked / AI_TOKENS}: cannot be written")
    assert answer_of(raised.value).status == 503


def test_in_memory_tokens_need_no_file() -> None:
    tokens = AiTokens(None)
    tokens.put("g1", "german", "t1")
    assert tokens.sides("g1") == {"german": "t1"} and tokens.sides("g2") == {}
