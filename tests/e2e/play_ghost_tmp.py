"""Not a test: plays a game and saves what a player sees to /tmp/ghost_stories-play/."""
import json
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_ghost_stories import GAME, Human, Table, do, fast_bots, fixed_seed, open_table

OUT = Path("/tmp/ghost_stories-play")


async def test_play(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    fast_bots(monkeypatch)
    fixed_seed(monkeypatch, 5)
    t = Table(w, await open_table(w, bots=1, options="difficulty=normal"))
    human = Human(0)
    log = []
    seen = set()
    for step in range(300):
        row, board = await t.check_hidden()
        if row.version not in seen:
            seen.add(row.version)
            (OUT / f"board_{step:03d}.png").write_bytes(board.attachments[0].data)
            log.append(f"=== step {step} board {board.id}\ncontent: {board.content}\n{board.embeds[0].get('description')}")
            for c in board.components:
                log.append("  " + json.dumps(c)[:1500])
        if row.status != "active":
            break
        state = GAME.load_state(row.state or {})
        if step % 7 == 0:
            r = await w.server.click(w.alice, board, label="Play")
            p = r.response
            log.append(f"--- panel step {step}: {p.content}")
            for c in p.components:
                log.append("  P " + json.dumps(c)[:1500])
        action = human.choose(state, step)
        log.append(f">>> {GAME.format_action(action)}  [{GAME.describe_action(action)}]")
        await do(w, w.alice, board, action, state["pending"] is not None, slash=False)
    (OUT / "log.txt").write_text("\n".join(log))
