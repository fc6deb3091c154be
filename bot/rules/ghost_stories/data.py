"""Component data (ghost cards, tiles, powers) and the fixed village geometry.

The cards live in data/ghost_stories/components.json so a disputed value can be corrected without
touching code; the geometry is derived here once because it is pure arithmetic on the 3x3 grid.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.i18n import T_

DATA_FILE = Path(__file__).resolve().parents[3] / "data" / "ghost_stories" / "components.json"

with DATA_FILE.open(encoding="utf-8") as _fh:
    RAW: dict[str, Any] = json.load(_fh)

# names players read are glossary terms (data/ghost_stories/glossary.tsv); a Msg equals its English name
CARDS: dict[int, dict[str, Any]] = {
    int(c["id"]): {**c, "name": T_(f"ghost_stories.ghost.{c['name']}", c["name"])} for c in RAW["ghosts"]
}
GHOST_IDS: tuple[int, ...] = tuple(i for i, c in CARDS.items() if not c["incarnation"])
INCARNATION_IDS: tuple[int, ...] = tuple(i for i, c in CARDS.items() if c["incarnation"])
TILES: dict[str, dict[str, str]] = {t["key"]: t for t in RAW["tiles"]}
TILE_KEYS: tuple[str, ...] = tuple(t["key"] for t in RAW["tiles"])
POWERS: dict[str, list[dict[str, str]]] = RAW["powers"]
POWER_NAMES: dict[str, str] = {
    p["key"]: T_(f"ghost_stories.power.{p['key']}", p["name"]) for side in POWERS.values() for p in side
}
POWER_TEXT: dict[str, str] = {p["key"]: p["text"] for side in POWERS.values() for p in side}
TAO_DIE: tuple[str, ...] = tuple(RAW["tao_die"])
CURSE_DIE: tuple[str, ...] = tuple(RAW["curse_die"])

# Board positions in turn order (clockwise): south, west, north, east; each has a fixed colour.
BOARD_COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")
SIDES: tuple[str, ...] = ("S", "W", "N", "E")
TAO_COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
BOARD_OF_COLOUR: dict[str, int] = {c: i for i, c in enumerate(BOARD_COLOURS)}


def tile_name(idx: int) -> str:
    """Village tile index (row*3+col, row 0 = north) -> notation 'a1'..'c3' (column letter, row)."""
    return "abc"[idx % 3] + str(idx // 3 + 1)


def tile_index(name: str) -> int | None:
    name = name.strip().lower()
    if len(name) == 2 and name[0] in "abc" and name[1] in "123":
        return (int(name[1]) - 1) * 3 + "abc".index(name[0])
    return None


def space_name(k: int) -> str:
    """Ghost space index (board*3 + place, place 0..2 from the owner's left) -> 'red1'."""
    return f"{BOARD_COLOURS[k // 3]}{k % 3 + 1}"


def space_index(name: str) -> int | None:
    name = name.strip().lower()
    for b, colour in enumerate(BOARD_COLOURS):
        if name.startswith(colour) and name[len(colour) :] in ("1", "2", "3"):
            return b * 3 + int(name[len(colour) :]) - 1
    return None


def _line(k: int) -> tuple[int, ...]:
    b, i = divmod(k, 3)
    side = SIDES[b]
    if side == "S":
        cells = [(2, i), (1, i), (0, i)]
    elif side == "N":
        cells = [(0, 2 - i), (1, 2 - i), (2, 2 - i)]
    elif side == "W":
        cells = [(i, 0), (i, 1), (i, 2)]
    else:
        cells = [(2 - i, 2), (2 - i, 1), (2 - i, 0)]
    return tuple(r * 3 + c for r, c in cells)


LINES: tuple[tuple[int, ...], ...] = tuple(_line(k) for k in range(12))
FRONT: tuple[int, ...] = tuple(line[0] for line in LINES)
FACES: tuple[tuple[int, ...], ...] = tuple(tuple(k for k in range(12) if FRONT[k] == t) for t in range(9))


def _opposite(k: int) -> int:
    b, i = divmod(k, 3)
    return ((b + 2) % 4) * 3 + (2 - i)


OPPOSITE: tuple[int, ...] = tuple(_opposite(k) for k in range(12))


def adjacent(t: int) -> list[int]:
    r, c = divmod(t, 3)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < 3 and 0 <= c + dc < 3:
                out.append((r + dr) * 3 + c + dc)
    return out


ADJ: tuple[tuple[int, ...], ...] = tuple(tuple(adjacent(t)) for t in range(9))
