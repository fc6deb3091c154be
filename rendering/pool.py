"""Image work (drawing, the palette, PNG) in a small pool of worker processes.

Pillow holds the GIL for most of its drawing, so render threads gave the bot one core for images
and the event loop together; a process per core truly runs in parallel, and the event loop is left
with the I/O. The pool is bounded (at most `processes` images at once, the rest wait their turn on
the event loop) and its workers keep their renderer caches warm between images: they are started
once and warmed with one board per game before the first real request.

Views are plain JSON-like dicts and PNGs are bytes: a request is a pickle of the view (~0.1 ms) written
to the worker's pipe by the event loop, the answer the PNG's bytes as they are. A worker also runs a
named function of a module on a picklable argument (`Renderer.call`): a seat's whole private panel is
made there (`rendering.panels`), its view and legal moves included, from the table's stored state text.
With `processes=0` images are drawn in a worker thread of this process (what tests of a single
renderer or a one-core host may prefer).
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import importlib
import logging
import os
import pickle
import subprocess
import sys
from collections.abc import Sequence
from multiprocessing.connection import Connection, Pipe
from typing import Any

from rendering.worker import CALL, OK, PNG, Sample, render_png

log = logging.getLogger(__name__)

# A worker's first lines: its end of the pipe is the inherited descriptor `fd`; the bot sends this
# process's import path, then the warm-up samples.
_BOOT = """\
import pickle, sys
from multiprocessing.connection import Connection
conn = Connection({fd})
try:
    sys.path[:] = pickle.loads(conn.recv_bytes())
except (EOFError, OSError):  # the bot is gone already
    sys.exit(0)
from rendering.worker import _serve
_serve(conn, {parent})
"""


def _launch(samples: Sequence[Sample]) -> tuple[subprocess.Popen[bytes], Connection]:
    """A fresh interpreter running `_serve`, a child of this process, and our end of its pipe.

    Not multiprocessing's spawn: it starts a resource tracker process beside the first child (~7 MiB,
    for semaphores and shared memory the pool never makes) and runs this process's main module again
    in each child (`python -m bot` is discord.py, the store, every cog). A fork of the bot, with its
    event loop, sqlite and gateway threads, would be unsafe. The worker imports only what it draws.
    """
    ours, theirs = Pipe(duplex=True)
    try:
        code = _BOOT.format(fd=theirs.fileno(), parent=os.getpid())
        process = subprocess.Popen([sys.executable, "-c", code], pass_fds=(theirs.fileno(),))
    finally:
        theirs.close()
    ours.send_bytes(pickle.dumps(sys.path, pickle.HIGHEST_PROTOCOL))
    ours.send_bytes(pickle.dumps(tuple(samples), pickle.HIGHEST_PROTOCOL))
    return process, ours


class WorkerDied(Exception):
    """The worker drawing an image died (killed, out of memory) before it answered."""


class _Worker:
    """One worker process and the parent's end of its pipe (requests out, PNGs back, one at a time)."""

    def __init__(self, process: subprocess.Popen[bytes], conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.ready = False  # warmed: it said so (until then a request could block on a full pipe)
        self.job: asyncio.Future[bytes] | None = None


class RenderPool:
    """The worker processes, shared by every bot of the process (see `shared_pool`).

    The event loop talks to each worker over a pipe of its own: it writes a request to an idle worker
    and a reader callback takes the answer. No helper threads (`ProcessPoolExecutor` has a manager
    thread and a feeder thread per queue, each taking the GIL from the event loop for every image, and
    a pickle of every PNG): under load the hand-off cost the bot process about a tenth of its CPU.
    The pipes stay blocking (a reader takes a whole answer): uvloop's `add_reader` would make them
    non-blocking and end a PNG's read halfway (docs/performance.md, *uvloop and orjson*).
    """

    def __init__(self, processes: int, samples: Sequence[Sample] = ()) -> None:
        self.processes = processes
        self._samples = tuple(samples)
        self._workers: list[_Worker] = []
        self._idle: collections.deque[_Worker] = collections.deque()
        self._waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start (and warm) the workers not running yet; nothing when images are drawn in threads."""
        if self.processes <= 0:
            return
        self._bind()
        while len(self._workers) < self.processes:
            # fresh interpreters, children of this process, which the kernel ends with it (`_start_worker`)
            worker = _Worker(*_launch(self._samples))
            self._workers.append(worker)
            if self._loop is not None:
                self._loop.add_reader(worker.conn.fileno(), self._readable, worker)

    def _bind(self) -> None:
        """Read the workers' pipes on the running loop (a process may run several loops in turn: the
        tests give each test its own)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if loop is self._loop:
            return
        old, self._loop = self._loop, loop
        for worker in self._workers:
            if old is not None and not old.is_closed():
                old.remove_reader(worker.conn.fileno())
            loop.add_reader(worker.conn.fileno(), self._readable, worker)
            worker.job = None  # a future of the loop that is gone: its answer frees the worker, no more
        self._waiting.clear()

    def warm_with(self, samples: Sequence[Sample]) -> None:
        """What workers started from now on draw first (workers already running are warm)."""
        self._samples = tuple(samples)

    async def draw(self, module: str, view: dict[str, Any], lang: str) -> bytes:
        """The PNG from the first idle worker; `WorkerDied` if it died meanwhile (its replacement is
        started at once)."""
        return (await self._ask((PNG, module, view, lang)))[1:]

    async def call(self, module: str, function: str, arg: Any) -> tuple[Any, bytes]:
        """`module.function(arg)` run by the first idle worker: its result (unpickled here) and its raw
        bytes; `WorkerDied` as for `draw`."""
        data = await self._ask((CALL, module, function, arg))
        end = 5 + int.from_bytes(data[1:5], "little")
        return pickle.loads(memoryview(data)[5:end]), data[end:]

    async def _ask(self, request: tuple[Any, ...]) -> bytes:
        """The answer to `request` from the first idle worker, its status byte (OK) first."""
        self.start()
        loop = asyncio.get_running_loop()
        if self._idle:
            worker = self._idle.popleft()
        else:
            waiter: asyncio.Future[_Worker] = loop.create_future()
            self._waiting.append(waiter)
            try:
                worker = await waiter
            except asyncio.CancelledError:
                # cancelled once a worker was handed over (a DM panel drawn ahead and not needed after
                # all): hand it on, or it is lost to the pool for good
                if waiter.done() and not waiter.cancelled():
                    self._release(waiter.result())
                raise
        job: asyncio.Future[bytes] = loop.create_future()
        worker.job = job
        try:
            worker.conn.send_bytes(pickle.dumps(request, pickle.HIGHEST_PROTOCOL))
        except OSError:
            self._died(worker)
        return await job

    def _readable(self, worker: _Worker) -> None:
        try:
            data = worker.conn.recv_bytes()
        except (EOFError, OSError):
            self._died(worker)
            return
        if not worker.ready:
            worker.ready = True
        else:
            job, worker.job = worker.job, None
            if job is not None and not job.done():
                if data[:1] == OK:
                    job.set_result(data)
                else:
                    job.set_exception(pickle.loads(data[1:]))
        self._release(worker)

    def _release(self, worker: _Worker) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _died(self, worker: _Worker) -> None:
        if worker not in self._workers:
            return
        self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        worker.process.kill()  # its pipe is closed: it is gone or going
        self._reap(worker.process)
        job, worker.job = worker.job, None
        if job is not None and not job.done():
            job.set_exception(WorkerDied())
        log.warning("a render worker died; starting another")
        self.start()

    def _reap(self, process: subprocess.Popen[bytes], tries: int = 50) -> None:
        """Reap a killed worker without blocking the event loop: poll now, then every 20 ms for a
        second (a killed process is gone within milliseconds), so no zombie is left behind."""
        if process.poll() is None and tries > 0 and self._loop is not None and not self._loop.is_closed():
            self._loop.call_later(0.02, self._reap, process, tries - 1)

    def worker_pids(self) -> list[int]:
        """The workers' process ids (for measuring their memory)."""
        return sorted(w.process.pid for w in self._workers)

    def close(self) -> None:
        workers, self._workers = self._workers, []
        self._idle.clear()
        for worker in workers:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(worker.conn.fileno())
            worker.conn.close()  # the worker reads the end of input and exits
            if worker.job is not None and not worker.job.done():
                worker.job.cancel()
        for worker in workers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.process.wait(5)
            if worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait()


class Renderer:
    """One bot's access to the pool: at most `slots` images in flight (the rest wait their turn on
    the event loop, first come first served), so a burst of moves cannot queue unbounded work."""

    def __init__(self, pool: RenderPool, slots: int) -> None:
        self.pool = pool
        self.slots = asyncio.Semaphore(max(1, slots))
        # bot steps (`think`) in flight: all workers but one, so a long think never holds every
        # worker while boards wait (with one worker, thinks and images take turns on it)
        self.thinking = asyncio.Semaphore(max(1, pool.processes - 1))

    def start(self, samples: Sequence[Sample] = ()) -> None:
        """Start the workers ahead of the first image; they draw `samples` first (warm caches)."""
        self.pool.warm_with(samples)
        self.pool.start()

    async def png(self, module: str, view: dict[str, Any], lang: str = "en-US") -> bytes:
        """The PNG of `view` drawn by the renderer `module` in `lang`, in a worker, when a slot is free.

        A worker that died is replaced and the image drawn once more, so one lost worker never loses
        a board.
        """
        async with self.slots:
            if self.pool.processes <= 0:
                return await asyncio.to_thread(render_png, module, view, lang)
            try:
                return await self.pool.draw(module, view, lang)
            except WorkerDied:
                log.warning("a render worker died drawing %s; drawing it again", module)
                return await self.pool.draw(module, view, lang)

    async def call(self, module: str, function: str, arg: Any) -> tuple[Any, bytes]:
        """`module.function(arg)` (importable by name, its argument picklable; it returns a picklable
        result and raw bytes) in a worker, when a slot is free, like an image (with no processes, in a
        thread of this process); run once more if its worker died."""
        async with self.slots:
            return await self._run(module, function, arg)

    async def think(self, module: str, function: str, arg: Any) -> tuple[Any, bytes]:
        """`module.function(arg)` as `call` runs it, for a bot step (`bot.rules.thinking`), with slots
        of its own (`thinking`): a think of a few hundred milliseconds keeps one worker busy, and
        images keep the others."""
        async with self.thinking:
            return await self._run(module, function, arg)

    async def _run(self, module: str, function: str, arg: Any) -> tuple[Any, bytes]:
        if self.pool.processes <= 0:
            return await asyncio.to_thread(getattr(importlib.import_module(module), function), arg)
        try:
            return await self.pool.call(module, function, arg)
        except WorkerDied:
            log.warning("a render worker died running %s.%s; running it again", module, function)
            return await self.pool.call(module, function, arg)


_shared: dict[int, RenderPool] = {}


def shared_pool(processes: int, samples: Sequence[Sample] = ()) -> RenderPool:
    """One pool per size for the whole process: a bot restarted in the same process (the tests do it
    for every test) keeps the warm workers instead of starting cold ones. Stopped at exit."""
    pool = _shared.get(processes)
    if pool is None:
        if not _shared:
            atexit.register(_close_shared)
        pool = _shared[processes] = RenderPool(processes, samples)
    return pool


def _close_shared() -> None:
    for pool in _shared.values():
        pool.close()


__all__ = ["RenderPool", "Renderer", "WorkerDied", "render_png", "shared_pool"]
