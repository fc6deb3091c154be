"""A render worker's side of the pipe (`rendering.pool` starts the workers and talks to them).

Its own module, free of asyncio and subprocess, because a worker imports it: every module a worker
imports is private memory in each worker (asyncio and what it pulls in: ~2 MiB PSS a worker).
"""

from __future__ import annotations

import ctypes
import importlib
import inspect
import logging
import os
import pickle
import signal
import sys
from collections.abc import Sequence
from functools import cache
from multiprocessing.connection import Connection
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


def _run_in_worker(request: tuple[Any, ...]) -> bytes:
    """What a worker answers to a request, after the status byte: `render_png`'s PNG, or for a named
    function (which returns a result and raw bytes, e.g. its PNG) the result's pickle, its length
    first, then the raw bytes as they are (not copied into the pickle and out again: a PNG is sent as
    an image is). Now and then `malloc_trim`: a board allocates and frees megabytes of pixels; glibc
    keeps the freed pages, ~13 MB a worker after a few hundred boards."""
    global _drawn
    kind, module, *args = request
    if kind == PNG:
        data = OK + render_png(module, *args)
    else:
        function, arg = args
        result, raw = getattr(importlib.import_module(module), function)(arg)
        meta = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
        data = b"".join((OK, len(meta).to_bytes(4, "little"), meta, raw))
    _drawn += 1
    if _drawn % TRIM_EVERY == 0 and _libc is not None:
        _libc.malloc_trim(0)
    return data


PNG, CALL = "png", "call"  # a request's kind: an image to draw, a function to run


_libc: Any = None


def _start_worker(parent: int, samples: Sequence[Sample]) -> None:
    """Worker initializer: die with the bot, then warm the caches.

    A worker drawing when the bot is killed with SIGKILL would finish its image before it read the end
    of its pipe: the kernel is asked to kill the worker when its parent dies.
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


OK, FAILED = b"\x00", b"\x01"  # the first byte of a worker's answer: a PNG follows, or a pickled error


def _serve(conn: Connection, parent: int) -> None:
    """A worker's life: read the warm-up samples, warm up, say so, then draw one request after another
    until the pipe closes. A closed pipe at any step is the bot gone (closed, or killed: then the kernel
    ends us anyway): the worker ends quietly."""
    try:
        samples: Sequence[Sample] = pickle.loads(conn.recv_bytes())
        _start_worker(parent, samples)
        conn.send_bytes(b"ready")
        while True:
            request = pickle.loads(conn.recv_bytes())
            try:
                answer = _run_in_worker(request)
            except Exception as err:  # the bot raises it where the image was asked for
                try:
                    answer = FAILED + pickle.dumps(err)
                except Exception:
                    answer = FAILED + pickle.dumps(RuntimeError(repr(err)))
            conn.send_bytes(answer)
    except (EOFError, OSError):
        return
