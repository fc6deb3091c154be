"""Image work (drawing, the palette, PNG) in a small pool of worker processes.

Pillow holds the GIL for most of its drawing, so render threads gave the bot one core for images
and the event loop together; a process per core truly runs in parallel, and the event loop is left
with the I/O. The pool is bounded (at most `processes` images at once, the rest wait their turn on
the event loop) and its workers keep their renderer caches warm between images: they are started
once and warmed with one board per game before the first real request.

Views are plain JSON-like dicts and PNGs are bytes, so a request costs a pickle of each (~0.1 ms).
With `processes=0` images are drawn in a worker thread of this process (what tests of a single
renderer or a one-core host may prefer).
"""

from __future__ import annotations

import asyncio
import ctypes
import importlib
import inspect
import logging
import multiprocessing
import os
import signal
import sys
import types
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import cache
from typing import Any

from rendering.base import encode_png, warm_fonts

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
Sample = tuple[str, dict[str, Any]]  # (renderer module name, a view it draws)


@cache
def _takes_lang(module: str) -> bool:
    return "lang" in inspect.signature(importlib.import_module(module).render).parameters


def render_png(module: str, view: dict[str, Any], lang: str = "en-US") -> bytes:
    """`module.render(view, lang=lang)` as PNG bytes (importable by name, picklable). A renderer opts
    in to languages with a `lang` keyword; one without it draws English."""
    render = importlib.import_module(module).render
    return encode_png(render(view, lang=lang) if _takes_lang(module) else render(view))


_drawn = 0
TRIM_EVERY = 8  # images between two returns of freed memory to the system, in a worker (~1 ms each)


def _render_in_worker(module: str, view: dict[str, Any], lang: str) -> bytes:
    """What a worker runs: `render_png`, and now and then `malloc_trim`. A board allocates and frees
    megabytes of pixels; glibc keeps the freed pages, ~13 MB a worker after a few hundred boards."""
    global _drawn
    data = render_png(module, view, lang)
    _drawn += 1
    if _drawn % TRIM_EVERY == 0 and _libc is not None:
        _libc.malloc_trim(0)
    return data


_libc: Any = None


def _start_worker(parent: int, samples: Sequence[Sample]) -> None:
    """Worker initializer: die with the bot, then warm the caches.

    A pool's workers outlive a parent killed with SIGKILL (each holds both ends of its task pipe, so
    it never sees the end of input): the kernel is asked to kill the worker when its parent dies.
    """
    global _libc
    if sys.platform.startswith("linux"):
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the bot died before the request above took effect
        os._exit(0)
    _warm(samples)
    if _libc is not None:
        _libc.malloc_trim(0)


def _warm(samples: Sequence[Sample]) -> None:
    """Import the renderers and draw one view of each, so fonts, static layers and the common glyphs
    are cached before the first real board."""
    warm_fonts()
    for module, view in samples:
        try:
            render_png(module, view)
        except Exception:  # a warm-up is an optimisation: a real request reports a real error
            log.exception("warming %s failed", module)


def _ready() -> int:
    return os.getpid()


@contextmanager
def _no_main() -> Iterator[None]:
    """Spawn workers without this process's main module: multiprocessing would import it again in
    each worker (`python -m bot` is discord.py, the store, every cog: ~25 MB and a second of start-up
    per worker, for nothing a renderer needs). Workers import only the renderers."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


class RenderPool:
    """The worker processes, shared by every bot of the process (see `shared_pool`)."""

    def __init__(self, processes: int, samples: Sequence[Sample] = ()) -> None:
        self.processes = processes
        self._samples = tuple(samples)
        self._executor: Executor | None = None

    def executor(self) -> Executor | None:
        """The running pool (started on first use); None when images are drawn in threads."""
        if self.processes <= 0:
            return None
        if self._executor is None:
            # spawn: fresh interpreters, children of this process (a fork of it, with its event loop,
            # sqlite and gateway threads, is unsafe), which the kernel ends with it (`_start_worker`)
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(), self._samples),
            )
            with _no_main():
                for _ in range(self.processes):  # spawn (and warm) every worker now, not at the first board
                    self._executor.submit(_ready)
        return self._executor

    def warm_with(self, samples: Sequence[Sample]) -> None:
        """What workers started from now on draw first (workers already running are warm)."""
        self._samples = tuple(samples)

    def replace(self, broken: Executor) -> None:
        """A worker died (killed, out of memory): the next request starts new workers."""
        if self._executor is broken:
            self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The workers' process ids (for measuring their memory)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(processes)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


class Renderer:
    """One bot's access to the pool: at most `slots` images in flight (the rest wait their turn on
    the event loop, first come first served), so a burst of moves cannot queue unbounded work."""

    def __init__(self, pool: RenderPool, slots: int) -> None:
        self.pool = pool
        self.slots = asyncio.Semaphore(max(1, slots))

    def start(self, samples: Sequence[Sample] = ()) -> None:
        """Start the workers ahead of the first image; they draw `samples` first (warm caches)."""
        self.pool.warm_with(samples)
        self.pool.executor()

    async def png(self, module: str, view: dict[str, Any], lang: str = "en-US") -> bytes:
        """The PNG of `view` drawn by the renderer `module` in `lang`, in a worker, when a slot is free.

        A worker that died breaks the pool: it is replaced and the image drawn once more, so one lost
        worker never loses a board.
        """
        async with self.slots:
            loop = asyncio.get_running_loop()
            for attempt in (1, 2):
                executor = self.pool.executor()
                if executor is None:
                    return await asyncio.to_thread(render_png, module, view, lang)
                try:
                    return await loop.run_in_executor(executor, _render_in_worker, module, view, lang)
                except BrokenProcessPool:
                    if attempt == 2:
                        raise
                    log.warning("a render worker died; starting new workers")
                    self.pool.replace(executor)
            raise AssertionError("unreachable")


_shared: dict[int, RenderPool] = {}


def shared_pool(processes: int, samples: Sequence[Sample] = ()) -> RenderPool:
    """One pool per size for the whole process: a bot restarted in the same process (the tests do it
    for every test) keeps the warm workers instead of starting cold ones. Stopped at exit."""
    pool = _shared.get(processes)
    if pool is None:
        pool = _shared[processes] = RenderPool(processes, samples)
    return pool


__all__ = ["RenderPool", "Renderer", "render_png", "shared_pool"]
