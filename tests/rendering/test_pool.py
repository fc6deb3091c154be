"""The render workers draw exactly what this process draws, a worker that dies loses no image, and a
renderer's error reaches the caller."""

from __future__ import annotations

import os
import signal

import pytest

from bot.rules import get_game
from cogs.common.ui import render_png, renderer_module, warm_samples
from rendering.pool import Renderer, RenderPool


async def test_workers_draw_the_same_png_as_the_process_and_replace_a_dead_worker() -> None:
    game = get_game("dawn_under")
    (module, view), *_ = warm_samples([game])
    assert module == renderer_module("dawn_under").__name__
    expected = render_png("dawn_under", view)
    pool = RenderPool(1, [(module, view)])
    try:
        renderer = Renderer(pool, 1)
        assert await renderer.png(module, view) == expected
        (pid,) = pool.worker_pids()
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)  # out of memory, an operator's kill: the next image still comes
        assert await renderer.png(module, view) == expected
        assert pool.worker_pids() and pool.worker_pids() != [pid]
        with pytest.raises(KeyError, match="players"):  # the worker's error, raised where it was asked
            await renderer.png(module, {})
        assert await renderer.png(module, view) == expected  # and that worker draws on
    finally:
        pool.close()


async def test_no_processes_draws_in_a_thread_of_this_process() -> None:
    game = get_game("sweets_stack")
    samples = warm_samples([game])
    assert len(samples) == 2, "a game with secrets warms its board and a seat's panel"
    module, view = samples[1]
    pool = RenderPool(0)
    assert await Renderer(pool, 2).png(module, view) == render_png("sweets_stack", view)
    assert pool.worker_pids() == []
