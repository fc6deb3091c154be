"""A heuristic seat: place to keep the bucket flat and hole-free, pass the receiver's worst card.

It reads only its own view: its hand, the public buckets and scoring cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import bot.rules.sweets_stack.data as D
from bot.rules.base import BotPolicy
from bot.rules.rng import Rng
from bot.rules.sweets_stack.game import Action, grid_mask

JSON = dict[str, Any]


def badness(board: int) -> float:
    """Lower is better: tall stacks, covered holes and a bumpy surface shorten a round."""
    heights = []
    holes = 0
    for x in range(D.W):
        top = D.H
        for y in range(D.H):
            if board >> (y * D.W + x) & 1:
                top = y
                break
        heights.append(D.H - top)
        for y in range(top + 1, D.H):
            if not board >> (y * D.W + x) & 1:
                holes += 1
    bump = sum(abs(a - b) for a, b in pairwise(heights))
    return sum(heights) + 4.0 * holes + 0.5 * bump + 1.5 * max(heights)


def _placed_mask(cid: str, a: Action) -> int:
    """The cells a placement action fills, from the card's public shape."""
    cells = next(c for q, c in D.orientations(D.CARDS[cid].cells) if q == a.turns)
    h = max(y for _, y in cells) + 1
    top = a.row + h - 1
    return D.cells_mask(tuple((a.col + x, top - y) for x, y in cells))


def best_landing(board: int, cid: str) -> float | None:
    """The badness after the best upright resting place, or None when the candy does not fit."""
    best: float | None = None
    for _, _, m in D.resting_positions(board, D.CARDS[cid].cells):
        b = badness(board | m)
        if best is None or b < best:
            best = b
    return best


class SweetsBot(BotPolicy[Action]):
    def choose(self, view: JSON, legal: Sequence[Action], memory: JSON, rng: Rng) -> Action:
        seat = view["seat"]
        if view["phase"] == "pick":
            return self._pick(view, seat, legal)
        return self._place(view, seat, legal)

    def _pick(self, view: JSON, seat: int, legal: Sequence[Action]) -> Action:
        picks = [a for a in legal if a.verb == "pick"]
        seats = view["seats"]
        n = view["players"]
        step = 1 if view["direction"] == "left" else -1
        to = (seat + step) % n
        while not seats[to]["active"] and to != seat:
            to = (to + step) % n
        board = grid_mask(seats[to]["grid"])
        best: tuple[float, Action] | None = None
        for a in picks:
            card = D.CARDS[a.card]
            landing = best_landing(board, a.card)
            value = 100.0 if landing is None else landing  # a misfit gives us a candle
            if "pumpkin" in card.symbols:
                value += 2.0
            if "arrow" in card.symbols:
                value -= 1.5
            if "ghost" in card.symbols:
                value -= 1.0
            if card.crown:
                value -= 3.0
            if best is None or value > best[0]:
                best = (value, a)
        assert best is not None
        return best[1]

    def _place(self, view: JSON, seat: int, legal: Sequence[Action]) -> Action:
        me = view["seats"][seat]
        board = grid_mask(me["grid"])
        pile = me["pile"]
        you = view["you"]
        colour_count = {c: sum(1 for x in pile if D.CARDS[x].colour == c) for c in D.COLOURS}
        incoming = you["incoming"]
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.verb != "place":
                continue
            m = _placed_mask(incoming, a)
            nb = board | m
            score = badness(nb)
            for r in D.full_rows(nb):
                if not me["ticks"][r - 1]:
                    col = D.ROW_COLOURS[r - 1]
                    score -= 6.0 + 1.5 * (colour_count[col] + (D.CARDS[incoming].colour == col))
            if a.turns:
                score += 6.0
            if best is None or score < best[0]:
                best = (score, a)
        if best is not None:
            return best[1]
        swaps = [a for a in legal if a.verb == "swap"]
        for a in swaps:
            if best_landing(board, a.card) is not None:
                return a
        return next((a for a in legal if a.verb == "overflow"), legal[0])
