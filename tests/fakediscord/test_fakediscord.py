"""End-to-end proof of the fake Discord: a real discord.py bot, real HTTP and WebSocket, on 127.0.0.1."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    BotFailure,
    Channel,
    CommandRefused,
    FakeDiscord,
    Guild,
    User,
    client_options,
    start_client,
)

GAMES = ["takeaway", "tactics", "haunted-house"]


class Tally(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tally:(?P<count>\d+)"):
    """A persistent counter button: the state lives in the custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {count}", custom_id=f"tally:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> Tally:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Tally(self.count + 1))
        await interaction.response.edit_message(content=f"count={self.count + 1}", view=view)  # type 7


def tally_view(count: int = 0) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Tally(count))
    return view


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick",
        options=[
            discord.SelectOption(label="Pumpkin", value="pumpkin"),
            discord.SelectOption(label="Bat", value="bat"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.defer()  # type 6, then edit the original (the select's message)
        await interaction.edit_original_response(content=f"picked {select.values[0]}", view=None)

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="who", max_values=2)
    async def who(self, interaction: discord.Interaction, select: discord.ui.UserSelect[Any]) -> None:
        names = sorted(f"{u.name}:{type(u).__name__}" for u in select.values)
        await interaction.response.send_message(f"chose {', '.join(names)}", ephemeral=True)


class SecretView(discord.ui.View):
    @discord.ui.button(label="Reveal", custom_id="reveal")
    async def reveal(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="the secret is 42", view=None)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (255, 120, 0)).save(buf, format="PNG")
    return buf.getvalue()


def make_bot(server: FakeDiscord, guild: Guild) -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = True
    bot = commands.Bot(command_prefix="!", intents=intents, **client_options(server))
    game = app_commands.Group(name="game", description="Play games")
    admin = app_commands.Group(name="admin", description="Admin tools", parent=game)

    @game.command(name="help", description="How to play")
    async def help_(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Games: " + ", ".join(GAMES), ephemeral=True)

    @game.command(description="Start a game")
    @app_commands.choices(
        size=[app_commands.Choice(name="small", value=3), app_commands.Choice(name="big", value=9)]
    )
    async def new(interaction: discord.Interaction, game: str, size: app_commands.Choice[int]) -> None:
        await interaction.response.send_message(f"new {game} size={size.value}", view=tally_view())

    @new.autocomplete("game")
    async def game_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g.title(), value=g) for g in GAMES if g.startswith(current)]

    @game.command(description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png_bytes()), "board.png")
        )

    @game.command(description="Slow thinking")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("only you see this", ephemeral=True)

    @game.command(description="Pick a thing")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=PickView())

    @game.command(description="A secret")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("psst", view=SecretView(), ephemeral=True)

    @game.command(description="Poke someone by DM")
    async def poke(interaction: discord.Interaction, member: discord.Member) -> None:
        try:
            await member.send("boo!", view=tally_view(5))
        except discord.Forbidden as e:
            await interaction.response.send_message(f"closed ({e.code})", ephemeral=True)
        else:
            await interaction.response.send_message(f"poked {member.name}", ephemeral=True)

    @game.command(description="Ask a name")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @game.command(description="Open threads")
    async def thread(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        lobby = await interaction.channel.create_thread(name="lobby", type=discord.ChannelType.public_thread)
        await interaction.response.send_message(f"lobby {lobby.id}")
        table = await (await interaction.original_response()).create_thread(name="table-1")
        await table.send("welcome to table 1")
        await interaction.followup.send(f"table {table.id}")

    @game.command(description="Calls a route Discord does not have")
    async def broken(interaction: discord.Interaction) -> None:
        try:
            await bot.http.request(discord.http.Route("GET", "/no/such/route"))
        except discord.NotFound:
            await interaction.response.send_message("404 as expected")

    @game.command(description="Crashes")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @game.command(description="Every way to edit and delete")
    async def edits(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("v1")
        await interaction.edit_original_response(content="v2")
        original = await interaction.original_response()
        followup = await interaction.followup.send(f"seen {original.content}", wait=True)
        await followup.edit(content="followup edited")
        assert isinstance(interaction.channel, discord.TextChannel)
        temp = await interaction.channel.send("temp")
        await temp.edit(content="temp edited")
        await temp.delete()
        fetched = await interaction.channel.fetch_message(followup.id)
        await interaction.followup.send(f"fetched {fetched.content}", ephemeral=True)
        await interaction.delete_original_response()

    @game.command(name="import", description="Load a saved game")
    async def import_(interaction: discord.Interaction, save: discord.Attachment) -> None:
        data = await save.read()  # downloaded from the fake's attachment URL
        await interaction.response.send_message(f"read {len(data)} bytes from {save.filename}")
        message = await interaction.original_response()
        await message.add_reaction("\N{JACK-O-LANTERN}")

    @game.command(description="Make a move")
    async def move(interaction: discord.Interaction, action: str) -> None:
        await interaction.response.send_message(f"moved {action}")

    @move.autocomplete("action")
    async def too_many(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"take {i}", value=str(i)) for i in range(30)]  # Discord allows 25

    @admin.command(description="Reset everything")
    async def reset(interaction: discord.Interaction, confirm: bool) -> None:
        await interaction.response.send_message(f"reset confirm={confirm}")

    @bot.tree.command(description="Ping (global, works in DMs)")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @bot.tree.command(description="Server settings", guild=discord.Object(guild.id))
    @app_commands.default_permissions(manage_guild=True)
    async def config(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("settings")

    bot.tree.add_command(game, guild=discord.Object(guild.id))

    async def setup_hook() -> None:
        bot.add_dynamic_items(Tally)
        await bot.tree.sync()
        await bot.tree.sync(guild=discord.Object(guild.id))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    server: FakeDiscord
    guild: Guild
    chan: Channel
    alice: User
    bob: User  # DMs closed
    bot: commands.Bot


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> AsyncIterator[World]:
    server = fake_discord
    guild = server.add_guild(name="Spooky")
    chan = server.add_channel(guild, "games")
    alice = server.add_user("alice")
    bob = server.add_user("bob", dms_open=False)
    server.add_member(guild, alice)
    server.add_member(guild, bob)
    bot = make_bot(server, guild)
    await start_client(server, bot)
    yield World(server, guild, chan, alice, bob, bot)


async def test_login_sync_and_guild(world: World) -> None:
    server, bot = world.server, world.bot
    assert bot.user is not None and bot.user.id == server.bot_user.id
    assert [c["name"] for c in server.commands()] == ["ping"]
    assert sorted(c["name"] for c in server.commands(world.guild)) == ["config", "game"]
    g = bot.get_guild(world.guild.id)
    assert g is not None and g.get_channel(world.chan.id) is not None
    assert g.get_member(world.alice.id) is not None and g.me is not None
    assert ("PUT", f"/applications/{server.application_id}/commands") in server.requests


async def test_ephemeral_help(world: World) -> None:
    r = await world.server.slash(world.alice, world.chan, "game help")
    assert r.ephemeral and r.content.startswith("Games: takeaway")
    assert world.server.messages(world.chan) == []  # nobody else sees it
    assert world.server.messages(world.chan, viewer=world.alice) == [r.response]
    assert world.server.messages(world.chan, viewer=world.bob) == []


async def test_autocomplete_choice_and_dynamic_button(world: World) -> None:
    server = world.server
    choices = await server.autocomplete(world.alice, world.chan, "game new", "game", partial="ta")
    assert [c["value"] for c in choices] == ["takeaway", "tactics"]
    r = await server.slash(world.alice, world.chan, "game new", game="takeaway", size=9)
    assert r.content == "new takeaway size=9" and not r.ephemeral
    msg = r.response
    assert msg is not None and msg.button("Count 0")["custom_id"] == "tally:0"
    clicked = await server.click(world.bob, msg, label="Count 0")
    assert clicked.callback_type == 7 and clicked.response is msg
    assert msg.content == "count=1" and msg.buttons[0]["custom_id"] == "tally:1"
    await server.click(world.alice, msg, "tally:1")
    assert msg.content == "count=2"


async def test_options_are_validated(world: World) -> None:
    server, alice, chan = world.server, world.alice, world.chan
    with pytest.raises(CommandRefused, match="choices"):
        await server.slash(alice, chan, "game new", game="takeaway", size=4)
    with pytest.raises(CommandRefused, match="required option 'size'"):
        await server.slash(alice, chan, "game new", game="takeaway")
    with pytest.raises(CommandRefused, match="expected int"):
        await server.slash(alice, chan, "game new", game="takeaway", size="9")
    with pytest.raises(CommandRefused, match="no option 'colour'"):
        await server.slash(alice, chan, "game new", game="takeaway", size=9, colour="red")
    with pytest.raises(CommandRefused, match="no autocomplete"):
        await server.autocomplete(alice, chan, "game new", "size", partial="1")


async def test_unsynced_commands_are_refused(world: World) -> None:
    server, alice, chan = world.server, world.alice, world.chan
    with pytest.raises(CommandRefused, match="was not synced"):
        await server.slash(alice, chan, "nope")
    with pytest.raises(CommandRefused, match="no subcommand 'fly'"):
        await server.slash(alice, chan, "game fly")
    with pytest.raises(CommandRefused, match="was not synced for DMs"):  # game is a guild command
        await server.slash(alice, server.dm_channel(alice), "game help")
    assert (await server.slash(alice, server.dm_channel(alice), "ping")).content == "pong"


async def test_guild_sync_without_copy_global_is_caught(fake_discord: FakeDiscord) -> None:
    server = fake_discord
    guild = server.add_guild()
    chan = server.add_channel(guild, "general")
    alice = server.add_user("alice")
    server.add_member(guild, alice)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), **client_options(server))

    @bot.tree.command(description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    async def setup_hook() -> None:
        await bot.tree.sync(guild=discord.Object(guild.id))  # the classic bug: uploads an empty list

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    await start_client(server, bot)
    assert server.commands(guild) == []
    with pytest.raises(CommandRefused, match="not synced"):
        await server.slash(alice, chan, "ping")


async def test_subcommand_group(world: World) -> None:
    r = await world.server.slash(world.alice, world.chan, "game admin reset", confirm=True)
    assert r.content == "reset confirm=True"


async def test_png_attachment(world: World) -> None:
    r = await world.server.slash(world.alice, world.chan, "game board")
    att = r.attachments[0]
    assert att.filename == "board.png" and att.data.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(att.data)).size == (8, 8)
    assert r.embeds[0]["image"]["url"] == "attachment://board.png"
    assert world.server.messages(world.chan)[-1].attachments[0].data == att.data


async def test_deferred_then_followups(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game slow")
    assert r.callback_type == 5 and r.deferred
    followups = await r.wait_followups(2)
    assert r.content == "done thinking" and not r.response.loading  # type: ignore[union-attr]
    assert followups[1].ephemeral and followups[1].content == "only you see this"
    assert [m.content for m in server.messages(world.chan)] == ["done thinking"]


async def test_string_select_with_deferred_update(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game pick")
    msg = r.response
    assert msg is not None
    with pytest.raises(CommandRefused, match="not among the options"):
        await server.select(world.alice, msg, "pick", ["ghost"])
    s = await server.select(world.alice, msg, "pick", ["bat"])
    assert s.callback_type == 6
    assert msg.content == "picked bat" and msg.components == []


async def test_forget_history_keeps_messages_reachable(world: World) -> None:
    """The load bench shortens its channels between phases: the forgotten messages still take edits."""
    server = world.server
    first = (await server.slash(world.alice, world.chan, "game pick")).response
    for _ in range(2):
        await server.slash(world.alice, world.chan, "game pick")
    assert first is not None and len(server.messages(world.chan)) == 3
    server.forget_history(world.chan, keep=1)
    assert len(server.messages(world.chan)) == 1 and server.messages(world.chan)[0] is not first
    await server.select(world.alice, first, "pick", ["bat"])
    assert server.message(first.id).content == "picked bat"
    assert len(server.messages(world.chan)) == 1


async def test_forget_history_keeps_public_and_ephemeral_apart(world: World) -> None:
    """A board edited in place stays listed while the ephemeral answers after it are cut back."""
    server = world.server
    board = (await server.slash(world.alice, world.chan, "game pick")).response
    for _ in range(3):
        await server.slash(world.alice, world.chan, "game secret")
    server.forget_history(world.chan, keep=1)
    listed = server.messages(world.chan, viewer=world.alice)
    assert len(listed) == 2 and listed[0] is board and listed[1].ephemeral


async def test_click_on_ephemeral_message(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game secret")
    msg = r.response
    assert msg is not None and msg.ephemeral
    with pytest.raises(CommandRefused, match="cannot see"):
        await server.click(world.bob, msg, "reveal")
    await server.click(world.alice, msg, label="Reveal")
    assert msg.content == "the secret is 42" and msg.ephemeral


async def test_dm_open_and_closed_and_click_in_dm(world: World) -> None:
    server, alice, bob = world.server, world.alice, world.bob
    r = await server.slash(alice, world.chan, "game poke", member=alice)
    assert r.content == "poked alice"
    dm = await server.wait_for_dm(alice, lambda m: m.content == "boo!")
    assert server.dms(alice) == [dm]
    await server.click(alice, dm, label="Count 5")
    assert dm.content == "count=6"
    r = await server.slash(alice, world.chan, "game poke", member=bob)
    assert r.content == "closed (50007)" and server.dms(bob) == []


async def test_modal_submit(world: World) -> None:
    server = world.server
    opened = await server.slash(world.alice, world.chan, "game name")
    assert opened.callback_type == 9 and opened.modal is not None and opened.modal["title"] == "Your name"
    r = await server.submit_modal(world.alice, opened, {"name": "Casper"})
    assert r.content == "hello Casper"


async def test_threads(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game thread")
    lobby = server.channels[int(r.content.split()[1])]
    assert lobby.parent_id == world.chan.id and lobby.name == "lobby"
    (followup,) = await r.wait_followups(1)
    table = server.channels[int(followup.content.split()[1])]
    assert r.original is not None and table.id == r.original.id  # started from the response message
    assert [m.content for m in server.messages(table)] == ["welcome to table 1"]
    bot_thread = world.bot.get_channel(table.id)
    assert isinstance(bot_thread, discord.Thread) and bot_thread.parent_id == world.chan.id


async def test_user_messages_and_message_content_intent(world: World) -> None:
    server, bot = world.server, world.bot
    waiter = asyncio.ensure_future(bot.wait_for("message", timeout=2))
    await server.say(world.alice, world.chan, "hello bot")
    message = await waiter
    assert message.author.id == world.alice.id
    assert message.content == ""  # the bot lacks the MESSAGE_CONTENT intent, as on Discord
    waiter = asyncio.ensure_future(bot.wait_for("message", timeout=2))
    await server.say(world.alice, world.chan, f"<@{server.bot_user.id}> hello")
    assert (await waiter).content.endswith("hello")  # mentions carry content anyway


async def test_member_cache_needs_members_intent(fake_discord: FakeDiscord) -> None:
    server = fake_discord
    guild = server.add_guild()
    alice = server.add_user("alice")
    server.add_member(guild, alice)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), **client_options(server))
    await start_client(server, bot)
    g = bot.get_guild(guild.id)
    assert g is not None and g.get_member(alice.id) is None and g.me is not None


async def test_unknown_route_is_recorded(world: World) -> None:
    server = world.server
    server.fail_fast = False
    r = await server.slash(world.alice, world.chan, "game broken")
    assert r.content == "404 as expected"
    assert [p.detail for p in server.take_problems("unknown-route")] == ["GET /api/v10/no/such/route"]


async def test_error_log_fails_fast(world: World) -> None:
    with pytest.raises(BotFailure, match=r"boom|crash"):
        await world.server.slash(world.alice, world.chan, "game crash")
    assert world.server.take_problems("log")


async def test_non_loopback_request_is_refused(world: World) -> None:
    session = world.bot.http._HTTPClient__session  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="non-loopback"):
        await session.get("https://discord.com/api/v10/users/@me")
    assert [p.kind for p in world.server.take_problems()] == ["non-loopback"]


async def test_edits_followups_and_deletes(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game edits")
    await r.wait_followups(2)
    await r.wait_for(lambda r: r.original is not None and r.original.deleted)
    assert r.original is not None and r.original.content == "v2" and r.original.edits == 1
    assert [m.content for m in r.followups] == ["followup edited", "fetched followup edited"]
    assert r.followups[1].ephemeral
    assert [m.content for m in server.messages(world.chan)] == ["followup edited"]  # temp deleted, v2 deleted
    counts = {k: server.requests.count(k) for k in set(server.requests)}
    assert any(m == "DELETE" and "/messages/@original" in p for m, p in counts)


async def test_default_member_permissions(world: World) -> None:
    server = world.server
    with pytest.raises(CommandRefused, match="needs permissions"):
        await server.slash(world.alice, world.chan, "config")
    carol = server.add_user("carol")
    server.add_member(world.guild, carol, permissions=discord.Permissions(manage_guild=True))
    assert (await server.slash(carol, world.chan, "config")).content == "settings"


async def test_member_chunk_request(world: World) -> None:
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None
    members = await guild.chunk()
    assert {m.name for m in members} == {"alice", "bob", "Spooky Table"}
    assert 8 in world.server.gateway.ops


async def test_gateway_compression_heartbeat_and_resume(fake_discord: FakeDiscord) -> None:
    server = fake_discord
    guild = server.add_guild()
    chan = server.add_channel(guild, "general")
    alice = server.add_user("alice")
    server.add_member(guild, alice)
    server.gateway.heartbeat_interval_ms = 20
    bot = make_bot(server, guild)
    resumed = asyncio.Event()
    bot.add_listener(_set_on(resumed), "on_resumed")
    await start_client(server, bot)
    assert server.gateway.compression == ["zlib-stream"]  # what discord.py asks for without zstandard
    await server.wait_for(lambda: server.gateway.ops.count(1) >= 2, what="two heartbeats")
    assert bot.latency < 1

    await server.reconnect_bot()  # op 7: the bot RESUMEs and gets RESUMED
    await asyncio.wait_for(resumed.wait(), 2)
    assert server.gateway.ops.count(6) == 1 and server.gateway.ops.count(2) == 1
    assert (await server.slash(alice, chan, "ping")).content == "pong"

    await server.reconnect_bot(4000)  # a resumable close code: RESUME again
    await server.wait_for(
        lambda: server.gateway.ops.count(6) == 2 and server.bot_connected, what="2nd resume"
    )

    async def no_identify_delay(shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py otherwise sleeps 5 s before a non-initial IDENTIFY

    bot.before_identify_hook = no_identify_delay  # type: ignore[method-assign]
    await server.reconnect_bot(4000, resumable=False)  # INVALID_SESSION -> IDENTIFY again
    await server.wait_for(
        lambda: server.gateway.ops.count(2) == 2 and server.bot_connected, what="re-identify"
    )
    assert (await server.slash(alice, chan, "ping")).content == "pong"


def _set_on(event: asyncio.Event) -> Callable[[], Coroutine[Any, Any, None]]:
    async def listener() -> None:
        event.set()

    return listener


async def test_attachment_option_and_reaction(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game import", save=("save.json", b'{"turn": 3}'))
    assert r.content == "read 11 bytes from save.json"
    await server.wait_for(lambda: r.response is not None and r.response.reactions == ["\N{JACK-O-LANTERN}"])


async def test_discord_limits_are_enforced(world: World) -> None:
    server = world.server
    with pytest.raises(BotFailure, match="25"):
        await server.autocomplete(world.alice, world.chan, "game move", "action", "t")
    await server.wait_for(lambda: any(p.kind == "log" for p in server.problems), what="the logged error")
    assert {p.kind for p in server.take_problems()} == {"bad-request", "log"}


async def test_wire_details(world: World) -> None:
    """What discord.py cannot show: exact headers, 204 without with_response, double acknowledgement."""
    server = world.server
    async with aiohttp.ClientSession() as http:
        auth = {"Authorization": "Bot x"}
        async with http.get(server.api_base + "/users/@me", headers=auth) as resp:
            assert resp.headers["Content-Type"] == "application/json"
        async with http.get(server.api_base + "/users/@me") as resp:
            assert resp.status == 401
        assert [p.kind for p in server.take_problems()] == ["unauthorized"]
        async with http.get(server.api_base + "/nowhere", headers=auth) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 0
        assert [p.detail for p in server.take_problems("unknown-route")] == ["GET /api/v10/nowhere"]

        server.fail_fast = False
        r = await server.slash(world.alice, world.chan, "ping")
        url = f"{server.api_base}/interactions/{r.id}/{r.token}/callback"
        async with http.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        assert [p.kind for p in server.take_problems()] == []

        bad = [{"name": "Game", "description": "x"}, {"name": "ok", "description": ""}]
        url = f"{server.api_base}/applications/{server.application_id}/commands"
        async with http.put(url, json=bad, headers=auth) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035
        (problem,) = server.take_problems("bad-request")
        assert "invalid command name 'Game'" in problem.detail
        assert [c["name"] for c in server.commands()] == ["ping"]  # unchanged


async def test_user_select(world: World) -> None:
    server = world.server
    r = await server.slash(world.alice, world.chan, "game pick")
    assert r.response is not None
    s = await server.select(world.alice, r.response, "who", [world.bob, world.alice])
    assert s.content == "chose alice:Member, bob:Member" and s.ephemeral
    with pytest.raises(CommandRefused, match=r"1\.\.2 values"):
        await server.select(world.alice, r.response, "who", [world.bob, world.alice, world.bob])


async def test_shards_get_their_guilds_and_dms_go_to_shard_zero(fake_discord: FakeDiscord) -> None:
    """Discord's routing: guild events by `(guild_id >> 22) % shard_count`, DMs to shard 0 only."""
    server = fake_discord
    alice = server.add_user("alice")
    guilds = [server.add_guild(f"g{i}", shard=(i, 2)) for i in (0, 1)]
    chans = [server.add_channel(g, "games") for g in guilds]
    for g in guilds:
        server.add_member(g, alice)
    seen: list[list[str]] = [[], []]
    clients: list[discord.Client] = []
    for shard in (0, 1):
        client = discord.Client(
            intents=discord.Intents.default(), shard_id=shard, shard_count=2, **client_options(server)
        )

        def record(shard: int = shard) -> Callable[[discord.Message], Coroutine[Any, Any, None]]:
            async def on_message(message: discord.Message) -> None:
                seen[shard].append(message.content)

            return on_message

        client.event(record())  # registers on_message
        await start_client(server, client)
        clients.append(client)
    assert [sorted(g.id for g in c.guilds) for c in clients] == [[guilds[0].id], [guilds[1].id]]
    assert server.shard_connected(0) and server.shard_connected(1)
    for i, chan in enumerate(chans):
        await server.say(alice, chan, f"<@{server.bot_user.id}> in g{i}")
    await server.say(alice, server.dm_channel(alice), "a dm")
    await _until(lambda: len(seen[0]) == 2 and len(seen[1]) == 1)
    await asyncio.sleep(0.1)  # nothing else arrives late
    assert [m.split()[-1] for m in seen[0]] == ["g0", "dm"] and seen[1][0].endswith("in g1")
    later = server.add_guild("late", shard=(1, 2))  # a guild joined after READY: its shard only
    await _until(lambda: clients[1].get_guild(later.id) is not None)
    assert clients[0].get_guild(later.id) is None


async def _until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll a condition on the client's side (the server's wait_for wakes on server changes only)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)
