"""A writer process for the crash test: plays take-away games forever, printing every acknowledged move.

Run: python -m tests.store.writer DB_PATH. Each line `ACK table version` is printed only after the
store's commit returned, i.e. after the bot would have answered the player.
"""

from __future__ import annotations

import asyncio
import sys

from bot.rules import Rng, register
from bot.store import Store
from bot.tables import TableService
from tests.takeaway import GAME


async def main(path: str) -> None:
    register(GAME)
    store = await Store.open(path)
    service = TableService(store)
    pick = Rng.from_seed(1)
    channel = 0
    while True:
        channel += 1
        table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=channel, host_id=1, host_name="a")
        await service.join(table.id, 2, "b")
        change = await service.start(table.id, 1)
        table = change.table
        while table.status == "active":
            seat = pick.choice(sorted(table.awaited))
            user = table.seats[seat].user_id
            assert user is not None
            action = pick.choice(service.legal_for(table, user))
            change = await service.act(table.id, user, action)
            table = change.table
            print(f"ACK {table.id} {table.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
