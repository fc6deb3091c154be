"""bot/tables/stats.py: ratings from places with bots left out, co-operative tallies, an up-to-date book."""

from __future__ import annotations

from bot.store import FinishedRow, FinishedSeat, Store
from bot.tables import stats


def row(
    tid: int,
    game: str,
    seats: list[tuple[int | None, bool, bool]],
    ranking: list[list[int]],
    winners: list[int],
    *,
    at: float | None = None,
    scores: list[int] | None = None,
    options: dict[str, str] | None = None,
) -> FinishedRow:
    return FinishedRow(
        id=tid,
        game=game,
        options=options or {},
        outcome={
            "ranking": ranking,
            "winners": winners,
            "scores": scores or [0] * len(seats),
            "cooperative": game == "ghost_stories",
        },
        updated_at=float(tid if at is None else at),
        seats=tuple(
            FinishedSeat(i, u, f"u{u}" if u else f"Bot {i}", bot, res) for i, (u, bot, res) in enumerate(seats)
        ),
    )


def test_bots_never_rank_and_a_place_held_by_bots_disappears() -> None:
    book = stats.Book()
    # a bot wins, human 1 second, human 2 third: 1 is rated above 2, the bot is only tallied
    book.add(row(1, "takeaway", [(None, True, False), (1, False, False), (2, False, False)], [[0], [1], [2]], [0]))
    board = stats.leaderboard(book, "takeaway")
    assert [r.user_id for r in board] == [1, 2] and board[0].ordinal > board[1].ordinal
    assert board[0].won == 0 and board[0].played == 1
    assert book.bots["takeaway"].played == 1 and book.bots["takeaway"].won == 1
    # one human against a bot: counted, not rated
    book.add(row(2, "takeaway", [(3, False, False), (None, True, False)], [[0], [1]], [0]))
    three = book.games["takeaway"][3]
    assert three.played == 1 and three.won == 1 and three.rating is None and three.streak == 1


def test_a_resigned_human_is_placed_last() -> None:
    book = stats.Book()
    book.add(row(1, "takeaway", [(1, False, True), (2, False, False)], [[0], [1]], [0]))
    board = stats.leaderboard(book, "takeaway")
    assert [r.user_id for r in board] == [2, 1]


def test_cooperative_games_count_team_results_best_score_and_levels_not_ratings() -> None:
    book = stats.Book()
    seats = [(1, False, False), (2, False, False)]
    book.add(row(1, "ghost_stories", seats, [[0, 1]], [0, 1], scores=[12, 12], options={"difficulty": "normal"}))
    book.add(row(2, "ghost_stories", seats, [[0, 1]], [], scores=[-5, -5], options={"difficulty": "hell"}))
    r = book.games["ghost_stories"][1]
    assert (r.played, r.won, r.best_score, r.levels_won, r.rating) == (2, 1, 12, {"normal"}, None)
    assert r.streak == 0 and r.best_streak == 1


async def test_the_book_reads_only_new_tables_and_starts_again_when_one_ended_out_of_order(store: Store) -> None:
    calls: list[tuple[float, int] | None] = []
    real = store.finished_tables

    async def spy(guild_id: int, **kw):  # type: ignore[no-untyped-def]
        calls.append(kw.get("after"))
        return await real(guild_id, **kw)

    store.finished_tables = spy  # type: ignore[method-assign]

    async def finished(tid: int, at: float, outcome: str) -> None:  # what play left, written directly
        cols = ["id", "guild_id", "channel_id", "game", "seed", "host_id", "status", "outcome", "reminder_after"]
        cols += ["created_at", "updated_at"]
        await store.load_tables(
            {
                "game_tables": (cols, [(tid, 5, tid, "takeaway", 1, 1, "finished", outcome, 1, 0.0, at)]),
                "seats": (["table_id", "seat", "user_id", "name"], [(tid, 0, 1, "a"), (tid, 1, 2, "b")]),
            }
        )

    for tid, at in ((1, 10.0), (2, 20.0)):
        await finished(tid, at, '{"ranking": [[0], [1]], "winners": [0]}')
    book = stats.StatsBook(store)
    assert (await book.book(5)).games[""][1].won == 2
    assert (await book.book(5)).seen == 2 and calls[-1] == (20.0, 2)  # only what ended after the mark
    # a table that ended "before" the mark (another process's clock): the count differs, all is read again
    await finished(3, 15.0, '{"ranking": [[1], [0]], "winners": [1]}')
    again = await book.book(5)
    assert again.seen == 3 and again.games[""][2].won == 1 and calls[-1] is None
    assert again.games[""][1].streak == 1 and again.games[""][1].best_streak == 1  # in the order they ended
