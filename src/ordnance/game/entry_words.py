"""One log entry in words, for every face that lists a game's log (CLI and web table)."""

from __future__ import annotations

from ordnance.game.entries import Entry


def entry_words(entry: Entry) -> str:
    """What one log entry records, in a short sentence (rulings are worded by their ruleset).

    >>> from ordnance.game.entries import make_entry
    >>> entry_words(make_entry(3, "undo", "german", {"undone": 2}, "0" * 64))
    'german took back entry 2'
    >>> command = {"command": {"text": "fire pak --ammo AP"},
    ...     "rolls": [{"purpose": "To Hit DR (AP) for pak", "faces": [2, 3]}]}
    >>> entry_words(make_entry(4, "command", "german", command, "0" * 64))
    'german: fire pak --ammo AP; To Hit DR (AP) for pak: 2,3'
    """
    body = entry.body
    if entry.type == "command":
        rolls = "".join(
            f"; {r['purpose']}: {','.join(str(f) for f in r['faces'])}" for r in body["rolls"]
        )
        return f"{entry.side}: {body['command']['text']}{rolls}"
    if entry.type == "undo":
        return f"{entry.side} took back entry {body['undone']}"
    if entry.type == "seed":
        return f"{entry.side} adds a seed to epoch {body['epoch']}"
    if entry.type == "consent":
        return f"{entry.side} agrees to reveal the seed of epoch {body['epoch']}"
    if entry.type == "reveal":
        return f"server seed of epoch {body['epoch']} revealed: {body['seed']}"
    if entry.type == "resume":
        epoch = f"epoch {body['epoch']} begins" if "epoch" in body else "the game moves"
        return f"{epoch} ({body['reason']}; key {body.get('signer', {}).get('fingerprint')})"
    if entry.type == "join":
        return f"{entry.side} joins with key {body['signer']['fingerprint']}"
    if entry.type == "propose":
        return (
            f"{entry.side} proposes '{body['command']['text']}' (it rolls: waiting for the other"
            " side's entropy)"
        )
    if entry.type == "answer":
        return f"{entry.side} answers proposal {body['proposal']} with fresh entropy"
    if entry.type == "refused":
        return f"{entry.side}: '{body['command']['text']}' refused once rolled: {body['reason']}"
    scenario = body["scenario"]
    return f"game {body['game']} starts: {scenario['name']} ({scenario['ruleset']})"
