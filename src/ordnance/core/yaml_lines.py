"""YAML read with its node tree kept, so a fault found in the values can name its line.

A scenario's faults name the key they concern as a dotted path (``sides.german.units.pak.kind``);
:func:`line_of` walks the composed nodes along that path to the line the key was written on.
PyYAML keeps the last of two equal keys in one mapping without a word; :func:`repeated_key`
finds the first such repeat, so a unit written twice under one side is refused, not lost.

>>> data, node = load("a: 1\\nb:\\n  c.d: 2\\n  e: [x, y]\\n")
>>> data
{'a': 1, 'b': {'c.d': 2, 'e': ['x', 'y']}}
>>> line_of(node, "b.c.d"), line_of(node, "b.e.1"), line_of(node, "b.nope")
(3, 4, 2)
>>> repeated_key(load("units:\\n  pak: 1\\n  pak: 2\\n")[1])
('units.pak', 3, 2)

Every YAML a user gives is first counted by :func:`check_size` on the parser's event stream
(libyaml's, when PyYAML has it): values, aliases expanded, and depth, stopping at the first
value past :data:`~ordnance.core.limits.MAX_NODES`, so a hostile file is refused in a fraction
of a second and a few MB of memory, before any tree is built (a tree of a million values takes
a minute and a gigabyte). :func:`safe_load` is ``yaml.safe_load`` behind that count.

>>> check_size("a: &x [1, 2, 3]\\nb: [*x, *x, *x]\\n", "scenario file", "s.yaml", nodes=12)
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario file 's.yaml': more than 12 values
"""

from __future__ import annotations

import yaml

from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_NESTING, MAX_NODES

# libyaml's parser when PyYAML was built with it: the count is the hot loop of a hostile file.
_EventLoader: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(
    yaml, "CSafeLoader", yaml.SafeLoader
)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def check_size(
    text: str | bytes, what: str, name: str, depth: int = MAX_NESTING, nodes: int = MAX_NODES
) -> None:
    """Refuse YAML of more than ``nodes`` values (each alias counted as the values it repeats)
    or nested deeper than ``depth``, and text no program can store (a lone surrogate written as
    an escape, ``"\\ud800"``), as one BadInput line.

    Counted with libyaml; where libyaml finds the text malformed, counted again with PyYAML's
    own parser, which the loaders use: its error (a :class:`yaml.YAMLError`, with the line the
    loaders would name) is raised, and what it accepts is counted as strictly.

    >>> check_size("[[[1]]]", "map file", "m.yaml", depth=2)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad map file 'm.yaml': nested deeper than 2 levels
    >>> check_size('name: "\\\\ud800"', "scenario file", "s.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario file 's.yaml': line 1: '\\ud800' is not text...
    """
    try:
        _count(_EventLoader(text), what, name, depth, nodes)
    except yaml.YAMLError as error:
        if "maximum nesting depth" in str(error):  # libyaml's own bound, 1,000 flow levels
            raise BadInput(what, name, f"nested deeper than {depth} levels") from None
        if _EventLoader is yaml.SafeLoader:
            raise
        _count(yaml.SafeLoader(text), what, name, depth, nodes)


def _count(
    loader: yaml.SafeLoader | yaml.CSafeLoader, what: str, name: str, depth: int, nodes: int
) -> None:
    sizes: dict[str, int] = {}  # anchor -> values under it, for each alias that repeats it
    open_nodes: list[tuple[str | None, int]] = []  # (anchor, count when the node opened)
    seen = 0
    try:
        while True:
            event = loader.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return
            if isinstance(event, yaml.ScalarEvent):
                if not event.value.isascii():
                    _check_text(event, what, name)
                seen += 1
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.AliasEvent):
                seen += sizes.get(event.anchor or "", 1)
            elif isinstance(event, _OPEN):
                open_nodes.append((event.anchor, seen))
                seen += 1
                if len(open_nodes) > depth:
                    raise BadInput(what, name, f"nested deeper than {depth} levels")
            elif isinstance(event, _CLOSE):
                anchor, start = open_nodes.pop()
                if anchor is not None:
                    sizes[anchor] = seen - start
            if seen > nodes:
                raise BadInput(what, name, f"more than {nodes} values")
    finally:
        loader.dispose()


def _check_text(event: yaml.ScalarEvent, what: str, name: str) -> None:
    try:
        event.value.encode("utf-8")
    except UnicodeEncodeError as error:
        mark = event.start_mark
        where = "" if mark is None else f"line {mark.line + 1}: "
        bad = error.object[error.start : error.end]
        raise BadInput(what, name, f"{where}{bad!r} is not text (a lone surrogate)") from None


def safe_load(text: str | bytes, what: str, name: str) -> object:
    """``yaml.safe_load(text)`` once :func:`check_size` has let it through.

    >>> safe_load("a: [1, 2]", "file", "f.yaml")
    {'a': [1, 2]}
    """
    check_size(text, what, name)
    return yaml.safe_load(text)


def load(text: str) -> tuple[object, yaml.Node | None]:
    """The values of a one-document YAML text (as ``yaml.safe_load`` gives) and its node tree."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()
    return data, node


def line_of(node: yaml.Node | None, where: str) -> int | None:
    """The 1-based line of the key ``where`` (dotted), or of the deepest part of it written.

    A key may itself hold dots (a unit id ``1.sq``): the longest key that fits is followed; of two
    equal keys the later one, whose value YAML kept.
    """
    if node is None:
        return None
    line = node.start_mark.line + 1
    rest = "" if where == "top level" else where
    while rest:
        found: tuple[str, yaml.Node, yaml.Node] | None = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else None
                fits = name is not None and (rest == name or rest.startswith(name + "."))
                if fits and name is not None and (found is None or len(name) >= len(found[0])):
                    found = (name, key, value)
        elif isinstance(node, yaml.SequenceNode):
            index = rest.split(".", 1)[0]
            if index.isdigit() and int(index) < len(node.value):
                item: yaml.Node = node.value[int(index)]
                found = (index, item, item)
        if found is None:
            break
        name, key_node, node = found
        line = key_node.start_mark.line + 1
        rest = rest[len(name) + 1 :]
    return line


def repeated_key(root: yaml.Node | None) -> tuple[str, int, int] | None:
    """The first key given twice in one mapping: its dotted path, its line, its first line.

    Each node is visited once (YAML aliases share nodes), so the walk stays as small as the text.
    """
    stack: list[tuple[yaml.Node, str]] = [] if root is None else [(root, "")]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        prefix = f"{path}." if path else ""
        if isinstance(node, yaml.MappingNode):
            lines: dict[str, int] = {}
            children: list[tuple[yaml.Node, str]] = []
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                line = key.start_mark.line + 1
                if name in lines:
                    return prefix + name, line, lines[name]
                lines[name] = line
                children.append((value, prefix + name))
        elif isinstance(node, yaml.SequenceNode):
            children = [(item, f"{prefix}{i}") for i, item in enumerate(node.value)]
        else:
            continue
        stack.extend(reversed(children))  # the first child is looked at first
    return None
