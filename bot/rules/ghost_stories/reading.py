"""What any Taoist reads off the public board, shared by the table bot (bot.py) and its Wu-Feng
endgame (plan_wufeng.py), which both import it (so neither imports the other): the exact odds of an
exorcism over every roll of the Tao dice, how many dice a Taoist rolls, the powers in reach, and the
ghosts' timing (when a haunter haunts, how many teammates act before a board's Yin phase, which full
boards are overrun before anyone can help). Pure functions of the seat's view."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

View = dict[str, Any]
ORDER = ("red", "yellow", "green", "blue")  # the boards' order of play
FACES6 = ("red", "yellow", "green", "blue", "black", "white")  # a Tao die's faces


@lru_cache(maxsize=8)
def _outcomes(n: int) -> tuple[tuple[tuple[str, ...], float], ...]:
    """Every multiset of n Tao-die faces with its probability."""
    out = []
    for combo in combinations_with_replacement(FACES6, n):
        ways = factorial(n)
        for f in set(combo):
            ways //= factorial(combo.count(f))
        out.append((combo, ways / 6**n))
    return tuple(out)


def success_chance(need: dict[str, int], flex: int, n: int, tokens: dict[str, int], wild: bool, dice_ok: bool) -> float:
    """Exact odds that n Tao dice plus `tokens` (and `flex` wild symbols) cover `need`."""
    short = tuple(sorted((c, k - tokens.get(c, 0)) for c, k in need.items() if k > tokens.get(c, 0)))
    return _chance(short, flex, n if dice_ok else 0, wild)


@lru_cache(maxsize=4096)
def _chance(short: tuple[tuple[str, int], ...], flex: int, n: int, wild: bool) -> float:
    """`success_chance` on what the tokens leave uncovered (cached: the team planner asks often)."""
    total = 0.0
    for combo, p in _outcomes(n):
        whites = combo.count("white") if wild else 0
        if sum(max(0, k - combo.count(c)) for c, k in short) <= whites + flex:
            total += p
    return total


def haunts_in(g: dict[str, Any]) -> int | None:
    """Yin phases of its board before this haunter's figure enters the village (1: at the next one).

    The view says it (`haunts_in`: two or three steps by the table's `haunting` option); a view
    without it is read with two steps."""
    if g.get("haunt") is None:
        return None
    if g.get("haunts_in") is not None:
        return int(g["haunts_in"])
    return 2 - int(g["haunt"])


def chances(view: View, board: int) -> int:
    """Yang phases of living Taoists, this one included, before `board`'s next Yin phase: how many
    of the team can still deal with its ghosts in time (1: only me)."""
    me = ORDER.index(view["turn"])
    n = 1
    step = 1
    while step < 4 and (me + step) % 4 != board:
        b = view["boards"][(me + step) % 4]
        if b["alive"] and not b["neutral"]:
            n += 1
        step += 1
    return n


def power_of(view: View, colour: str) -> str:
    """The key of the power on `colour`'s board (what a Power token spent on that board would borrow)."""
    return str(view["boards"][("red", "yellow", "green", "blue").index(colour)]["power"]["key"])


def has_power(view: View, me: dict[str, Any], key: str) -> bool:
    """My own active power, or one borrowed this turn with a Power token (or imagined: `_extra`)."""
    if me["power"]["key"] == key and me["power"]["active"]:
        return True
    if key in me.get("_extra", ()):
        return True
    y = view["yang"]
    if y is None or view["turn"] != me["colour"]:
        return False
    return any(
        view["boards"][nb]["power"]["key"] == key and view["boards"][nb]["power"]["active"] for nb in y["borrowed"]
    )


def _dice(view: View, me: dict[str, Any]) -> int:
    n: int = max(0, 3 - int(view["captured_dice"]))
    if has_power(view, me, "mountain"):
        n += 1
    return n


def overrun_crisis(view: View) -> list[int]:
    """Living Taoists' boards that are full and will be overrun before a teammate can help (I am the last
    to act before their Yin phase), or whose Taoist would die of it."""
    out = []
    for b in range(4):
        owner = view["boards"][b]
        if owner["neutral"] or not owner["alive"]:
            continue
        full = all(sp["ghost"] is not None for sp in view["spaces"][b * 3 : b * 3 + 3])
        if full and (chances(view, b) == 1 or owner["qi"] <= 1):
            out.append(b)
    return out
