"""`servicematch ...` commands for the browser tests, each in a process of its own forked from one
that has already imported the command line.

A new `python -m servicematch.cli` spends about 3 s of CPU importing the commands (the console,
the ledger, Stripe's client, PDF invoices) before it does anything, and a busy machine makes that
10 s; the browser tests run a few dozen commands. Here one process per pytest worker imports them
once, and every command runs in a fork of it: a process of its own, with its own environment,
arguments, standard input and exit status, and nothing left over from the command before, as
from a shell. Nothing runs in the parent but imports, so no settings, engine or cache is
inherited.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Reads one request a line on its standard input ({"args", "env", "stdin", "cwd"}), answers
# {"pid"} once the command's process is forked and {"code", "stdout", "stderr"} once it ended.
_FORK_SERVER = r"""
import json, os, sys, tempfile, traceback

requests = os.fdopen(os.dup(0), "r")
answers = os.fdopen(os.dup(1), "w")
control = (requests.fileno(), answers.fileno())
# Whatever an import prints goes to the log, not into the answers.
os.dup2(2, 1)
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)

from servicematch.cli import main


def answer(**fields):
    answers.write(json.dumps(fields) + "\n")
    answers.flush()


def run(request, given, out, err):
    code = 1
    try:
        for fd in control:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for fd, source in ((0, given), (1, out), (2, err)):
            os.dup2(source.fileno(), fd)
        sys.stdin = open(0, closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        sys.argv = ["servicematch", *request["args"]]
        main(args=request["args"], prog_name="servicematch")
        code = 0
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


for line in requests:
    request = json.loads(line)
    given, out, err = (tempfile.TemporaryFile() for _ in range(3))
    given.write(request["stdin"].encode())
    given.seek(0)
    pid = os.fork()
    if pid == 0:
        run(request, given, out, err)
    answer(pid=pid)
    _, status = os.waitpid(pid, 0)
    texts = []
    for captured in (out, err):
        captured.seek(0)
        texts.append(captured.read().decode(errors="replace"))
    for file in (given, out, err):
        file.close()
    answer(code=os.waitstatus_to_exitcode(status), stdout=texts[0], stderr=texts[1])
"""


@dataclass(frozen=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str


class _ForkServer:
    def __init__(self) -> None:
        self._process: subprocess.Popen | None = None
        self._unread = b""
        self._lock = threading.Lock()

    def run(self, args: list[str], *, env: dict[str, str], stdin: str = "", timeout: float = 60) -> Finished:
        with self._lock:
            process = self._started()
            request = {"args": args, "env": env, "stdin": stdin, "cwd": str(ROOT)}
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            pid = None
            try:
                # The first answer of a new server also waits for its imports.
                pid = self._answer(process, timeout)["pid"]
                done = self._answer(process, timeout)
            except BaseException:
                self._abandon(pid)
                raise
            return Finished(done["code"], done["stdout"], done["stderr"])

    def _started(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen([sys.executable, "-c", _FORK_SERVER], cwd=ROOT,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self._unread = b""
            atexit.register(self.stop)
        return self._process

    def _answer(self, process: subprocess.Popen, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._unread:
            if not select.select([process.stdout], [], [], max(deadline - time.monotonic(), 0))[0]:
                raise TimeoutError(f"no answer from the command server within {timeout:.0f} s")
            chunk = os.read(process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError(f"the command server exited (code {process.wait()})")
            self._unread += chunk
        line, _, self._unread = self._unread.partition(b"\n")
        return json.loads(line)

    def _abandon(self, pid: int | None) -> None:
        """After a command that overran or a server that failed: end both; the next command starts afresh."""
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.stdin.close()
            self._process.wait(timeout=15)


_server = _ForkServer()


def run_cli(args: list[str], *, env: dict[str, str], stdin: str = "", timeout: float = 60) -> Finished:
    """Run `servicematch <args>` with exactly `env` as its environment; its exit status and output."""
    return _server.run(list(args), env=env, stdin=stdin, timeout=timeout)
