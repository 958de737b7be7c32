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
"""

from __future__ import annotations

import yaml


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
