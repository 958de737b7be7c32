"""The pace of a serving process's garbage collector.

CPython frees most objects as their last reference goes; its cyclic collector also visits, now
and then, the objects that may hold references, and every thread waits meanwhile. Its defaults
suit a short script: a young collection each 700 net allocations, and a full one, which visits
everything the process holds, whenever the objects that lived through two young collections
grew by a quarter. A table holds a great deal (its caches by version, and a dozen coroutines
for each page listening for pushes), and its requests make objects fast: on a busy server a
full collection came every few seconds and stopped the table longer than an action's bound
(bench_web, 300 games on one SQLite process: ten of 0.04-0.32 s each in a 70 s run, action
p95 86-230 ms; with :func:`pace`, one or two of 0.03-0.06 s, and 43-95 ms: docs/benchmarks.md,
tenth round).

So ``ordnance serve``, once its process is warm, calls :func:`pace`:

* what the process holds by then (modules, classes, functions, compiled templates) lives as
  long as it does, so it is taken out of every later collection (:func:`gc.freeze`);
* a young collection comes each :data:`YOUNG` net allocations, so that most of a request's
  objects are gone before one looks (fewer live on into the older generations), and the older
  generations are collected each :data:`OLDER` collections of the one below.

Nothing here frees less: a cycle of objects is collected later, never not. Only the serving
process is paced (tests and the command line keep Python's defaults).

>>> import subprocess, sys
>>> code = "import gc; from ordnance.web.collector import pace; pace(); print(gc.get_threshold())"
>>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
'(20000, 20, 20)\\n'
"""

from __future__ import annotations

import gc

YOUNG = 20_000  # net allocations between young collections (Python's default: 700)
OLDER = 20  # collections of a generation between two of the next (Python's default: 10)


def pace() -> None:
    """Freeze what the process holds now and space the collections out (see the module)."""
    gc.collect()  # what starting up left behind goes now, not frozen with the rest
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
