"""The end of a game: one game-over message that pings the players, and the Rematch button on it.

`announce_end` is called by the table cog's delivery once a delivered table is no longer active (and by
the sweep when only the message is owed). It posts the message at most once per table as far as the
store knows: `end_announced_at` is set after the post succeeds, so a crash between the two posts it
again on restart (at least once), and a delivery that runs twice posts it once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_, Msg, t, tr
from bot.rules import Game, GameError, Outcome, get_game
from bot.store import TableRow
from bot.tables import LobbyError, NotSeated, fair
from bot.tables.text import CONTENT_MAX, EMBED_DESCRIPTION_MAX, clip, escape
from cogs.common.i18n import localized, reader
from cogs.common.ui import EMBED_COLOUR, TableButton, board_link, lobby_embed, lobby_items, make_view

if TYPE_CHECKING:
    from cogs.table import TableCog

REMATCH = "rematch"


def shown_names(table: TableRow) -> list[str]:
    """The seats' names as text: escaped, bots marked."""
    return [("🤖 " if s.is_bot else "") + escape(s.name) for s in table.seats]


def message_link(table: TableRow, message_id: int | None) -> str:
    if not message_id:
        return ""
    where = table.parent_channel_id or table.channel_id  # the lobby and the game-over message live there
    return f"https://discord.com/channels/{table.guild_id or '@me'}/{where}/{message_id}"


def humans(table: TableRow) -> list[int]:
    """Every human who was seated at the table (resigned or not), in seat order."""
    return [s.user_id for s in table.seats if not s.is_bot and s.user_id is not None]


def verdict(table: TableRow, names: list[str]) -> str:
    """Who won, in one sentence: "**alice** wins!", "The team lost.", "…the table was abandoned"."""
    if not table.outcome:
        if table.status == "abandoned":
            return N_("Everyone resigned, so the table was abandoned.")
        return N_("The table was closed before the end.")
    out = Outcome.from_json(table.outcome)
    if out.cooperative:
        return N_("The team won! 🎉") if out.winners else N_("The team lost.")
    winners = [f"**{names[s]}**" for s in sorted(out.winners) if s < len(names)]
    if not winners:
        return N_("Nobody won.")
    if len(winners) == 1:
        return N_("{name} wins! 🏆", name=winners[0])
    return N_("{names} share the win! 🏆", names=Msg.join(winners))


def result_lines(table: TableRow, game: Game[Any, Any], names: list[str]) -> list[str]:
    """The summary, then the game's own breakdown (`Game.outcome_lines`); a cooperative game's breakdown
    begins with its verdict, which repeats the summary, so that is left out."""
    if not table.outcome:
        return []
    out = Outcome.from_json(table.outcome)
    summary = "" if out.cooperative else game.event_text(out.summary, names)  # co-op: the verdict says it
    return [summary, *game.outcome_lines(out, names)] if summary else game.outcome_lines(out, names)


def end_message(table: TableRow) -> dict[str, Any]:
    """The keyword arguments of the game-over message: content with the pings, the result, Rematch."""
    game = get_game(table.game)
    names = shown_names(table)
    users = humans(table)
    pings = " ".join(f"<@{u}>" for u in users)
    content = (
        N_("🏁 {pings} — {title} is over. {verdict}", pings=pings, title=game.title, verdict=verdict(table, names))
        if pings
        else N_("🏁 {title} is over. {verdict}", title=game.title, verdict=verdict(table, names))
    )
    embed = discord.Embed(title=N_("🏁 Game over — {title} (table #{id})", title=game.title, id=table.id))
    embed.colour = EMBED_COLOUR
    lines = result_lines(table, game, names) or [verdict(table, names)]
    link = board_link(table)
    lang = table.lang  # the game-over message is public: the table's language
    tail = t(lang, "\n\n[The final board]({link})", link=link) if link else ""
    embed.description = clip("\n".join(tr(lang, line) for line in lines), EMBED_DESCRIPTION_MAX - len(tail)) + tail
    if table.seed_salt is not None and table.status == "finished":
        pledge = fair.commitment(table.game, table.id, table.seed, table.seed_salt)
        embed.add_field(
            name=N_("🎲 Fair dice"),
            value=N_(
                "Seed `{seed}`, salt `{salt}`: they give the commitment `{pledge}…` "
                "shown at the start. `/game verify` hands out the record to replay.",
                seed=table.seed,
                salt=table.seed_salt,
                pledge=pledge[:16],
            ),
            inline=False,
        )
    embed.set_footer(text=N_("/game status · /game log · /game hand still show this table · Rematch opens a new lobby"))
    button = TableButton(REMATCH, table.id, label=N_("Rematch"), emoji="🔁", style=discord.ButtonStyle.success)
    return {
        **localized(lang, content=content, embed=embed, view=make_view([button])),
        "allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(id=u) for u in users], roles=False, everyone=False
        ),
    }


async def announce_end(cog: TableCog, table: TableRow) -> None:
    """Post the game-over message if it is owed (the caller holds the table's delivery lock)."""
    table = await cog.service.table(table.id)
    if not table.end_unannounced:
        return
    message = await cog._channel_send(table, parent=True, **end_message(table))  # the result: by the lobby
    await cog.service.store.mark_end_announced(table.id, message.id)
    game = get_game(table.game)
    await cog._tell_followers(
        table,
        t(
            table.lang,
            "🏁 {title} · table #{id} is over. {verdict} {link}",
            title=game.title,
            id=table.id,
            verdict=verdict(table, shown_names(table)),
            link=message.jump_url,
        ),
        every_board=False,
    )


def _open_link(table: TableRow) -> str:
    return board_link(table) or message_link(table, table.lobby_message_id) or f"table #{table.id}"


async def rematch(cog: TableCog, interaction: discord.Interaction, table: TableRow) -> None:
    """A new lobby of the same game with the same options in the same channel, the clicker as host and
    the previous players pinged; a click once that lobby exists answers with a link to it."""
    user = interaction.user
    if table.is_open:
        raise GameError(N_("This game is not over yet."))
    if await _link_to_rematch(cog, interaction, table):
        return
    seat = table.seat_of(user.id)
    if seat is None or seat.is_bot:
        raise NotSeated(N_("Only the players of this game can call a rematch. Open your own table with /game new."))
    game = get_game(table.game)
    known = {spec.name for spec in game.options}
    try:
        new = await cog.service.new_table(
            game_key=table.game,
            guild_id=table.guild_id,
            channel_id=table.parent_channel_id or table.channel_id,  # where its lobby was
            host_id=user.id,
            host_name=user.display_name,
            options={k: v for k, v in table.options.items() if k in known},
            lang=table.lang,
            host_locale=interaction.locale.value,
        )
    except LobbyError:
        if await _link_to_rematch(cog, interaction, await cog.service.table(table.id)):
            return  # another click opened it a moment ago
        raise
    await cog.service.store.set_rematch(table.id, new.id)
    for _ in range(sum(1 for s in table.seats if s.is_bot)):
        new = await cog.service.add_bot(new.id, user.id)
    others = [u for u in humans(table) if u != user.id]
    pings = " ".join(f"<@{u}>" for u in others)
    content = t(
        new.lang,
        "🔁 **Rematch!** {pings} — {user} opened a new {title} table with the same options. "
        "Press **Join** to play again.",
        pings=pings,
        user=user.mention,
        title=game.title,
    ).replace("**Rematch!**  — ", "**Rematch!** ")
    callback = await interaction.response.send_message(
        content=clip(content, CONTENT_MAX),
        embed=lobby_embed(new),
        view=make_view(lobby_items(new)),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in others]),
    )
    message_id = getattr(callback.resource, "id", None)
    if message_id:
        await cog.service.store.set_message(new.id, lobby=message_id)


async def _link_to_rematch(cog: TableCog, interaction: discord.Interaction, table: TableRow) -> bool:
    """Answer with a link when this table's rematch is open (lobby or game); False if there is none."""
    if table.rematch_id is None:
        return False
    new = await cog.service.store.get_table(table.rematch_id)
    if new is None or not new.is_open:
        return False
    text = (
        N_("The rematch lobby is already open: {link}", link=_open_link(new))
        if new.status == "lobby"
        else N_("The rematch game is already open: {link}", link=_open_link(new))
    )
    await interaction.response.send_message(tr(reader(interaction), text), ephemeral=True)
    return True
