"""A server's results (/game stats): games played and won per player and game, OpenSkill ratings, streaks.

Read from the store's finished tables of one server in the order they ended (`Store.finished_tables`,
one query). Ratings are OpenSkill's Plackett-Luce model (the `openskill` package), which rates a game
of any number of players from its places: each competitive finished table updates the ratings of its
human seats from `outcome["ranking"]`, once for the game's own leaderboard and once for the all-games
one. Bot seats are counted apart and never rank: they are left out of the places (a place held only by
bots disappears), and a table with fewer than two humans changes no rating. A resigned human is placed
last (a bot played their seat out). Co-operative games (Ghost Stories) rate nobody: they count the
team's wins and losses, the best team score and the difficulty levels won.

The book of a server is kept in memory and brought up to date with only the tables that ended since it
was last read (the same query, with a mark), so a request costs one small query however many tables
the server has; if the count of finished tables does not match (a table that ended out of order) it is
read again from the start.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.rules import GameError, get_game
from bot.store import FinishedRow, FinishedSeat, Store

ALL = ""  # the key of the all-games book
THREAD_AFTER = 200  # tables to add at once before the work moves to a worker thread


@dataclass
class Record:
    """One player's results in one game (or in all games, under ALL)."""

    user_id: int
    name: str
    played: int = 0
    won: int = 0
    rating: PlackettLuceRating | None = None  # None: no rated game yet (co-operative only, or only bots)
    rated: int = 0
    streak: int = 0  # wins in a row, up to now
    best_streak: int = 0
    best_score: float | None = None  # co-operative games: the best team score
    levels_won: set[str] = field(default_factory=set)  # co-operative games: difficulty levels won
    last_at: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def ordinal(self) -> float:
        """The rating as one number to rank by (mu - 3 sigma: sure of being at least this good)."""
        return float(self.rating.ordinal()) if self.rating is not None else -math.inf


@dataclass
class BotTally:
    played: int = 0  # bot seats that played
    won: int = 0


@dataclass
class Book:
    """A server's results; `games[key][user]`, with ALL for every game together."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    games: dict[str, dict[int, Record]] = field(default_factory=dict)
    bots: dict[str, BotTally] = field(default_factory=dict)
    tables: dict[str, int] = field(default_factory=dict)  # finished tables per game (and ALL)
    cooperative: set[str] = field(default_factory=set)  # the games whose tables were co-operative
    seen: int = 0
    mark: tuple[float, int] | None = None

    def add_all(self, rows: list[FinishedRow]) -> None:
        for row in rows:
            self.add(row)

    def add(self, row: FinishedRow) -> None:
        self.seen += 1
        self.mark = (row.updated_at, row.id)
        if row.outcome is None:
            return
        try:
            declared = get_game(row.game).cooperative
        except GameError:  # a game no longer shipped: its tables still count in "all games"
            declared = False
        # the game's flag, or its outcome's (Ghost Stories marks its outcomes co-operative)
        cooperative = declared or bool(row.outcome.get("cooperative"))
        if cooperative:
            self.cooperative.add(row.game)
        winners = {int(s) for s in row.outcome.get("winners") or ()}
        humans = [s for s in row.seats if not s.is_bot and s.user_id is not None]
        for key in (row.game, ALL):
            self.tables[key] = self.tables.get(key, 0) + 1
            tally = self.bots.setdefault(key, BotTally())
            for s in row.seats:
                if s.is_bot:
                    tally.played += 1
                    tally.won += s.seat in winners
            book = self.games.setdefault(key, {})
            for s in humans:
                assert s.user_id is not None
                r = book.setdefault(s.user_id, Record(s.user_id, s.name))
                r.name, r.last_at = s.name, row.updated_at
                r.played += 1
                win = s.seat in winners
                r.won += win
                r.streak = r.streak + 1 if win else 0
                r.best_streak = max(r.best_streak, r.streak)
                if cooperative:
                    scores = row.outcome.get("scores") or ()
                    score = scores[s.seat] if s.seat < len(scores) else None
                    if isinstance(score, int | float) and (r.best_score is None or score > r.best_score):
                        r.best_score = score
                    if win:
                        r.levels_won.add(str(row.options.get("difficulty", "")) or "standard")
            if not cooperative:
                self._rate(book, row, humans)

    def _rate(self, book: dict[int, Record], row: FinishedRow, humans: list[FinishedSeat]) -> None:
        """Update the humans' ratings from the table's places (bots left out, resigned humans last)."""
        assert row.outcome is not None
        by_seat = {s.seat: s for s in humans if not s.resigned}
        places: list[list[int]] = []
        for place in row.outcome.get("ranking") or ():
            users = [by_seat[int(seat)].user_id for seat in place if int(seat) in by_seat]
            if users := [u for u in users if u is not None]:
                places.append(users)
        quitters = [s.user_id for s in humans if s.resigned and s.user_id is not None]
        if quitters:
            places.append(quitters)
        teams = [(u, i) for i, place in enumerate(places) for u in place]
        if len(teams) < 2:
            return
        before = [book[u].rating or self.model.rating() for u, _ in teams]
        rated = self.model.rate([[r] for r in before], ranks=[float(i) for _, i in teams])
        for (u, _), (new,) in zip(teams, rated, strict=True):
            book[u].rating = new
            book[u].rated += 1


class StatsBook:
    """The books of every server this process has been asked about, kept up to date on each read."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._books: dict[int, Book] = {}
        self._lock = asyncio.Lock()  # two requests must not add the same tables twice

    async def book(self, guild_id: int) -> Book:
        async with self._lock:
            book = self._books.get(guild_id) or Book()
            total, rows = await self.store.finished_tables(guild_id, after=book.mark)
            if book.seen + len(rows) != total:  # a table ended out of order: read them all again
                book = Book()
                total, rows = await self.store.finished_tables(guild_id)
            if len(rows) > THREAD_AFTER:  # a first read of a big server: keep the event loop free
                await asyncio.to_thread(book.add_all, rows)
            else:
                book.add_all(rows)
            self._books[guild_id] = book
            return book


def leaderboard(book: Book, game: str = ALL) -> list[Record]:
    """The human players of a game (or of all games), best first: by rating ordinal for competitive
    play, then wins, win rate and games played (a co-operative game: wins, best score, games)."""
    records = list(book.games.get(game, {}).values())

    def key(r: Record) -> tuple[float, ...]:
        score = r.best_score if r.best_score is not None else -math.inf
        return (-r.ordinal, -r.won, -r.win_rate, -score, -r.played, r.user_id)

    return sorted(records, key=key)


@dataclass(frozen=True)
class Card:
    """One player's own results in a server."""

    user_id: int
    name: str
    games: dict[str, Record]  # per game key, the player's record there
    overall: Record | None
    favourite: str | None  # the game key they played most (the latest played breaks ties)
    moves: int
    seconds: float

    @property
    def average_move(self) -> float | None:
        return self.seconds / self.moves if self.moves else None


async def card(stats: StatsBook, guild_id: int, user_id: int) -> Card:
    book = await stats.book(guild_id)
    games = {k: v[user_id] for k, v in book.games.items() if k != ALL and user_id in v}
    overall = book.games.get(ALL, {}).get(user_id)
    favourite = max(games, key=lambda k: (games[k].played, games[k].last_at)) if games else None
    moves, seconds = await stats.store.move_seconds(guild_id, user_id) if games else (0, 0.0)
    name = overall.name if overall else ""
    return Card(user_id, name, games, overall, favourite, moves, seconds)


def duration(seconds: float) -> str:
    """`45 s`, `12 min`, `3.5 h`, `2.1 days`."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def rating_text(r: Record) -> str:
    return f"{r.ordinal:.1f}" if r.rating is not None else "—"


__all__ = ["ALL", "Book", "Card", "Record", "StatsBook", "card", "duration", "leaderboard"]
