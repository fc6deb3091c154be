"""Loads the board layout and component counts once, from `data/dawn_under/`.

The rules read geometry and counts from data so the layout can change without touching the code
(the real board's arrangement is unknown; ours is a documented design).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "dawn_under"


@dataclass(frozen=True)
class Board:
    columns: int
    rows: int
    path_after_column: int
    path_after_row: int
    graves: tuple[str, ...]  # every grave id in reading order (A1, B1, ... H8)
    position: dict[str, tuple[int, int]]  # id -> (column, row), both 0-based
    quadrant: dict[str, int]
    adjacent: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Components:
    colours: tuple[str, ...]  # one-letter codes
    colour_names: dict[str, str]
    colour_rgb: dict[str, tuple[int, int, int]]
    vampires_per_colour: int
    lids_per_colour: int
    rat_lids: int
    reserve_lids: int
    garlic_per_player: int
    stakes: int
    stakes_for_penalty: int
    two_player: dict[str, Any]


def _load(name: str) -> dict[str, Any]:
    with (DATA_DIR / name).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def load_board() -> Board:
    raw = _load("board.json")
    graves = tuple(g["id"] for g in raw["graves"])
    return Board(
        columns=int(raw["columns"]),
        rows=int(raw["rows"]),
        path_after_column=int(raw["path_after_column"]),
        path_after_row=int(raw["path_after_row"]),
        graves=graves,
        position={g["id"]: (int(g["col"]), int(g["row"])) for g in raw["graves"]},
        quadrant={g["id"]: int(g["quadrant"]) for g in raw["graves"]},
        adjacent={k: tuple(v) for k, v in raw["adjacent"].items()},
    )


def load_components() -> Components:
    raw = _load("components.json")
    cols = raw["colours"]
    return Components(
        colours=tuple(c["code"] for c in cols),
        colour_names={c["code"]: c["name"] for c in cols},
        colour_rgb={c["code"]: (int(c["rgb"][0]), int(c["rgb"][1]), int(c["rgb"][2])) for c in cols},
        vampires_per_colour=int(raw["vampires_per_colour"]),
        lids_per_colour=int(raw["lids_per_colour"]),
        rat_lids=int(raw["rat_lids"]),
        reserve_lids=int(raw["reserve_lids"]),
        garlic_per_player=int(raw["garlic_per_player"]),
        stakes=int(raw["stakes"]),
        stakes_for_penalty=int(raw["stakes_for_penalty"]),
        two_player=dict(raw["two_player"]),
    )


BOARD = load_board()
COMPONENTS = load_components()
