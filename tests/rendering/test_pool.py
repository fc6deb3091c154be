"""The render workers draw exactly what this process draws, a worker that dies loses no image, and a
renderer's error reaches the caller."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot.rules import get_game
from cogs.common.ui import render_png, renderer_module, warm_samples
from rendering.pool import Renderer, RenderPool


def _alive_or_zombie(pid: int) -> bool:
    """Whether `pid` still has a process table entry (running, or dead and not reaped)."""
    return os.path.exists(f"/proc/{pid}")


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
        for _ in range(100):  # the dead worker is reaped off the event loop, not left a zombie
            if not _alive_or_zombie(pid):
                break
            await asyncio.sleep(0.02)
        assert not _alive_or_zombie(pid)
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


async def test_a_draw_cancelled_as_a_worker_is_handed_to_it_gives_the_worker_back() -> None:
    """A panel drawn ahead and then not needed is cancelled, sometimes just as the busy worker it waits
    for is handed to it: the worker must go back to the pool, or every later image waits forever."""
    (module, view), *_ = warm_samples([get_game("dawn_under")])
    pool = RenderPool(1, [(module, view)])
    try:
        expected = await Renderer(pool, 1).png(module, view)  # started and warm
        first = asyncio.create_task(pool.draw(module, view, "en-US"))
        await asyncio.sleep(0)  # it has the one worker
        second = asyncio.create_task(pool.draw(module, view, "en-US"))
        await asyncio.sleep(0)  # it waits for that worker
        (worker,) = pool._workers
        assert worker.job is not None
        # cancelled once the first image is in, before the second has resumed with the worker
        worker.job.add_done_callback(lambda _: second.cancel())
        assert await first == expected
        with pytest.raises(asyncio.CancelledError):
            await second
        assert await asyncio.wait_for(pool.draw(module, view, "en-US"), 20) == expected
    finally:
        pool.close()
