"""Helpers to build exact Ghost Stories positions for scenario tests."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Event
from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.data import CARDS, FRONT, space_index, tile_name

State = dict[str, Any]


def gid(name: str) -> int:
    return next(i for i, c in CARDS.items() if c["name"] == name)


def blank(players: int = 4, diff: str = "normal", **opts: str) -> State:
    """An empty village at the start of board 0's Yang phase (no ghost, nothing haunted)."""
    s = GAME.new(players, 7, {"difficulty": diff, "power_sides": "random", **opts})
    s["spaces"] = [None] * 12
    s["buddha_on"] = [False] * 12
    for t in s["tiles"]:
        t["haunted"] = False
    s["pending"] = None
    s["queue"] = []
    s["turn"] = 0
    s["deck"] = [gid("Zombie")] * 20  # harmless fillers unless a test sets the deck
    s["last_roll"] = None
    core.start_yang(s)
    for bd in s["boards"]:
        if bd["seat"] is not None:
            bd["pos"] = 4
    return s


def put(s: State, space: str, name: str, haunt: int | None = None, **kw: Any) -> int:
    k = space_index(space)
    assert k is not None
    c = CARDS[gid(name)]
    if haunt is None and "HAUNTER" in c["yin"]:
        haunt = 0
    s["spaces"][k] = {
        "id": gid(name),
        "haunt": haunt,
        "captured": "CAPTURE_DIE" in c["arrival"],
        "vulnerable": False,
        **kw,
    }
    return k


def tile(s: State, key: str) -> int:
    return core.tile_of(s, key)


def tname(s: State, key: str) -> str:
    return tile_name(tile(s, key)).upper()


def stand_facing(s: State, b: int, space: str) -> None:
    k = space_index(space)
    assert k is not None
    s["boards"][b]["pos"] = FRONT[k]


def awaited(s: State) -> int:
    """The one awaited seat; for a team decision (any seat may answer) the first of them."""
    who = sorted(GAME.to_act(s))
    assert len(who) == 1 or GAME.shared_decision(s), who
    return who[0]


def act(s: State, text: str, seat: int | None = None) -> tuple[State, list[Event]]:
    if seat is None:
        seat = awaited(s)
    return GAME.apply(s, seat, GAME.parse_action(text))


def legal(s: State, seat: int | None = None) -> list[str]:
    if seat is None:
        if not GAME.to_act(s):
            return []
        seat = awaited(s)
    return [GAME.format_action(a).lower() for a in GAME.legal_actions(s, seat)]


def yin(s: State, b: int) -> list[Event]:
    """Run board b's Yin phase on s in place (s is a test-owned copy)."""
    ev: list[Event] = []
    s["turn"] = b
    s["pending"] = None
    try:
        core.start_yin(s, ev)
        core.run(s, ev)
    except core.Stop:
        pass
    return ev


def fix_rolls(monkeypatch: Any, faces: list[str]) -> None:
    """Every later die (Tao or curse) shows the next face of `faces`."""
    it = iter(faces)

    def fake(s: State, die: tuple[str, ...], n: int) -> list[str]:
        return [next(it) for _ in range(n)]

    monkeypatch.setattr(core, "roll", fake)


def texts(ev: list[Event]) -> str:
    return "\n".join(e.text for e in ev)
