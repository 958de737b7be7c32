"""A fork server for the docs test: each `ordnance` command of a page runs in a child forked
from one process that has already imported the CLI, instead of in a fresh interpreter that
imports it all again (the imports were most of each command's time).

Each command is still a process of its own, started as the console script starts it: the shim
named ``ordnance`` (first on the page's PATH) hands its arguments, working folder, environment
and its stdin, stdout and stderr to the server; the server forks; the child takes them over and
calls ``ordnance.cli.app:entry``, the function the installed ``ordnance`` script calls; its exit
status becomes the shim's. A child that dies without an answer makes the shim exit 1.

    server = ForkServer(folder, env)   # folder gets ``bin/ordnance`` and the socket
    ... run a shell with folder/bin first on PATH ...
    server.close()
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import traceback
from pathlib import Path

# Imported once in the server: what the commands of the pages need (CLI, game service, SQL).
WARM = (
    "ordnance.cli.app",
    "ordnance.game.service",
    "ordnance.game.logfile",
    "ordnance.core.maps.svg",
    "sqlalchemy",
    "alembic",
    "cryptography.hazmat.primitives.asymmetric.ed25519",
    "rich.console",
    "rich.table",
    "sqlite3",
    "pydantic",
)

SHIM = """#!{python} -IS
import json, os, socket, struct, sys
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect({socket_path!r})
data = json.dumps({{"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}}).encode()
socket.send_fds(sock, [struct.pack("!I", len(data))], [0, 1, 2])
sock.sendall(data)
answer = b""
while chunk := sock.recv(64):
    answer += chunk
sys.exit(int(answer) if answer.strip().isdigit() else 1)
"""


class ForkServer:
    """The server process and its shim; ``close()`` stops it."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.socket_path = str(folder / "ordnance.sock")
        bin_dir = folder / "bin"
        bin_dir.mkdir(exist_ok=True)
        shim = bin_dir / "ordnance"
        shim.write_text(SHIM.format(python=sys.executable, socket_path=self.socket_path))
        shim.chmod(0o755)
        self.bin_dir = bin_dir
        self.process = subprocess.Popen(
            [sys.executable, __file__, self.socket_path],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        ready = self.process.stdout.readline()
        assert ready.strip() == "ready", f"the fork server did not start: {ready!r}"

    def close(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a child still running a slow command (CI load)
            self.process.kill()
            self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _receive(connection: socket.socket) -> tuple[list[int], dict[str, object]]:
    header, fds, _, _ = socket.recv_fds(connection, 4, 3)
    while len(header) < 4:
        header += connection.recv(4 - len(header))
    (size,) = struct.unpack("!I", header)
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the shim went away")
        data += chunk
    return fds, json.loads(data)


def _run_command(connection: socket.socket, fds: list[int], request: dict[str, object]) -> None:
    """In the forked child: become the command's process, run it, answer its exit status."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for target, fd in zip((0, 1, 2), fds, strict=True):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update(request["env"])  # type: ignore[arg-type]
    sys.argv = ["ordnance", *request["argv"]]  # type: ignore[misc]
    code = 1
    try:
        importlib.import_module("ordnance.cli.app").entry()
        code = 0
    except SystemExit as done:
        if done.code is None:
            code = 0
        elif isinstance(done.code, int):
            code = done.code
        else:
            print(done.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    try:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BrokenPipeError:
        pass
    connection.sendall(str(code).encode())
    os._exit(code)


def _reap(*_: object) -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _stop(*_: object) -> None:
    raise SystemExit(0)


def serve(socket_path: str) -> None:
    for name in WARM:
        importlib.import_module(name)
    load_commands = getattr(importlib.import_module("ordnance.cli.app"), "load_commands", None)
    if load_commands is not None:
        load_commands(None)  # every command group's module
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    # Reaped here, so that their CPU time counts in this process's children (``time`` sees it).
    signal.signal(signal.SIGCHLD, _reap)
    signal.signal(signal.SIGTERM, _stop)
    print("ready", flush=True)
    try:
        while True:
            connection, _ = listener.accept()
            try:
                fds, request = _receive(connection)
            except (ConnectionError, OSError, ValueError):
                connection.close()
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            if os.fork() == 0:
                try:  # the child never returns into the server's loop
                    listener.close()
                    _run_command(connection, fds, request)
                finally:
                    os._exit(1)
            for fd in fds:
                os.close(fd)
            connection.close()
    except SystemExit:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        while True:  # wait for the last children, so that their CPU time is counted
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                break


if __name__ == "__main__":
    serve(sys.argv[1])
