"""Bot steps made in a render worker (`bot.rules.thinking`) are the very steps a thread makes, a worker
that dies loses none, and a long think leaves a worker to the images."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import pytest

from bot.rules import GAMES, Rng, get_game
from bot.rules.thinking import BotJob, bot_move, shipped, think
from cogs.common.ui import renderer_module, warm_samples
from rendering.pool import Renderer, RenderPool

SHIPPED = sorted(k for k, g in GAMES.items() if shipped(g))


def _positions(key: str, steps: int = 12) -> list[tuple[int, str, int]]:
    """(version, stored state text, seat to act) along a game the bots play from its start."""
    game = get_game(key)
    state = game.new(2 if key != "ghost_stories" else 3, 7, game.check_options({}))
    out: list[tuple[int, str, int]] = []
    for version in range(steps):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        text = json.dumps(game.dump_state(state))
        out.append((version, text, seat))
        state = bot_move(game, game.bot_policy(), json.loads(text), seat, {}, Rng.from_seed(f"t:{version}"))[1]
    return out


@pytest.mark.parametrize("key", SHIPPED)
def test_a_worker_step_is_the_threads_step(key: str) -> None:
    """`think` (what a worker runs) from the stored text makes the same move, state and events as
    `bot_move` (what a thread runs) from the parsed state, with the same seed."""
    game = get_game(key)
    positions = _positions(key)
    assert len(positions) >= 4
    for version, text, seat in positions:
        seed = f"bot:7:{version}:{seat}"
        (action, new_state, events), raw = think(BotJob(key, 1, version, text, seat, {}, seed))
        expected = bot_move(game, game.bot_policy(), json.loads(text), seat, {}, Rng.from_seed(seed))
        assert raw == b""
        assert game.dump_action(action) == game.dump_action(expected[0])
        assert game.dump_state(new_state) == game.dump_state(expected[1])
        assert [e.text for e in events] == [e.text for e in expected[2]]


async def test_steps_made_in_a_worker_process_survive_a_dead_worker() -> None:
    """Through a real worker (pickled both ways): the same step as here; a killed worker is replaced
    and the next step still comes."""
    key = "ghost_stories"
    game = get_game(key)
    version, text, seat = _positions(key)[3]
    job = BotJob(key, 5, version, text, seat, {}, "bot:5:3:0")
    (action, new_state, _events), _ = think(job)
    pool = RenderPool(1)
    try:
        renderer = Renderer(pool, 1)
        made, _ = await renderer.think("bot.rules.thinking", "think", job)
        assert game.dump_action(made[0]) == game.dump_action(action)
        assert game.dump_state(made[1]) == game.dump_state(new_state)
        (pid,) = pool.worker_pids()
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)
        made, _ = await renderer.think("bot.rules.thinking", "think", job)
        assert game.dump_action(made[0]) == game.dump_action(action)
        assert pool.worker_pids() != [pid]
    finally:
        pool.close()


def slow(arg: float) -> tuple[Any, bytes]:
    """A think that takes `arg` seconds (the workers import this module by name)."""
    import time

    time.sleep(arg)
    return arg, b""


async def test_a_long_think_leaves_a_worker_to_the_images_and_thinks_take_turns() -> None:
    """With two workers, a think keeps one: an image asked for meanwhile is drawn by the other before
    the think ends, and a second think waits for the first (thinks never hold every worker)."""
    (module, view), *_ = warm_samples([get_game("dawn_under")])
    assert module == renderer_module("dawn_under").__name__
    pool = RenderPool(2, [(module, view)])
    try:
        renderer = Renderer(pool, 2)
        await renderer.png(module, view)  # both workers up and warm
        await renderer.png(module, view)
        done: list[str] = []

        async def run(name: str, work: Any) -> None:
            await work
            done.append(name)

        first = asyncio.create_task(run("think 1", renderer.think(__name__, "slow", 1.0)))
        await asyncio.sleep(0.1)
        second = asyncio.create_task(run("think 2", renderer.think(__name__, "slow", 0.01)))
        image = asyncio.create_task(run("image", renderer.png(module, view)))
        await asyncio.gather(first, second, image)
        assert done == ["image", "think 1", "think 2"]
    finally:
        pool.close()
