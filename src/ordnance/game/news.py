"""What happened, one sentence per log entry, for every face that says it (web notice, log).

A command entry reads as who did what (the ``done`` words its game's command table gives the
verb, else the command's text), then what came of it: the dice, hit or miss when the ruling
says, and the ruleset's own sentences for the events the command caused
(:class:`~ordnance.core.ruleset.EventText`), less the one that only repeats the action (the
verb's ``echo``)::

    german pz4 fired AP at 4G5: DR 2,2 = 4, a hit; the side record: ...
    american a1 moved to C9 (2 MP)
    undo: american took back entry 5 (fire sherman --at E5)

Other entries (seeds, reveals, joins) read as :func:`~.entry_words.entry_words` says them.
Nothing here decides a rule: every word comes from the entry as it was stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ordnance.core.command_words import Verb
from ordnance.core.event_words import event_words, listed
from ordnance.core.ruleset import Event, Ruleset
from ordnance.game.entries import Entry
from ordnance.game.entry_words import entry_words
from ordnance.game.registry import spec_of

# At most this many sentences go into a page's notice after a push (the log holds the rest).
NEWS_SHOWN = 12

# A hex label as the bundled maps spell them (4G5, E5, AA10).
_HEX = re.compile(r"^[0-9]*[A-Z]{1,2}[0-9]+$")


def entry_sentence(
    entry: Entry, rules: Ruleset[Any] | None = None, log: Sequence[Entry] | None = None
) -> str:
    """One log entry as the sentence a player reads (``rules``: the game's ruleset, for its
    event sentences; ``log``: the game's log, for the command an undo took back).

    >>> from ordnance.game.entries import make_entry
    >>> from ordnance.game.registry import ruleset
    >>> body = {"command": {"side": "american", "verb": "move", "text": "move m10 --to 4F5",
    ...     "args": {"unit": "m10", "to": ["4F5"]}}, "rolls": [],
    ...     "events": [{"kind": "moved", "data": {"unit": "m10", "mp": 3}}], "ruling": {}}
    >>> moved = make_entry(5, "command", "american", body, "0" * 64)
    >>> entry_sentence(moved, ruleset("lnl"))  # the words of LnLT's command table
    'american m10 moved to 4F5 (3 MP)'
    >>> entry_sentence(moved)  # no ruleset: the command as it was given, and its events
    'american: move m10 --to 4F5; moved: mp 3, unit m10'
    >>> entry_sentence(make_entry(6, "undo", "american", {"undone": 5}, "0" * 64))
    'undo: american took back entry 5'
    """
    if entry.type == "command":
        return _command_sentence(entry.side or "", entry.body, rules)
    if entry.type == "undo":
        undone = int(entry.body["undone"])
        what = ""
        if log is not None:
            taken = next((e for e in log if e.seq == undone and e.type == "command"), None)
            if taken is not None:
                what = f" ({taken.body['command']['text']})"
        return f"undo: {entry.side} took back entry {undone}{what}"
    if entry.type == "reveal":
        seed = str(entry.body["seed"])
        return (
            f"server seed of epoch {entry.body['epoch']} revealed ({seed[:12]}...): every roll"
            " of that epoch can now be checked"
        )
    return entry_words(entry)


def news_since(
    log: Sequence[Entry], seen: int, rules: Ruleset[Any] | None = None, limit: int = NEWS_SHOWN
) -> list[str]:
    """The sentences of the entries a page at version ``seen`` has not shown (a game at
    version V holds entries 0 to V - 1), oldest first and newest last, at most ``limit`` (the
    newest ones, after a line saying how many earlier ones the log holds).

    >>> from ordnance.game.entries import make_entry
    >>> log = [make_entry(i, "undo", "german", {"undone": i - 1}, "0" * 64) for i in (1, 2, 3)]
    >>> news_since(log, 2, limit=1)
    ['(1 earlier entry in the log)', 'undo: german took back entry 2']
    """
    fresh = [e for e in log if e.seq >= seen]
    said = [entry_sentence(e, rules, log) for e in fresh[-limit:]] if limit > 0 else []
    left = len(fresh) - len(said)
    if left > 0:
        plural = "entry" if left == 1 else "entries"
        said.insert(0, f"({left} earlier {plural} in the log)")
    return said


def _command_sentence(side: str, body: Mapping[str, Any], rules: Ruleset[Any] | None) -> str:
    command = body["command"]
    verb = str(command.get("verb", ""))
    args: Mapping[str, Any] = command.get("args") or {}
    units = _units(args)
    events = [e for e in body.get("events", ()) if isinstance(e, Mapping)]
    told = _verb(rules, verb)
    echo = None if told is None else told.echo
    echoed = next((e for e in events if e.get("kind") == echo), None) if echo else None
    head = _headline(side, command, units, echoed, None if told is None else told.done)
    details = [_roll(r) for r in body.get("rolls", ())]
    ruling = body.get("ruling") or {}
    if ruling.get("hit") is True:
        details.append("a hit")
    elif ruling.get("hit") is False:
        details.append("a miss")
    said = [_event(e, rules) for e in events if e is not echoed]
    if details:
        # The dice and their result belong to the action: after a colon; what followed: after
        # semicolons.
        head = f"{head}: {', '.join(details)}"
    return "; ".join([head, *(s for s in said if s)])


def _verb(rules: Ruleset[Any] | None, verb: str) -> Verb | None:
    """The game's own entry for ``verb`` in its command table (None: no table, or no verb)."""
    helped = None if rules is None else spec_of(rules).commands(rules)
    return None if helped is None else helped.commands.verbs.get(verb)


def _headline(
    side: str,
    command: Mapping[str, Any],
    units: list[str],
    echoed: Mapping[str, Any] | None,
    template: str | None,
) -> str:
    verb = str(command.get("verb", ""))
    args: Mapping[str, Any] = command.get("args") or {}
    if template is None or ("{units}" in template and not units):
        return f"{side}: {command.get('text', verb)}"
    data: Mapping[str, Any] = (echoed or {}).get("data") or {}
    done = template.format(
        units=listed(units),
        ammo=f" {args['ammo']}" if args.get("ammo") else "",
        at=_where(" at ", args.get("at") or args.get("target") or data.get("target")),
        to=_where(" to ", args.get("to") or args.get("dest") or data.get("to") or data.get("hex")),
    )
    mp = data.get("mp")
    if isinstance(mp, int) and not isinstance(mp, bool):
        done += f" ({mp} MP)"
    elif isinstance(mp, Mapping) and mp:
        spent = set(mp.values())
        each = f"{next(iter(spent))} MP" if len(spent) == 1 else _pairs(mp)
        done += f" ({each})"
    if data.get("seen_by"):
        done += f", seen by {listed(data['seen_by'])}"
    return f"{side} {done}"


def _units(args: Mapping[str, Any]) -> list[str]:
    for key in ("units", "unit"):
        value = args.get(key)
        if isinstance(value, str) and value:
            return [value]
        if isinstance(value, list | tuple) and value:
            return [str(v) for v in value]
    return []


def _where(lead: str, value: object) -> str:
    """`` at 4G5`` for a hex (the last of a path), `` at a vehicle`` for a word, else ''."""
    if isinstance(value, list | tuple):
        value = value[-1] if value else None
    if not isinstance(value, str) or not value:
        return ""
    return f"{lead}{value}" if _HEX.match(value) else f"{lead}a {value}"


def _pairs(mp: Mapping[str, Any]) -> str:
    return ", ".join(f"{unit} {n} MP" for unit, n in mp.items())


def _roll(roll: Mapping[str, Any]) -> str:
    faces = [int(f) for f in roll.get("faces", ())]
    if len(faces) == 2:
        return f"DR {faces[0]},{faces[1]} = {sum(faces)}"
    return f"dr {','.join(str(f) for f in faces)}"


def _event(event: Mapping[str, Any], rules: Ruleset[Any] | None) -> str:
    kind, data = str(event.get("kind", "")), event.get("data") or {}
    teller = None if rules is None else spec_of(rules).event_text(rules)
    if teller is not None:
        text = teller.describe_event(Event(kind, data))
    else:
        text = event_words(kind, data)
    text = text.strip().rstrip(".")
    # Within a sentence: a lower-case start, unless it starts with a name or a number.
    if text[:2].istitle() and text.split(" ", 1)[0].lower() in _LOWER:
        text = text[0].lower() + text[1:]
    return text


# Sentence openings that read lower-case inside a longer sentence.
_LOWER = frozenset({"the", "no", "a"})


def sentences(log: Iterable[Entry], rules: Ruleset[Any] | None = None) -> list[tuple[int, str]]:
    """Each entry's seq and sentence, in the log's order."""
    entries = list(log)
    return [(e.seq, entry_sentence(e, rules, entries)) for e in entries]
