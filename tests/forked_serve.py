"""Starting `ordnance serve` over and over, cheaply: for the crash test of the real server.

A fresh ``python -m ordnance.cli.app serve`` took 1.4-1.8 s to answer its first request on an
idle machine, nearly all of it imports; a hundred restarts would cost minutes. So by default a
launcher process imports the CLI and the web stack once, and forks each server from itself; a
forked server answers in about 0.1 s. The child is still ``ordnance serve``: it calls
``ordnance.cli.app:entry`` with the command's arguments, as the installed script does. Each
server (forked or fresh) runs in a session, and so a process group, of its own, with its stderr
appended to a file and its address space bounded (a server that reads without bound fails there
instead of taking the machine's memory). ``fork=False`` starts a fresh interpreter each time.

    launcher = ServeLauncher(fork=True)
    pid = launcher.start(["serve", "--db", url, ...], {"ORDNANCE_KEYS": keys}, log)
    ...  # os.killpg(pid, signal.SIGKILL); launcher.wait_gone(pid)
    launcher.close()
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

MEMORY_LIMIT = 2 << 30  # bytes of address space per server (an idle one peaks at ~0.4 GiB)
# Imported once in the launcher: what `ordnance serve` and the app it builds need.
WARM = (
    "ordnance.cli.app",
    "ordnance.cli.serve",
    "ordnance.web.app",
    "ordnance.game.service",
    "uvicorn",
    "uvicorn.loops.auto",
    "uvicorn.protocols.http.auto",
    "uvicorn.lifespan.on",
    "sqlalchemy.dialects.postgresql.psycopg",
    "alembic",
)


class ServeLauncher:
    """Starts server processes, forked from a warm launcher (``fork``) or fresh; ``close()``."""

    def __init__(self, *, fork: bool = True) -> None:
        self.fork = fork
        self.fresh: dict[int, subprocess.Popen[bytes]] = {}
        self.launcher: subprocess.Popen[str] | None = None
        if fork:
            self.launcher = subprocess.Popen(
                [sys.executable, __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert self.launcher.stdout is not None
            ready = self.launcher.stdout.readline()
            assert ready.strip() == "ready", f"the serve launcher did not start: {ready!r}"

    def start(self, argv: list[str], env: dict[str, str], log: Path) -> int:
        """Start ``ordnance ARGV`` with ``env`` added; its pid, which is its process group."""
        if self.launcher is None:
            with log.open("ab") as errors:
                process = subprocess.Popen(
                    [sys.executable, "-m", "ordnance.cli.app", *argv],
                    env={**os.environ, **env},
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=errors,
                    start_new_session=True,
                )
            resource.prlimit(process.pid, resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            self.fresh[process.pid] = process
            return process.pid
        assert self.launcher.stdin is not None and self.launcher.stdout is not None
        request = {"argv": argv, "env": env, "log": str(log)}
        self.launcher.stdin.write(json.dumps(request) + "\n")
        self.launcher.stdin.flush()
        return int(self.launcher.stdout.readline())

    def alive(self, pid: int) -> bool:
        if pid in self.fresh:
            return self.fresh[pid].poll() is None
        try:
            os.kill(pid, 0)  # the launcher reaps its children at once: a dead one is gone
        except ProcessLookupError:
            return False
        return True

    def wait_gone(self, pid: int, timeout: float = 30.0) -> None:
        """Wait until the process ``pid`` no longer exists (after a kill)."""
        if pid in self.fresh:
            self.fresh.pop(pid).wait(timeout)
            return
        deadline = time.monotonic() + timeout
        while self.alive(pid):
            assert time.monotonic() < deadline, f"server process {pid} outlived its SIGKILL"
            time.sleep(0.002)

    def close(self) -> None:
        for pid in list(self.fresh):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            self.fresh.pop(pid).wait()
        if self.launcher is not None:
            assert self.launcher.stdin is not None
            self.launcher.stdin.close()  # the launcher ends at the end of its input
            self.launcher.wait(timeout=30)
            if self.launcher.stdout is not None:
                self.launcher.stdout.close()


def _child(request: dict[str, object]) -> None:
    """In the forked child: become ``ordnance serve`` in a session of its own; never return."""
    code = 1
    try:
        os.setsid()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        log = os.open(str(request["log"]), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        null = os.open(os.devnull, os.O_RDWR)
        for target, source in ((0, null), (1, null), (2, log)):
            os.dup2(source, target)
        os.close(log)
        os.close(null)
        os.environ.update(request["env"])  # type: ignore[arg-type]
        sys.argv = ["ordnance", *request["argv"]]  # type: ignore[misc]
        from ordnance.cli.app import entry  # noqa: PLC0415 (imported by the launcher already)

        entry()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 1
    except BaseException:  # the child must never return into the launcher's loop
        import traceback  # noqa: PLC0415

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(code)


def launch() -> None:
    """The launcher: import once, then fork a server for each request line on stdin."""
    import importlib  # noqa: PLC0415

    for name in WARM:
        with contextlib.suppress(ImportError):  # psycopg's dialect when PostgreSQL is absent
            importlib.import_module(name)
    importlib.import_module("ordnance.cli.app").load_commands(["serve"])
    # Children are reaped by the kernel as they die: their pids vanish, no zombies.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        print(pid, flush=True)


if __name__ == "__main__":
    launch()
