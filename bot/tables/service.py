"""The table service: lobby, the validation gate, apply + persist, bot seats, reminders.

It knows games only through the rules contract and Discord not at all: it returns `Change`s, and the
table cog turns them into messages. Every handler loads the table from the store, so nothing depends
on memory surviving between interactions (or on this being the only process). A move reads it once:
the commit is version-checked by the database, and the table it wrote comes back from that write.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from secrets import token_hex
from typing import Any

from bot.i18n import N_, Msg, tr
from bot.rules import GAMES, Event, Game, GameError, Outcome, Rng, StaleAction, get_game
from bot.rules.errors import GameOver, InvalidInput, NotYourTurn
from bot.rules.thinking import bot_move
from bot.store import ActionRow, DuplicateInteraction, SeatRow, Store, TableConflict, TableRow
from bot.tables.errors import AlreadyApplied, LobbyError, NotAllowed, NotSeated, UndoRefused, UnknownTable
from bot.tables.fair import commitment as fair_commitment
from bot.tables.fair import record as fair_record
from bot.tables.text import escape

log = logging.getLogger(__name__)

MAX_BOT_STEPS = 2000  # per call: a safety net against a game whose bots could loop forever

# Where a bot step is made: (game, table as read, seat, the seat's memory (a copy), the seed of its
# dice) -> (action, new state, events). The bot process's default is a thread (`think_in_thread`);
# the bot wires its render workers in (`SpookyBot._think`), where a long think does not hold the
# event loop's GIL (bot.rules.thinking).
Thinker = Callable[[Game[Any, Any], TableRow, int, dict[str, Any], str], Awaitable[tuple[Any, Any, list[Event]]]]


async def think_in_thread(
    game: Game[Any, Any], table: TableRow, seat: int, memory: dict[str, Any], seed: str
) -> tuple[Any, Any, list[Event]]:
    """A bot step in a thread of this process (pure, possibly slow: off the event loop)."""
    policy, rng = game.bot_policy(), Rng.from_seed(seed)
    return await asyncio.to_thread(bot_move, game, policy, table.state or {}, seat, memory, rng)


CONFLICT_RETRIES = 5
LOG_LINES_KEPT = 512  # log rows whose board lines are kept made, in one language (`log_of`): a board's 8 at 64 tables
MAX_TABLE_ID = 2**63 - 1  # sqlite's INTEGER: a larger id in a forged custom_id is simply unknown


def stored_event(e: Event) -> dict[str, Any]:
    """An event as the actions log keeps it: its English text (for reading the database) and, for a
    translatable message, its id and params, so every later reader gets it in their own language."""
    out: dict[str, Any] = {"text": str.__str__(e.text), "kind": e.kind, "transient": e.transient}
    if isinstance(e.text, Msg):
        out["msg"] = e.text.to_json()
    return out


def event_line(stored: dict[str, Any]) -> str:
    """The inverse of `stored_event` for its text: a Msg again when it was one."""
    if "msg" in stored:
        return str(Msg.from_json(stored["msg"]))
    return str(stored["text"])


def stored_refusal(why: str | None) -> str | None:
    """An undo refusal as the actions log keeps it: a translatable message as its JSON (so the author
    reads it later in their own language), plain text as it is."""
    if isinstance(why, Msg):
        return json.dumps({"msg": why.to_json()}, ensure_ascii=False, separators=(",", ":"))
    return why


def refusal_text(stored: str | None) -> str | None:
    """The inverse of `stored_refusal` (rows written before it hold plain English)."""
    if stored and stored.startswith('{"msg":'):
        try:
            return str(Msg.from_json(json.loads(stored)["msg"]))
        except (ValueError, KeyError, TypeError):
            return stored
    return stored


STATUS_TEXT = {"lobby": N_("in the lobby"), "active": N_("in play")}
CLOSED_TEXT = {
    "finished": N_("This game is over: nothing more can be played here. `/game status` shows the final board."),
    "abandoned": N_("This table was abandoned: nothing more can be played on it."),
    "cancelled": N_("This table was cancelled before it started."),
}


@dataclass(frozen=True)
class Logged:
    """One line of what happened: the event, and the seat that caused it (None: the game itself)."""

    seat: int | None
    event: Event


@dataclass(frozen=True)
class Moment:
    """One momentary reveal for a player's glimpse: the public view right after a move, and its lines."""

    seq: int
    view: dict[str, Any]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Frame:
    """One step of a replay: the lasting public view right after log row `seq` (0: the start), and
    that row's kept public lines."""

    seq: int
    view: dict[str, Any]
    lines: tuple[str, ...]


AWAY_DAYS_PER_MONTH = 14  # time off a player may take in a calendar month (UTC)
MAX_MOMENTS = 40  # a glimpse shows at most the last 40 reveals (40 x 15 s = 10 min, within a token's 15)


@dataclass(frozen=True)
class Change:
    """What one request did to a table, for the presenter to show."""

    table: TableRow
    lines: tuple[Logged, ...] = ()
    newly_awaited: frozenset[int] = frozenset()  # seats that now face a new decision
    ended: bool = False
    note: str = ""  # for the author only (an undo: the move taken back, which may be a secret)
    undoable: bool = False  # the author's move (`act`) was kept with its state-before: Undo may take it back


@dataclass
class _Applied:
    state: Any
    lines: list[Logged] = field(default_factory=list)


def next_awaited(old: Mapping[int, int], to_act: frozenset[int], actor: int | None, version: int) -> dict[int, int]:
    """Seat -> version since which its current decision is awaited.

    A seat still awaited after someone *else* acted keeps its old version, so its panel stays valid
    (simultaneous picks); the actor, or a newly awaited seat, starts a new decision at `version`.
    """
    return {s: (old[s] if s in old and s != actor else version) for s in sorted(to_act)}


def in_effect(rows: Sequence[ActionRow]) -> list[ActionRow]:
    """The actions still in effect, oldest first: each "undo" row removes the action it undid, and itself.

    The log stays append-only; this is the stack an undo pops (only ever its top).
    """
    stack: list[ActionRow] = []
    for row in rows:
        if row.kind == "undo":
            if not stack or stack[-1].seq != int(row.action.get("undoes", -1)):
                raise ValueError(f"undo row {row.seq} does not undo the last action in effect")
            stack.pop()
        else:
            stack.append(row)
    return stack


class TableService:
    def __init__(self, store: Store, *, default_reminder: int = 12 * 3600, thinker: Thinker | None = None) -> None:
        self.store = store
        self.default_reminder = default_reminder
        self.think: Thinker = thinker or think_in_thread  # where a bot step is made (bot.rules.thinking)
        # a board's log lines as made, in its language: (table, seq) -> (digest of the row's stored
        # events, (game, language, *names), [(seq, who, text)]); strings only, ~1 KiB a row
        self._lines: OrderedDict[tuple[int, int], tuple[bytes, tuple[str, ...], list[tuple[int, str, str]]]] = (
            OrderedDict()
        )

    def _lock(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """One move (and the bots' replies) at a time per table, across every process on the store: a
        DM click reaches the process holding shard 0, whichever shard the table's guild is on."""
        return self.store.table_lock(table_id, "play")

    # -- reading -----------------------------------------------------------------------------------
    async def table(self, table_id: int) -> TableRow:
        if not 0 < table_id <= MAX_TABLE_ID:
            raise UnknownTable(N_("That table does not exist."))
        table = await self.store.get_table(table_id)
        if table is None:
            raise UnknownTable(N_("That table no longer exists."))
        return table

    async def table_in_channel(self, channel_id: int) -> TableRow:
        table = await self.store.open_table_in_channel(channel_id)
        if table is None:
            raise UnknownTable(N_("There is no open table in this channel. Start one with /game new."))
        return table

    async def table_for_user(self, channel_id: int | None, user_id: int) -> TableRow:
        """The table here if any — the open one, else the game that ended here last (so `/game status`,
        `/game log` and `/game hand` still show it, and a move is answered "this game is over") — else
        the user's most recent open table (for DMs)."""
        if channel_id is not None:
            table = await self.store.open_table_in_channel(channel_id)
            if table is None:
                table = await self.store.latest_ended_in_channel(channel_id)
            if table is not None:
                return table
        tables = await self.store.tables_of_user(user_id)
        if not tables:
            raise UnknownTable(N_("You are not seated at any open table."))
        return tables[0]

    @staticmethod
    def game_of(table: TableRow) -> Game[Any, Any]:
        return get_game(table.game)

    def state_of(self, table: TableRow) -> Any:
        if table.state is None:
            raise LobbyError(N_("The game has not started yet."))
        return self.game_of(table).load_state(table.state)

    def seat_of(self, table: TableRow, user_id: int) -> SeatRow:
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeated(N_("You are not seated at this table."))
        return seat

    def view_for(self, table: TableRow, seat: int | None) -> dict[str, Any]:
        game = self.game_of(table)
        return self._with_names(table, game, game.view(self.state_of(table), seat))

    @staticmethod
    def _with_names(table: TableRow, game: Game[Any, Any], view: dict[str, Any]) -> dict[str, Any]:
        view.setdefault("players", len(table.seats))
        view.setdefault("title", game.title)
        view["names"] = [s.name for s in table.seats]
        return view

    def legal_for(self, table: TableRow, user_id: int) -> list[Any]:
        if table.status != "active":
            return []
        seat = table.seat_of(user_id)
        if seat is None or seat.played_by_bot:
            return []
        return self.game_of(table).legal_actions(self.state_of(table), seat.seat)

    # -- lobby -------------------------------------------------------------------------------------
    async def new_table(
        self,
        *,
        game_key: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Mapping[str, str] | None = None,
        wants_thread: bool = False,
        lang: str = "en-US",
        host_locale: str | None = None,
    ) -> TableRow:
        game = get_game(game_key)
        opts = game.check_options(options)
        existing = await self.store.open_table_in_channel(channel_id)
        if existing is not None:
            raise LobbyError(
                N_(
                    "This channel already has an open table ({title}, {status}). Finish or abandon it "
                    "first, or use another channel or thread.",
                    title=get_game(existing.game).title,
                    status=STATUS_TEXT.get(existing.status, existing.status),
                )
            )
        try:
            return await self.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_key,
                options=opts,
                seed=secrets.randbits(62),
                host_id=host_id,
                host_name=host_name,
                reminder_after=self.default_reminder,
                wants_thread=wants_thread,
                seed_salt=token_hex(16),  # the fairness commitment's salt (a test may fix `secrets`' seeds)
                lang=lang,
                host_locale=host_locale,
            )
        except TableConflict:
            raise LobbyError(N_("This channel already has an open table.")) from None

    def _lobby(self, table: TableRow) -> None:
        if table.status != "lobby":
            raise LobbyError(
                N_("The game has already started.") if table.status == "active" else N_("This table is closed.")
            )

    async def join(self, table_id: int, user_id: int, name: str, locale: str | None = None) -> TableRow:
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._lobby(table)
            if table.seat_of(user_id):
                raise LobbyError(N_("You are already seated at this table."))
            game = self.game_of(table)
            if len(table.seats) >= game.max_players:
                raise LobbyError(N_("The table is full ({max_players} seats).", max_players=game.max_players))
            seats = [*table.seats, SeatRow(seat=len(table.seats), user_id=user_id, name=name, locale=locale)]
            await self.store.set_seats(table_id, seats)
            return await self.table(table_id)

    async def leave(self, table_id: int, user_id: int) -> TableRow:
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._lobby(table)
            self.seat_of(table, user_id)
            if user_id == table.host_id:
                raise LobbyError(N_("The host cannot leave the lobby; use Cancel to close the table."))
            seats = [s for s in table.seats if s.user_id != user_id]
            await self.store.set_seats(table_id, [replace(s, seat=i) for i, s in enumerate(seats)])
            return await self.table(table_id)

    async def add_bot(self, table_id: int, user_id: int) -> TableRow:
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._lobby(table)
            self._host(table, user_id, N_("add a bot"))
            game = self.game_of(table)
            if len(table.seats) >= game.max_players:
                raise LobbyError(N_("The table is full ({max_players} seats).", max_players=game.max_players))
            n = sum(1 for s in table.seats if s.is_bot) + 1
            seats = [*table.seats, SeatRow(seat=len(table.seats), user_id=None, name=f"Bot {n}", is_bot=True)]
            await self.store.set_seats(table_id, seats)
            return await self.table(table_id)

    async def set_option(self, table_id: int, user_id: int, name: str, value: str) -> TableRow:
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._lobby(table)
            self._host(table, user_id, N_("change the options"))
            options = self.game_of(table).check_options({**table.options, name: value})
            await self.store.set_options(table_id, options)
            return await self.table(table_id)

    async def cancel(self, table_id: int, user_id: int) -> TableRow:
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._lobby(table)
            self._host(table, user_id, N_("cancel the table"))
            await self.store.set_status(table_id, "cancelled")
            return await self.table(table_id)

    async def start(self, table_id: int, user_id: int, *, bots: bool = True) -> Change:
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._lobby(table)
            self._host(table, user_id, N_("start the game"))
            game = self.game_of(table)
            n = len(table.seats)
            if n < game.min_players:
                raise LobbyError(
                    N_(
                        "{title} needs at least {min_players} players; {n} seated. Invite someone to Join, or Add bot.",
                        title=game.title,
                        min_players=game.min_players,
                        n=n,
                    )
                )
            state = game.new(n, table.seed, table.options)
            await self.store.start_table(
                table_id, game.dump_state(state), next_awaited({}, game.to_act(state), None, 0), table.seed
            )
            table = await self.table(table_id)
            if not bots:
                return Change(table, (), self._humans(table, frozenset(table.awaited)))
            return await self._run_bots(table, [], frozenset(table.awaited))

    def _host(self, table: TableRow, user_id: int, what: str) -> None:
        if user_id != table.host_id:
            raise NotAllowed(N_("Only the host (<@{host_id}>) can {what}.", host_id=table.host_id, what=what))

    # -- playing -----------------------------------------------------------------------------------
    def parse(self, table: TableRow, text: str) -> Any:
        return self.game_of(table).parse_action(text)

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: Any,
        *,
        version: int | None = None,
        text: bool = False,
        bots: bool = True,
        interaction_id: int | None = None,
        table: TableRow | None = None,
        panel_message_id: int | None = None,
    ) -> Change:
        """The validation gate, then apply + persist, then any bot moves that follow.

        Order: known table -> seated -> awaited -> current version -> rules accept. `version` is the
        table version the player's button or panel was built from (None for typed commands).
        On a write conflict (another process or a simultaneous pick got there first) the gate and the
        rules run again on the fresh state, so a still-legal simultaneous decision is kept exactly once.
        With `bots=False` the bot seats' replies are left to `continue_bots`, so the player's
        interaction can be answered first. `interaction_id` is stored with the action (unique): the same
        interaction delivered twice (to two processes, or replayed) is applied once (`AlreadyApplied`).

        `table` is the table as the caller just read it: the move is tried on it first, so it is not read
        again. That is safe because the commit is version-checked by the database (a table that moved on
        since is refused, and the move is tried again on the table as stored), and a refusal is only
        ever given on the table as stored. A click already counted is told so (`AlreadyApplied`) by the
        unique interaction id, or, when the table has moved on since, by looking it up before refusing.

        `panel_message_id`: the mover's DM panel the move was clicked on, answered in place; the move's
        transaction moves that panel on to the mover's next decision (see `Store._apply`).
        """
        given = action
        async with self._lock(table_id):
            for _attempt in range(CONFLICT_RETRIES):
                known = table is not None and table.id == table_id
                if not known:
                    table = await self.table(table_id)
                assert table is not None
                try:
                    seat = self.gate(table, user_id, version)
                    game = self.game_of(table)
                    action = game.parse_action(str(given)) if text else given
                    state = game.load_state(table.state or {})
                    new_state, events = game.apply(state, seat.seat, action)
                except GameError:
                    if known:  # judged on the caller's read: judge it again on the table as stored
                        table = None
                        continue
                    await self.check_fresh(interaction_id)  # a click counted already is not a mistake
                    raise
                undo = self._undo_of(game, state, seat.seat, action, new_state, events)
                try:
                    table = await self._persist(
                        table,
                        game,
                        seat.seat,
                        action,
                        new_state,
                        events,
                        interaction_id=interaction_id,
                        undo=undo,
                        panel_message_id=panel_message_id,
                    )
                except DuplicateInteraction:
                    raise AlreadyApplied(N_("That click was already counted.")) from None
                except StaleAction:
                    log.info("write conflict on table %s; retrying on the fresh state", table_id)
                    table = None
                    continue
                lines = [Logged(seat.seat, e) for e in events]
                if not bots:
                    return Change(
                        table,
                        tuple(lines),
                        self._humans(table, self._new_decisions(table)),
                        ended=table.status != "active",
                        undoable=undo[0] is not None,
                    )
                return await self._run_bots(table, lines, self._new_decisions(table))
            raise StaleAction(N_("The table is busy; please try again."))

    def _playing_seat(self, table: TableRow, user_id: int) -> SeatRow:
        """The user's seat at a game in progress that they still play themselves (not resigned)."""
        if table.status == "lobby":
            raise LobbyError(N_("The game has not started yet."))
        self.check_open(table)
        seat = self.seat_of(table, user_id)
        if seat.resigned:
            raise NotAllowed(N_("You resigned from this game; a bot plays your seat now."))
        return seat

    async def check_fresh(self, interaction_id: int | None) -> None:
        """The same interaction delivered twice (two processes, a replayed event) makes one move."""
        if interaction_id is not None and await self.store.interaction_applied(interaction_id):
            raise AlreadyApplied(N_("That click was already counted."))

    def gate(self, table: TableRow, user_id: int, version: int | None = None) -> SeatRow:
        """The validation gate before the rules: table open -> seated -> awaited -> panel current.

        Read-only, so a cog can run it before acknowledging (a mistake is answered at once, directly);
        `act` runs it again under the table's lock before it commits.
        """
        seat = self._playing_seat(table, user_id)
        if seat.seat not in table.awaited:
            raise NotYourTurn(self._not_awaited_text(table))
        if version is not None and version < table.awaited[seat.seat]:
            raise StaleAction(N_("This panel is out of date: your situation changed since it was shown."))
        return seat

    @staticmethod
    def check_open(table: TableRow) -> None:
        """A closed table answers every click and command the same specific way, and nothing changes."""
        if table.status in CLOSED_TEXT:
            raise GameOver(CLOSED_TEXT[table.status])

    def _not_awaited_text(self, table: TableRow) -> str:
        names = [escape(s.name) for s in table.seats if s.seat in table.awaited]
        waiting = ", ".join(names) if names else "nobody"
        if self.game_of(table).cooperative:
            return N_(
                "Nothing is awaited from you right now (waiting for {waiting}). If you just "
                "clicked, an earlier click (yours or a teammate's) already counted.",
                waiting=waiting,
            )
        return N_(  # no team in a contest
            "Nothing is awaited from you right now (waiting for {waiting}). If you just "
            "clicked, an earlier click (yours or another player's) already counted.",
            waiting=waiting,
        )

    @staticmethod
    def _new_decisions(table: TableRow) -> frozenset[int]:
        return frozenset(s for s, v in table.awaited.items() if v == table.version)

    async def _persist(
        self,
        table: TableRow,
        game: Game[Any, Any],
        seat: int,
        action: Any,
        new_state: Any,
        events: list[Event],
        *,
        kind: str = "move",
        resign_seat: int | None = None,
        forced_outcome: Outcome | None = None,
        status: str | None = None,
        interaction_id: int | None = None,
        undo: tuple[dict[str, Any] | None, str | None] | None = None,
        record: dict[str, Any] | None = None,
        not_undoable: str = N_("a bot made it"),
        panel_message_id: int | None = None,
    ) -> TableRow:
        """Write one action and the state it produced (one transaction, version-checked); return the
        table as written (`Store.apply_table`: not read again).

        A move made by its author (`act`) comes with `undo` (`_undo_of`): the state from before it, kept
        so an undo restores it exactly, or why it may not be taken back. `record` is the action JSON of
        a non-move row (an undo names the action it undid).
        """
        undo_state: dict[str, Any] | None = None
        undo_refusal: str | None = None
        if kind == "move":
            undo_state, undo_refusal = undo if undo is not None else (None, not_undoable)
        outcome = forced_outcome or game.outcome(new_state)
        to_act = frozenset() if outcome or status else game.to_act(new_state)
        awaited = next_awaited(table.awaited, to_act, seat, table.version + 1)
        seats = table.seats
        memories: dict[int, dict[str, Any]] = {}
        bot_seats = [s for s in seats if s.played_by_bot or s.seat == resign_seat]
        policy = game.bot_policy() if bot_seats else None
        if policy is not None and not policy.observes:  # nothing to observe: only a resigned seat's row
            memories = {s.seat: dict(s.bot_memory) for s in bot_seats if s.seat == resign_seat}
        elif policy is not None:
            for s in bot_seats:
                # compared as JSON: `observe` may change nested values of the (shallow) copy in place
                before_memory = json.dumps(s.bot_memory, sort_keys=True)
                memory = policy.observe(dict(s.bot_memory), game.view(new_state, s.seat))
                if json.dumps(memory, sort_keys=True) != before_memory or s.seat == resign_seat:
                    memories[s.seat] = memory  # only the seats whose memory changed are written
        return await self.store.apply_table(
            table.id,
            seats=seats,
            expected_version=table.version,
            seat=seat,
            action=game.dump_action(action) if kind == "move" else (record or {"kind": kind}),
            events=[stored_event(e) for e in events],
            state=game.dump_state(new_state),
            awaited=awaited,
            status=status or ("finished" if outcome else "active"),
            outcome=outcome.to_json() if outcome else None,
            bot_memories=memories,
            kind=kind,
            resign_seat=resign_seat,
            interaction_id=interaction_id,
            undo_state=undo_state,
            undo_refusal=stored_refusal(undo_refusal),
            panel_message_id=panel_message_id,
        )

    @staticmethod
    def _undo_of(
        game: Game[Any, Any], before: Any, seat: int, action: Any, new_state: Any, events: list[Event]
    ) -> tuple[dict[str, Any] | None, str | None]:
        """(the state to keep for an undo, or None; why the move may not be taken back, or None)."""
        refusal = game.undo_refusal(before, seat, action, new_state, events)
        return (game.dump_state(before) if refusal is None else None), refusal

    async def _run_bots(self, table: TableRow, lines: list[Logged], newly: frozenset[int]) -> Change:
        """Let bot seats act until a human is awaited or the game ends."""
        game = self.game_of(table)
        newly_awaited = set(newly)
        for _ in range(MAX_BOT_STEPS):
            if table.status != "active":
                break
            bots = {s.seat: s for s in table.seats if s.played_by_bot}
            turn = sorted(s for s in table.awaited if s in bots)
            if not turn:
                break
            if len(turn) < len(table.awaited) and game.shared_decision(game.load_state(table.state or {})):
                break  # a team decision with a human in it: the humans make it
            seat = bots[turn[0]]
            # pure, possibly slow (a bot thinking): off the event loop, so other tables stay answered
            action, new_state, events = await self.think(
                game, table, seat.seat, dict(seat.bot_memory), f"bot:{table.seed}:{table.version}:{seat.seat}"
            )
            try:
                table = await self._persist(table, game, seat.seat, action, new_state, events)
            except StaleAction:  # the table moved on since it was read: the bots look again, at it as stored
                table = await self.table(table.id)
                continue
            lines.extend(Logged(seat.seat, e) for e in events)
            newly_awaited -= {seat.seat}
            newly_awaited |= self._new_decisions(table)
        humans_awaited = {s for s in newly_awaited if s in table.awaited}
        return Change(
            table=table,
            lines=tuple(lines),
            newly_awaited=frozenset(humans_awaited),
            ended=table.status != "active",
        )

    async def continue_bots(self, change: Change) -> Change:
        """Let bot seats reply to a change made with `act(..., bots=False)`; lines are merged.

        They start from the table the move wrote (`change.table`), not read again: what a bot step uses
        of it (state, awaited, the bots' memories and seats) only moves under this lock, and a table
        that moved on since (another process's move) is refused by the step's version-checked commit,
        then read (`_run_bots`)."""
        async with self._lock(change.table.id):
            return await self._run_bots(change.table, list(change.lines), change.newly_awaited)

    @staticmethod
    def _humans(table: TableRow, seats: frozenset[int]) -> frozenset[int]:
        return frozenset(s for s in seats if not table.seats[s].played_by_bot)

    async def resume_bots(self, table_id: int) -> Change:
        """After a restart: let bots finish any moves they owe (a crash may have cut a chain)."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            return await self._run_bots(table, [], frozenset())

    async def resign(self, table_id: int, user_id: int) -> Change:
        async with self._lock(table_id):
            table = await self.table(table_id)
            if table.status != "active":
                raise GameError(N_("Only a game in progress can be resigned from."))
            seat = self.seat_of(table, user_id)
            if seat.resigned:
                raise NotAllowed(N_("You have already resigned from this game."))
            game = self.game_of(table)
            state = game.load_state(table.state or {})
            humans_left = [s for s in table.seats if not s.played_by_bot and s.seat != seat.seat]
            still_in = [s for s in table.seats if not s.resigned and s.seat != seat.seat]
            outcome: Outcome | None = None
            status: str | None = None
            if not humans_left:
                status = "abandoned"
            elif not game.cooperative and len(still_in) == 1:
                winner = still_in[0].seat
                n = len(table.seats)
                outcome = Outcome(
                    scores=tuple(None for _ in range(n)),
                    ranking=((winner,), tuple(s for s in range(n) if s != winner)),
                    winners=frozenset({winner}),
                    summary=N_(
                        "{name} resigned; {name2} wins.", name=escape(seat.name), name2=escape(still_in[0].name)
                    ),
                )
            event = Event(
                N_("{name} resigned.", name=escape(seat.name))
                if outcome or status
                else N_("{name} resigned; a bot plays their seat now.", name=escape(seat.name))
            )
            table = await self._persist(
                table,
                game,
                seat.seat,
                None,
                state,
                [event],
                kind="resign",
                resign_seat=seat.seat,
                forced_outcome=outcome,
                status=status,
            )
            change = await self._run_bots(table, [Logged(seat.seat, event)], self._new_decisions(table))
            return change

    async def undo(
        self,
        table_id: int,
        user_id: int,
        *,
        version: int | None = None,
        interaction_id: int | None = None,
        panel_message_id: int | None = None,
    ) -> Change:
        """The author takes back their last move: the exact previous state, as an appended "undo" action.

        Refused (`UndoRefused`, or the usual gate errors) when the table is not in play, the user has no
        move in effect, another seat acted since, or the rules said the move cannot be taken back (it
        rolled, drew or revealed). `version` is the table version an Undo button was built at: a button
        from before the table moved on is stale. Bot seats' memories observe the restored view like any
        change: the undone move was deterministic and showed nothing hidden, so nothing they kept from
        it is a secret (and a human at the table saw the same board).
        """
        async with self._lock(table_id):
            await self.check_fresh(interaction_id)
            table = await self.table(table_id)
            seat = self.undo_gate(table, user_id, version)
            game = self.game_of(table)
            stack = in_effect(await self.store.actions(table_id))
            if not any(r.kind == "move" and r.seat == seat.seat for r in stack):
                raise UndoRefused(N_("You have no move here to take back."))
            top = stack[-1]
            if top.seat != seat.seat:  # (the author's own resignation is refused by the gate)
                who = escape(table.seats[top.seat].name)
                raise UndoRefused(N_("Your last move cannot be taken back: {who} has played since.", who=who))
            label = game.describe_action(game.load_action(top.action)).rstrip(".")
            data = await self.store.undo_state(table_id, top.seq) if top.undoable else None
            if data is None:
                why = refusal_text(top.undo_refusal) or N_("this game does not let moves be taken back")
                raise UndoRefused(N_("You cannot take back “{label}”: {why}.", label=label, why=why))
            # The public line repeats only the move's own public lines: its notation may be a secret
            # (a bid, a pick). Its author is told which move it was.
            said = "; ".join(event_line(e).rstrip(".") for e in top.events if not e.get("transient"))
            event = Event(
                N_("{name} took back their last move ({said}).", name=escape(seat.name), said=said)
                if said
                else N_("{name} took back their last move.", name=escape(seat.name)),
                {seat.seat: N_("You took back “{label}”.", label=label)},
            )
            try:
                table = await self._persist(
                    table,
                    game,
                    seat.seat,
                    None,
                    game.load_state(data),
                    [event],
                    kind="undo",
                    record={"kind": "undo", "undoes": top.seq},
                    interaction_id=interaction_id,
                    panel_message_id=panel_message_id,
                )
            except DuplicateInteraction:
                raise AlreadyApplied(N_("That click was already counted.")) from None
            return Change(
                table,
                (Logged(seat.seat, event),),
                self._humans(table, self._new_decisions(table)),
                ended=table.status != "active",
                note=label,
            )

    def undo_gate(self, table: TableRow, user_id: int, version: int | None = None) -> SeatRow:
        """The read-only part of `undo`'s checks (in play, seated, not resigned, button current), so a
        cog can answer a mistake at once, before acknowledging."""
        seat = self._playing_seat(table, user_id)
        if version is not None and version != table.version:
            raise StaleAction(N_("This Undo button is out of date: the table moved on since that move."))
        return seat

    async def last_undoable(self, table: TableRow, seat: int) -> bool:
        """True when `seat`'s move is the last action in effect and it may be taken back (for a button)."""
        rows = await self.store.actions(table.id, tail=1)
        return bool(rows) and rows[-1].kind == "move" and rows[-1].seat == seat and rows[-1].undoable

    async def abandon(self, table_id: int, user_id: int, *, can_manage_channel: bool) -> TableRow:
        async with self._lock(table_id):
            table = await self.table(table_id)
            if not table.is_open:
                raise GameError(N_("This table is already closed."))
            if user_id != table.host_id and not can_manage_channel:
                raise NotAllowed(N_("Only the host or a member with Manage Channels can abandon this table."))
            await self.store.set_status(table_id, "abandoned" if table.status == "active" else "cancelled")
            return await self.table(table_id)

    async def log(self, table_id: int, tail: int | None = None) -> list[tuple[int, str, str]]:
        """(seq, seat name, public text) for every kept log line; transient lines are never kept."""
        return await self.log_of(await self.table(table_id), tail)

    async def log_of(
        self, table: TableRow, tail: int | None = None, lang: str | None = None
    ) -> list[tuple[int, str, str]]:
        """`log` of a table just read (its game and seat names are all it takes of it). With `tail` and
        `lang` (a board's last lines, in the table's language) the lines come translated, and those of
        a row seen before come as made then: a board reads its last rows after every move, and all but
        one or two were made for the board before. Each is kept by the digest of its stored events and
        the names and language it was made with, so a row rewritten (an undo) or a seat renamed since is
        made anew; only the strings are kept, not the parsed row (issue #18: memory at 1,000 tables)."""
        game = self.game_of(table)
        seat_names = [escape(s.name) for s in table.seats]  # log lines are shown as text

        def made(seq: int, seat: int, events: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
            who = seat_names[seat] if 0 <= seat < len(seat_names) else "?"
            return [
                (seq, who, game.event_text(event_line(ev), seat_names)) for ev in events if not ev.get("transient")
            ]

        if tail is None or lang is None:
            out = []
            for row in await self.store.actions(table.id, tail=tail):
                out += made(row.seq, row.seat, row.events)
            return out
        key_names = (table.game, lang, *seat_names)
        out = []
        for seq, seat, text in await self.store.log_tail(table.id, tail):
            digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
            hit = self._lines.get((table.id, seq))
            if hit is not None and hit[0] == digest and hit[1] == key_names:
                self._lines.move_to_end((table.id, seq))
                lines = hit[2]
            else:
                lines = [(s, who, tr(lang, line)) for s, who, line in made(seq, seat, json.loads(text))]
                self._lines[(table.id, seq)] = (digest, key_names, lines)
                if len(self._lines) > LOG_LINES_KEPT:
                    self._lines.popitem(last=False)
            out += lines
        return out

    async def replay(self, table_id: int) -> Any:
        """Rebuild the state from the seed and the log (a test checks it equals the stored one).

        Moves are applied again; an "undo" row puts back the state from before the action it undid
        (as replayed here, not as stored); other rows (a resignation) leave the state as it is.
        """
        table = await self.table(table_id)
        steps = await self.states(table)
        return steps[-1][1] if steps else self.game_of(table).new(len(table.seats), table.seed, table.options)

    async def states(self, table: TableRow) -> list[tuple[ActionRow, Any]]:
        """Every log row with the state right after it, rebuilt from the seed (an undo row: the state
        it put back; a resignation: the state as it was)."""
        game = self.game_of(table)
        state = game.new(len(table.seats), table.seed, table.options)
        history: list[tuple[int, Any]] = []  # (seq, state before it) of every action in effect
        out: list[tuple[ActionRow, Any]] = []
        for row in await self.store.actions(table.id):
            if row.kind == "undo":
                seq, state = history.pop()
                if seq != int(row.action.get("undoes", -1)):
                    raise ValueError(f"undo row {row.seq} does not undo the last action in effect")
            else:
                history.append((row.seq, state))
                if row.kind == "move":
                    state, _ = game.apply(state, row.seat, game.load_action(row.action))
            out.append((row, state))
        return out

    # -- the glimpse: every momentary reveal, once, for the same time, to every player ---------------
    async def glimpse(self, table_id: int, user_id: int) -> tuple[TableRow, list[Moment]]:
        """The momentary reveals since this player last caught up (oldest first, at most MAX_MOMENTS),
        each as the public view right after its move plus that move's lines; the player counts as
        caught up at once, so a second click (or a second window) shows nothing again."""
        table = await self.table(table_id)
        game = self.game_of(table)
        if not game.glimpse_seconds(table.options):
            raise InvalidInput(N_("At this table every reveal stays on the board until the next move."))
        if table.status == "lobby":
            raise LobbyError(N_("The game has not started yet."))
        self.check_open(table)
        seat = self.seat_of(table, user_id)
        async with self._lock(table_id):
            fresh = await self.table(table_id)
            since = fresh.seats[seat.seat].glimpsed_version
            await self.store.mark_glimpsed(table_id, seat.seat, fresh.version)
        names = [escape(s.name) for s in fresh.seats]
        moments: list[Moment] = []
        for row, state in await self.states(fresh):
            if row.seq <= since or row.kind != "move":
                continue
            view = self._with_names(fresh, game, game.view(state, None))
            momentary = any(e.get("transient") for e in row.events)
            if not momentary and view == game.lasting_view(view, fresh.options):
                continue  # nothing in it was only true for a moment
            lines = tuple(game.event_text(event_line(e), names) for e in row.events)
            moments.append(Moment(row.seq, view, lines))
        return fresh, moments[-MAX_MOMENTS:]

    # -- the replay: every step of a table's public board, rebuilt from the seed and the log ----------
    async def replay_frames(self, table_id: int) -> tuple[TableRow, list[Frame]]:
        """The table and its public board at the start and after every log row, each with that row's
        kept public lines. Each view is the public view of its moment with what was only true for a
        moment stripped (`lasting_view`): never a seat's view, a transient line, a hand or a closed lid."""
        table = await self.table(table_id)
        if table.status in ("lobby", "cancelled") or table.state is None:
            raise LobbyError(N_("That table never started: there is nothing to replay."))
        game = self.game_of(table)
        names = [escape(s.name) for s in table.seats]

        def public(state: Any) -> dict[str, Any]:
            return self._with_names(table, game, game.lasting_view(game.view(state, None), table.options))

        frames = [Frame(0, public(game.new(len(table.seats), table.seed, table.options)), (N_("The game begins."),))]
        for row, state in await self.states(table):
            lines = tuple(game.event_text(event_line(e), names) for e in row.events if not e.get("transient"))
            frames.append(Frame(row.seq, public(state), lines))
        return table, frames

    # -- provably fair randomness (bot/tables/fair.py) -----------------------------------------------
    @staticmethod
    def commitment_of(table: TableRow) -> str | None:
        """The sha256 commitment to the table's seed, shown from the start; None for older tables."""
        if table.seed_salt is None:
            return None
        return fair_commitment(table.game, table.id, table.seed, table.seed_salt)

    async def fair_record(self, table_id: int) -> dict[str, Any]:
        """A finished table's record for anyone to replay (the seed is secret until the end)."""
        table = await self.table(table_id)
        if table.seed_salt is None:
            raise InvalidInput(
                N_("This table was opened before the bot committed to its seeds: it cannot be verified.")
            )
        if table.status != "finished":
            raise NotAllowed(N_("The seed is revealed when the game ends; until then its commitment is all there is."))
        actions = [
            {
                "seq": r.seq,
                "seat": r.seat,
                "kind": r.kind,
                "action": r.action,
                **({"undoes": r.action.get("undoes")} if r.kind == "undo" else {}),
            }
            for r in await self.store.actions(table_id)
        ]
        return fair_record(
            game=table.game,
            table_id=table.id,
            options=table.options,
            seats=len(table.seats),
            seed=table.seed,
            salt=table.seed_salt,
            actions=actions,
            final_state=table.state or {},
        )

    async def caught_up(self, table: TableRow, seat: int, before: int) -> None:
        """A mover saw their own move's reveal in its answer: caught up, if they were just before it."""
        await self.store.mark_glimpsed(table.id, seat, table.version, if_at_least=before)

    # -- reminders and DMs ---------------------------------------------------------------------------
    async def due_reminders(self, now: float | None = None) -> list[TableRow]:
        """Active tables whose awaited humans have been quiet for the table's reminder time."""
        now = time.time() if now is None else now
        return await self.store.due_tables(now, autopilot=False)

    async def due_autopilot(self, now: float | None = None) -> list[TableRow]:
        """Active tables with autopilot on whose awaited humans have been quiet that long."""
        now = time.time() if now is None else now
        return await self.store.due_tables(now, autopilot=True)

    async def claim(
        self, kind: str, owner: str, *, now: float, lease: float, after: int = 0, limit: int = 20
    ) -> list[TableRow]:
        """Claim tables for background work (`Store.claim`): with several processes, each table's
        reminder, autopilot move, catch-up or resumed bot move is done by the one that claimed it."""
        return await self.store.claim(kind, now, owner, lease, after=after, limit=limit)

    async def release(self, table_ids: Sequence[int], owner: str) -> None:
        await self.store.release(table_ids, owner)

    async def autopilot(self, table_id: int, now: float | None = None) -> Change:
        """A bot makes the move of every awaited human who is away, or quiet longer than the table
        allows, once (the seat stays theirs), then bots reply."""
        now = time.time() if now is None else now
        async with self._lock(table_id):
            table = await self.table(table_id)
            game = self.game_of(table)
            lines: list[Logged] = []
            humans = [s for s in table.seats if s.seat in table.awaited and not s.played_by_bot]
            away = await self.store.away_until([s.user_id for s in humans if s.user_id is not None], now)
            quiet = now - table.updated_at >= table.autopilot_after > 0
            for seat in humans:
                if table.status != "active" or seat.seat not in table.awaited:
                    continue
                if not quiet and (seat.user_id not in away or table.autopilot_after <= 0):
                    continue
                action, new_state, events = await self.think(
                    game, table, seat.seat, {}, f"autopilot:{table.seed}:{table.version}:{seat.seat}"
                )
                note = Event(
                    N_("{name} is away, so a bot moved for them.", name=escape(seat.name))
                    if seat.user_id in away
                    else N_("{name} was away for a while, so a bot moved for them.", name=escape(seat.name))
                )
                table = await self._persist(
                    table,
                    game,
                    seat.seat,
                    action,
                    new_state,
                    [note, *events],
                    not_undoable=N_("a bot made it while you were away"),
                )
                lines += [Logged(seat.seat, e) for e in (note, *events)]
            return await self._run_bots(table, lines, self._new_decisions(table))

    # -- time off ----------------------------------------------------------------------------------
    async def go_away(self, user_id: int, days: float, now: float | None = None) -> float:
        """Away for `days` (1 hour to the days left this month); 0 comes back. Returns until when."""
        now = time.time() if now is None else now
        month = time.strftime("%Y-%m", time.gmtime(now))
        current = (await self.store.away_until([user_id], now)).get(user_id)
        refund = -((current - now) / 86400) if current else 0.0  # the days not taken are given back
        if days <= 0:
            await self.store.set_away(user_id, now, now, month, refund)
            return now
        if days < 1 / 24:
            raise InvalidInput(N_("Time off is at least an hour (0.05 days)."))
        used = await self.store.days_away(user_id, month) + refund
        left = AWAY_DAYS_PER_MONTH - used
        if days > left + 1e-9:
            raise InvalidInput(
                N_(
                    "Time off is limited to {days} days a month; you have {left:.1f} left in {month}. "
                    "Ask for fewer days, or come back with days:0.",
                    days=AWAY_DAYS_PER_MONTH,
                    left=max(left, 0),
                    month=month,
                )
            )
        until = now + days * 86400
        await self.store.set_away(user_id, now, until, month, refund + days)
        return until

    async def away_of(self, table: TableRow, now: float | None = None) -> dict[int, float]:
        """Seat -> until when its player is away, for the table's seats whose player is away now."""
        now = time.time() if now is None else now
        users = self._human_seats(table)
        return {users[u]: until for u, until in (await self.store.away_until(users, now)).items()}

    @staticmethod
    def _human_seats(table: TableRow) -> dict[int, int]:
        """User id -> seat, for the table's human players."""
        return {s.user_id: s.seat for s in table.seats if s.user_id is not None and not s.is_bot}

    async def table_and_away(self, table_id: int, now: float | None = None) -> tuple[TableRow, dict[int, float]]:
        """`table` and `away_of` it, read in one statement."""
        found = await self.store.table_and_away(table_id, time.time() if now is None else now)
        if found is None:
            raise UnknownTable(N_("That table no longer exists."))
        table, away = found
        users = self._human_seats(table)
        return table, {users[u]: until for u, until in away.items() if u in users}

    async def mark_reminded(self, table_id: int, now: float | None = None) -> None:
        await self.store.set_reminder(table_id, reminded_at=time.time() if now is None else now)

    NOTIFY_LEVELS = ("every", "last", "reminders")

    async def set_notify(self, table_id: int, user_id: int, level: str) -> TableRow:
        """How loud the table is for this player: every decision, only when they are the last one
        awaited, or reminders only (their controls stay on the board and in My panel)."""
        if level not in self.NOTIFY_LEVELS:
            raise InvalidInput(N_("Choose one of: {NOTIFY_LEVELS}.", NOTIFY_LEVELS=", ".join(self.NOTIFY_LEVELS)))
        table = await self.table(table_id)
        self.check_open(table)
        seat = self.seat_of(table, user_id)
        await self.store.set_notify(table_id, seat.seat, level)
        return await self.table(table_id)

    async def set_reminder_after(
        self, table_id: int, user_id: int, seconds: int, lo: int, hi: int, autopilot: int | None = None
    ) -> TableRow:
        """Set the quiet time before reminders and, optionally, before a bot moves (0 turns that off)."""
        table = await self.table(table_id)
        self._host(table, user_id, N_("change the reminder time"))
        if not lo <= seconds <= hi:
            raise InvalidInput(N_("The reminder time must be between {lo} and {hi} seconds.", lo=lo, hi=hi))
        if autopilot is not None and autopilot != 0 and autopilot <= seconds:
            raise InvalidInput(N_("The bot should take over only after the reminder: make its time longer."))
        await self.store.set_reminder(table_id, after=seconds, autopilot_after=autopilot)
        return await self.table(table_id)

    async def mark_dm(self, table_id: int, seat: int, *, closed: bool, told: bool) -> None:
        await self.store.set_dm_flags(table_id, seat, closed=closed, told=told)

    # -- durable delivery ----------------------------------------------------------------------------
    async def lagging(self) -> list[TableRow]:
        """Tables whose board or awaited players' notices are behind the stored state."""
        return await self.store.lagging_tables()

    async def catch_up(self, table: TableRow) -> Change:
        """What a lagging table still has to show: the kept log lines since the board's version (never a
        transient one: a lid open then is closed now), and the awaited humans not yet told."""
        lines: list[Logged] = []
        if table.shown_version < table.version:
            for row in await self.store.actions(table.id, tail=max(1, table.version - table.shown_version)):
                if row.seq <= table.shown_version:
                    continue
                for ev in row.events:
                    if not ev.get("transient"):
                        lines.append(Logged(row.seat, Event(event_line(ev), kind=str(ev.get("kind", "")))))
        return Change(table, tuple(lines), table.lagging_seats, ended=table.status != "active")


def registered_games() -> list[Game[Any, Any]]:
    return sorted(GAMES.values(), key=lambda g: g.title)
