"""Notifications per player per game, and the bot's messages left in the channel at the end.

Run: python bench/bench_notifications.py [--games dawn_under,sweets_stack,...] [--max-moves 900].
For each game, three humans (alice, bob, and carol, whose DMs are closed) play a whole game through the
local Discord (tests/fakediscord) and the real bot: whoever is awaited types a move with `/game move`,
chosen by the game's own bot policy from that seat's view (a careful player). Printed per player:
decisions awaited of them (from the move log), DMs received, channel messages that mentioned them
(pings, reminders, the DM-closed notice, the game-over message), and, per game, the board images posted
and the bot's messages still in the channel at the end. Runs against any commit of the project (it uses
only `/game new`, the lobby buttons and `/game move`), so the same script measures before and after.
Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import bench_bot

from bot.rules import Rng, get_game
from tests.fakediscord import FakeDiscord

GAMES = ("dawn_under", "sweets_stack", "trick_or_treat", "ghost_stories")
NO_THREADS = 277025442816  # the bot plays in the channel, so every message is counted in one place


def awaited_decisions(game: Any, table: Any, rows: list[Any]) -> dict[int, int]:
    """Seat -> distinct decisions awaited of it (a seat still awaited after another's move keeps one)."""
    state = game.new(len(table.seats), table.seed, table.options)
    awaited = {s: 0 for s in game.to_act(state)}
    seen = {(s, 0) for s in awaited}
    for row in rows:
        state, _ = game.apply(state, row.seat, game.load_action(row.action))
        awaited = {s: (awaited[s] if s in awaited and s != row.seat else row.seq) for s in game.to_act(state)}
        seen |= {(s, v) for s, v in awaited.items()}
    out: dict[int, int] = {}
    for s, _ in seen:
        out[s] = out.get(s, 0) + 1
    return out


async def play(key: str, max_moves: int) -> dict[str, Any]:
    server = FakeDiscord(fail_fast=False)
    await server.start()
    owner = server.add_user("owner")
    guild = server.add_guild(name="Bench", owner=owner, bot_permissions=NO_THREADS)
    chan = server.add_channel(guild, "games")
    users = [server.add_user("alice"), server.add_user("bob"), server.add_user("carol", dms_open=False)]
    for u in users:
        server.add_member(guild, u)
    game = get_game(key)
    policy = game.bot_policy()
    memories: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        bot = await bench_bot(server, Path(tmp) / "n.sqlite3", guild.id)
        lobby = (await server.slash(users[0], chan, "game new", game=key)).response
        assert lobby is not None
        for u in users[1:]:
            await server.click(u, lobby, label="Join")
        await server.click(users[0], lobby, label="Start")
        moves = 0
        table: Any = None
        while moves < max_moves:
            await bot.busy.idle()
            await asyncio.sleep(0)
            table = await bot.service.store.get_table(1)
            if table is None or table.status != "active" or not table.awaited:
                break
            state = game.load_state(table.state)
            seat = min(s for s in table.awaited if not table.seats[s].played_by_bot)
            view = game.view(state, seat)
            memories[seat] = policy.observe(memories.get(seat, {}), view)
            legal = game.legal_actions(state, seat)
            action = policy.choose(view, legal, memories[seat], Rng.from_seed(f"bench:{moves}"))
            user = users[seat]
            await server.slash(user, chan, "game move", action=game.format_action(action), timeout=30)
            moves += 1
        await bot.busy.idle()
        await asyncio.sleep(0.3)  # the last delivery and the game-over message
        table = await bot.service.store.get_table(1)
        rows = await bot.service.store.actions(1, kind="move")
        decisions = awaited_decisions(game, table, rows)
        ever = [m for m in server._channel_messages.get(chan.id, []) if m.author is server.bot_user]
        public = [m for m in ever if not m.ephemeral]
        out: dict[str, Any] = {"status": table.status, "moves": moves, "players": {}}
        for seat, user in enumerate(users):
            dm = server._channel_messages.get(server.dm_channel(user).id, [])
            out["players"][user.name] = {
                "decisions": decisions.get(seat, 0),
                "dms": sum(1 for m in dm if m.author is server.bot_user),
                # a mention notifies when the message is created (an edit notifies nobody)
                "mentions": sum(1 for m in public if m.contents and f"<@{user.id}>" in m.contents[0]),
            }
        out["boards_posted"] = sum(1 for m in public if m.embeds and "· table #" in m.embeds[0].get("title", ""))
        out["left_in_channel"] = sum(1 for m in public if not m.deleted)
        await bot.close()
        await server.stop()
    return out


async def main(games: list[str], max_moves: int) -> None:
    print(f"{'game':<16}{'end':<10}{'player':<8}{'decisions':>10}{'DMs':>6}{'mentions':>10}{'notices/decision':>18}")
    for key in games:
        r = await play(key, max_moves)
        for name, p in r["players"].items():
            per = (p["dms"] + p["mentions"]) / p["decisions"] if p["decisions"] else 0.0
            print(f"{key:<16}{r['status']:<10}{name:<8}{p['decisions']:>10}{p['dms']:>6}{p['mentions']:>10}{per:>18.2f}")
        print(f"{key:<16}  {r['moves']} moves; board images posted {r['boards_posted']}; "
              f"bot messages left in the channel {r['left_in_channel']}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--max-moves", type=int, default=900)
    args = parser.parse_args()
    asyncio.run(main(args.games.split(","), args.max_moves))
