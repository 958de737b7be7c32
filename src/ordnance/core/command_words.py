"""A game's command table, and the words of one command read through Click.

Each ruleset declares its commands once, as a :class:`CommandTable` of :class:`Verb` values
(what the verb names first, its ``--options`` in canonical order, which of them it cannot do
without, a line of help for each). From that table this module builds one Click command per
verb: the game service reads a command's words with it (:meth:`CommandTable.read`), and
``ordnance game do GAME ... fire --help`` prints its help (:meth:`CommandTable.group`). A
player sees the same sentences for the same slips (an unknown option, one given twice, a
missing value, a mistyped verb) in every game, always as one :class:`BadInput`.

>>> table = CommandTable(
...     {
...         "fire": Verb(
...             "Fire a unit.",
...             Positional("unit", "UNIT", "a unit id"),
...             {
...                 "--at": Option("at", label, help="The hex fired at."),
...                 "--drm": Option("drms", whole_number, repeats=True, help="A DRM."),
...             },
...             required=("--at",),
...         )
...     }
... )
>>> verb, args = table.read(["fire", "a", "--drm", "-1", "--at", "e5"])
>>> verb, args, option_words(table.verbs[verb].options, args)
('fire', {'unit': 'a', 'at': 'E5', 'drms': [-1]}, ['--at', 'E5', '--drm', '-1'])
>>> table.read(["fier", "a"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad command 'fier a': unknown command, did you mean 'fire'? ...
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from ordnance.core.cached import cached_property
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_NUMBER
from ordnance.core.limits import whole_number as _whole

if TYPE_CHECKING:
    import click


def split_words(text: str) -> list[str]:
    """A command's words, read as a shell reads them (:func:`shlex.split`).

    Printable ASCII without quotes or backslashes (every command text the rules write but one
    with a quoted value) is split at its spaces only, as shlex would, without its reader: a
    page splits each legal action, and shlex was 3% of the server's CPU (bench_web, 150 games).

    >>> split_words("fire pz4 --ammo AP --at 4G5")
    ['fire', 'pz4', '--ammo', 'AP', '--at', '4G5']
    >>> split_words("note a --text 'two words'")
    ['note', 'a', '--text', 'two words']
    """
    if text.isascii() and text.isprintable() and not any(c in text for c in "\"'\\"):
        return text.split()
    return shlex.split(text)


def bounded(what: str, text: str) -> int:
    """A whole number of at most MAX_DIGITS ASCII digits, with an optional sign."""
    return _whole(text, what, -MAX_NUMBER, MAX_NUMBER)


def label(text: str) -> str:
    """A hex (or corner) label as the maps spell it.

    >>> label(" e5 ")
    'E5'
    """
    return text.strip().upper()


def whole_number(text: str) -> int:
    """An option's whole-number value (``--drm -1``).

    >>> whole_number("-1")
    -1
    >>> whole_number("one")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad number 'one': expected a whole number (digits 0-9)
    """
    return bounded("number", text)


def verbatim(text: str) -> str:
    """A word kept as given."""
    return text


# What a parameter holds, for a face that builds a field for it (the web table's preview):
# a map hex, a unit id, an ammunition type, a whole number (with ``low``/``high``), one of
# ``choices``, a flag (an option without a value), or free text.
ParamKind = Literal["hex", "unit", "ammo", "number", "choice", "flag", "text"]


@dataclass(frozen=True)
class Option:
    """One ``--option``: the argument it fills, how its value is read, whether it repeats.

    ``read`` None makes a flag (no value). ``metavar`` names the value in the help. ``kind``
    (with ``choices``, ``low``, ``high``) says what the value is, so a face can ask for it;
    ``ask``: the board asks for it before an action whose words leave it out.

    >>> Option("to_hit", whole_number, kind="number", low=2, high=12, ask=True).field_kind
    'number'
    >>> Option("ce", None).field_kind
    'flag'
    """

    arg: str
    read: Callable[[str], Any] | None
    repeats: bool = False
    help: str = ""
    metavar: str = "VALUE"
    kind: ParamKind = "text"
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    ask: bool = False

    @property
    def field_kind(self) -> ParamKind:
        """``kind``, except that an option without a value is always a flag."""
        return "flag" if self.read is None else self.kind


@dataclass(frozen=True)
class Positional:
    """The word(s) a verb names first: its argument, help name, and what a refusal calls it.

    ``many``: any number of words (none included); ``optional``: the word may be left out
    (the ruleset then decides what that means). ``kind`` as for :class:`Option`: ``"unit"``
    when the words name units (comma-separated for a group), ``"hex"`` when they name a hex.
    """

    arg: str
    metavar: str
    what: str
    read: Callable[[str], Any] = verbatim
    help: str = ""
    many: bool = False
    optional: bool = False
    kind: ParamKind = "text"


@dataclass(frozen=True)
class Verb:
    """One command of a game: its help, what it names first, its options and required ones.

    ``options`` are in the order the canonical text lists them; ``required`` names options.
    ``done`` is how the command reads once done, after the side's name, in the news of a page
    (``{units}``, ``{at}``, ``{to}`` and ``{ammo}`` are filled from its arguments; None: the
    command's text); ``echo`` the kind of the event that only repeats it (left out of the news).
    """

    help: str
    positional: Positional | None = None
    options: Mapping[str, Option] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    done: str | None = None
    echo: str | None = None


READ_CACHE = 4096  # commands' words a table remembers having read
# What a table remembers of a wording: verb, arguments, the arguments holding lists, its text.
_Read = tuple[str, dict[str, Any], tuple[str, ...], str | None]


@cache
def _read_type() -> Callable[[Callable[[str], Any], str], click.ParamType[Any, Any]]:
    """A Click type whose conversion is one of the table's readers (a BadInput passes up).

    Made on first use: importing Click waits until a game's words are read.
    """
    import click  # noqa: PLC0415

    class Read(click.ParamType[Any, Any]):
        def __init__(self, read: Callable[[str], Any], metavar: str) -> None:
            self.read = read
            self.name = metavar.lower()

        def convert(
            self, value: Any, param: click.Parameter | None, ctx: click.Context | None
        ) -> Any:
            return self.read(value) if isinstance(value, str) else value

    return Read


class CommandTable:
    """A game's commands: read a command's words, and the Click group that documents them.

    ``options_first``: the parsed arguments list the options before the positional words (the
    order a game's stored commands have always had). ``text``: the ruleset's canonical text of
    a verb and its arguments, for :meth:`read_text`.
    """

    def __init__(
        self,
        verbs: Mapping[str, Verb],
        *,
        options_first: bool = False,
        text: Callable[[str, Mapping[str, Any]], str] | None = None,
    ) -> None:
        self.verbs = verbs
        self.options_first = options_first
        self.text = text
        # words -> verb, arguments, the names of the arguments that hold lists, and the text
        self._read: dict[tuple[str, ...], _Read] = {}

    @cached_property
    def commands(self) -> dict[str, click.Command]:
        """One Click command per verb (made on first use, then kept)."""
        return {name: _command(name, verb) for name, verb in self.verbs.items()}

    def group(self, name: str, help_text: str = "") -> click.Group:
        """The game's commands as one Click group (for ``--help``)."""
        import click  # noqa: PLC0415

        return click.Group(name, commands=self.commands, help=help_text)

    def suggestion(self, verb: str) -> str | None:
        """The known verb closest to a mistyped one, if any is close.

        >>> CommandTable({"dispense": Verb(""), "grenades": Verb("")}).suggestion("dispence")
        'dispense'
        """
        close = difflib.get_close_matches(verb.lower(), list(self.verbs), n=1)
        return close[0] if close else None

    def verb(self, words: Sequence[str]) -> str:
        """The command's verb, lower case; an unknown one is refused with the closest verb."""
        whole = shlex.join(words)
        known = ", ".join(self.verbs)
        if not words:
            raise BadInput("command", whole, f"empty; one of {known}")
        verb = words[0].lower()
        if verb not in self.verbs:
            close = self.suggestion(verb)
            hint = f", did you mean {close!r}?" if close is not None else ";"
            where = f" (one of {known})" if close is not None else f" one of {known}"
            raise BadInput("command", whole, f"unknown command{hint}{where}")
        return verb

    def read(self, words: Sequence[str]) -> tuple[str, dict[str, Any]]:
        """The verb and its arguments (every option present: a flag False, a list empty).

        Every fault is one :class:`BadInput` naming the whole command. Words read before are
        answered from a cache (a ruleset probes the same candidate texts again and again);
        each answer is a fresh copy.
        """
        verb, args, _ = self.read_text(words)
        return verb, args

    def read_text(self, words: Sequence[str]) -> tuple[str, dict[str, Any], str | None]:
        """:meth:`read`, and the table's ``text`` of the answer (None without one): the same
        words always give the same arguments, so both are worked out once per wording."""
        key = tuple(words)
        known = self._read.get(key)
        if known is None:
            verb, args = self._read_words(words)
            lists = tuple(k for k, v in args.items() if isinstance(v, list))
            said = None if self.text is None else self.text(verb, args)
            known = verb, args, lists, said
            if len(self._read) >= READ_CACHE:
                self._read.clear()  # start again (safe beside other threads, unlike eviction)
            self._read[key] = known
        verb, args, lists, said = known
        fresh = args.copy()
        for name in lists:  # the only mutable values: each answer gets its own lists
            fresh[name] = list(fresh[name])
        return verb, fresh, said

    def _read_words(self, words: Sequence[str]) -> tuple[str, dict[str, Any]]:
        verb = self.verb(words)
        whole = shlex.join(words)
        spec = self.verbs[verb]
        command = self.commands[verb]
        import click  # noqa: PLC0415

        try:
            context = command.make_context(verb, list(words[1:]), help_option_names=[])
        except click.ClickException as error:
            raise BadInput("command", whole, _fault(error, verb, spec)) from None
        return verb, _arguments(context.params, spec, whole, self.options_first)


def _command(name: str, verb: Verb) -> click.Command:
    import click  # noqa: PLC0415

    read_type = _read_type()
    params: list[click.Parameter] = []
    positional = verb.positional
    if positional is not None:
        params.append(
            click.Argument(
                [positional.arg],
                metavar=positional.metavar + ("..." if positional.many else ""),
                type=read_type(positional.read, positional.metavar),
                nargs=-1 if positional.many else 1,
                required=not (positional.optional or positional.many),
            )
        )
    for option_name, option in verb.options.items():
        required = option_name in verb.required
        help_text = option.help + (" Repeatable." if option.repeats else "")
        if option.read is None:
            params.append(click.Option([option_name, option.arg], is_flag=True, help=help_text))
            continue
        # Every valued option collects all its values, so one given twice is refused (Click
        # would silently keep the last).
        params.append(
            click.Option(
                [option_name, option.arg],
                type=read_type(option.read, option.metavar),
                multiple=True,
                metavar=option.metavar,
                required=required,
                help=help_text,
            )
        )
    epilog = ""
    if positional is not None and positional.help:
        epilog = f"{positional.metavar}: {positional.help}"
    return click.Command(name, params=params, help=verb.help, epilog=epilog or None)


def _arguments(
    params: Mapping[str, Any], spec: Verb, whole: str, options_first: bool
) -> dict[str, Any]:
    """Click's values as the rulesets take them, in the order their texts list them."""
    options: dict[str, Any] = {}
    for name, option in spec.options.items():
        value = params[option.arg]
        if option.read is None:
            options[option.arg] = bool(value)
        elif option.repeats:
            options[option.arg] = list(value)
        elif len(value) > 1:
            raise BadInput("command", whole, f"{name} given twice")
        else:
            options[option.arg] = value[0] if value else None
    first: dict[str, Any] = {}
    positional = spec.positional
    if positional is not None:
        value = params[positional.arg]
        first[positional.arg] = list(value) if positional.many else value
    return {**options, **first} if options_first else {**first, **options}


def _fault(error: click.ClickException, verb: str, spec: Verb) -> str:
    """A Click usage error in the words every game uses."""
    import click  # noqa: PLC0415

    if isinstance(error, click.NoSuchOption):
        known = ", ".join(spec.options) or "none"
        close = f", did you mean {error.possibilities[0]!r}?" if error.possibilities else ";"
        return f"unknown option {error.option_name!r} for {verb}{close} known: {known}"
    if isinstance(error, click.MissingParameter) and error.param is not None:
        if isinstance(error.param, click.Argument) and spec.positional is not None:
            return f"{verb} needs {spec.positional.what}"
        return f"{verb} needs {error.param.opts[0]}"
    if isinstance(error, click.BadOptionUsage) and "requires an argument" in error.message:
        return f"{error.option_name} needs a value"
    message = error.format_message().rstrip(".")
    if message.startswith("Got unexpected extra argument"):
        extra = message.partition("(")[2].rstrip(")")
        return f"unexpected word(s) {extra} after {verb}"
    return message[:1].lower() + message[1:]


def option_words(options: Mapping[str, Option], args: Mapping[str, Any]) -> list[str]:
    """The options of a parsed command as canonical words, in the table's order.

    A list value of an option that does not repeat is written back comma-separated.

    >>> option_words({"--ce": Option("ce", None), "--to": Option("to", label)}, {"ce": True})
    ['--ce']
    """
    words: list[str] = []
    for name, option in options.items():
        value = args.get(option.arg)
        if option.read is None:
            if value:
                words.append(name)
        elif option.repeats:
            for item in value or ():
                words += [name, str(item)]
        elif value is not None:
            words += [name, ",".join(value) if isinstance(value, list) else str(value)]
    return words
