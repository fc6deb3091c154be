"""Component data (loaded once from data/sweets_stack) and the bucket geometry.

The bucket is a bitmask of W*H bits, bit `y*W + x` with y = 0 the TOP row, so a candy falling means
y growing. Placement generation is the hot path: shapes are pre-shifted into masks once per
orientation and the reachable resting positions are found by a BFS over the offsets from wholly
above the bucket down to its floor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "sweets_stack"

Cells = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Card:
    """A candy card: id like 'R-S05' (or 'C-R' for a crown card), colour letter, shape, symbols."""

    id: str
    colour: str
    name: str  # the shape's code (views and tests name shapes by it)
    cells: Cells
    symbols: tuple[str, ...]
    label: str = ""  # the shape in words, what players read ("arch"); a glossary term

    @property
    def crown(self) -> bool:
        return "crown" in self.symbols


@dataclass(frozen=True)
class AdvancedCard:
    id: str
    name: str
    difficulty: int
    text: str
    prefill: tuple[tuple[int, int], ...]  # (column 1.., row 1.. from the bottom)
    forbidden_first: tuple[tuple[int, int], ...]


def _load(name: str) -> Any:
    with (DATA_DIR / name).open(encoding="utf-8") as fh:
        return json.load(fh)


def normalise(cells: Cells) -> Cells:
    """Shift to min x = min y = 0 and sort, so equal shapes compare equal."""
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def rotate_cw(cells: Cells) -> Cells:
    """90 degrees clockwise in screen coordinates (y down): (x, y) -> (h - 1 - y, x)."""
    h = max(y for _, y in cells) + 1
    return normalise(tuple((h - 1 - y, x) for x, y in cells))


def rotated(cells: Cells, quarter_turns: int) -> Cells:
    out = normalise(cells)
    for _ in range(quarter_turns % 4):
        out = rotate_cw(out)
    return out


_BUCKET = _load("bucket.json")
W: int = int(_BUCKET["width"])
H: int = int(_BUCKET["height"])
ROW_COLOURS: tuple[str, ...] = tuple(_BUCKET["row_colours"])  # index 0 = row 1 (bottom)
FULL_ROW = (1 << W) - 1

_CARDS = _load("cards.json")
COLOUR_NAMES: dict[str, str] = dict(_CARDS["colours"])
COLOURS: tuple[str, ...] = tuple(COLOUR_NAMES)
SYMBOL_TEXT: dict[str, str] = dict(_CARDS["symbols"])


def _build_cards() -> tuple[dict[str, Card], tuple[str, ...], tuple[str, ...]]:
    cards: dict[str, Card] = {}
    base: list[str] = []
    for colour in COLOURS:
        for sh in _CARDS["shapes"]:
            cid = f"{colour}-{sh['id']}"
            cards[cid] = Card(
                cid,
                colour,
                sh["name"],
                normalise(tuple((x, y) for x, y in sh["cells"])),
                tuple(sh["symbols"]),
                sh["label"],
            )
            base.append(cid)
    crowns: list[str] = []
    for cr in _CARDS["crowns"]:
        cards[cr["id"]] = Card(
            cr["id"],
            cr["colour"],
            cr["name"],
            normalise(tuple((x, y) for x, y in cr["cells"])),
            tuple(cr["symbols"]),
            cr["label"],
        )
        crowns.append(cr["id"])
    return cards, tuple(base), tuple(crowns)


CARDS, BASE_DECK, CROWNS = _build_cards()

ADVANCED: dict[str, AdvancedCard] = {
    a["id"]: AdvancedCard(
        a["id"],
        a["name"],
        int(a["difficulty"]),
        a["text"],
        tuple((c, r) for c, r in a.get("prefill", [])),
        tuple((c, r) for c, r in a.get("forbidden_first", [])),
    )
    for a in _load("advanced.json")["cards"]
}
ADVANCED_IDS: tuple[str, ...] = tuple(ADVANCED)


def cell_bit(col: int, row: int) -> int:
    """Bit of a cell named as on the sheet: column 1.. from the left, row 1.. from the bottom."""
    return 1 << ((H - row) * W + (col - 1))


def cells_mask(cells: tuple[tuple[int, int], ...]) -> int:
    m = 0
    for c, r in cells:
        m |= cell_bit(c, r)
    return m


# -- orientations and placements ------------------------------------------------------------------


@lru_cache(maxsize=512)
def orientations(cells: Cells) -> tuple[tuple[int, Cells], ...]:
    """Distinct orientations as (quarter turns clockwise, cells); 0 first, duplicates dropped."""
    seen: list[Cells] = []
    out: list[tuple[int, Cells]] = []
    for q in range(4):
        c = rotated(cells, q)
        if c not in seen:
            seen.append(c)
            out.append((q, c))
    return tuple(out)


@lru_cache(maxsize=512)
def _rows(cells: Cells) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """(height, columns, masks): the shape's mask at every offset from wholly above the bucket down to
    resting on its floor, row by row (row i is py = i - height; px 0..columns-1 in a row); a mask holds
    only the cells inside the bucket."""
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    cols = W - w + 1
    rows = []
    for py in range(-h, H - h + 1):
        row = []
        for px in range(cols):
            m = 0
            for x, y in cells:
                if y + py >= 0:
                    m |= 1 << ((y + py) * W + x + px)
            row.append(m)
        rows.append(tuple(row))
    return h, cols, tuple(rows)


def resting_positions(board: int, cells: Cells) -> list[tuple[int, int, int]]:
    """Resting offsets a candy reaches by a legal fall: [(px, py, mask)], py >= 0.

    「當糖果落下時不可以穿過本來就已經被其他糖果佔住的空間」: the candy starts wholly above the bucket
    (py = -height, any column), then moves left, right or down any number of times, only ever through
    free cells (never up); a position wholly inside the bucket is a resting place when it cannot move
    down. A candy stuck while still sticking out of the top does not fit there. Sorted bottom-first,
    then left to right.

    Row by row, as bits (a column a bit): a fall never goes up, so the offsets reached in a row are
    those reached just above that are free here, spread left and right through this row's free ones.
    (The same places as a search over every offset, in about a third of the time: the rules ask it for every
    candy a player could place, at each reveal and each placement.)
    """
    h, cols, rows = _rows(cells)
    frees = [0] * len(rows)
    reached = [0] * len(rows)
    reach = (1 << cols) - 1  # the first row: wholly above the bucket, every column
    for i, row in enumerate(rows):
        free, bit = 0, 1
        for m in row:
            if not m & board:
                free |= bit
            bit <<= 1
        frees[i] = free
        reach &= free
        while True:  # spread through the row's free offsets
            wider = (reach | reach << 1 | reach >> 1) & free
            if wider == reach:
                break
            reach = wider
        reached[i] = reach
        if not reach:
            break
    rest: list[tuple[int, int, int]] = []
    last = len(rows) - 1
    for i in range(last, h - 1, -1):  # py = i - h >= 0, the bottom row first
        stays = reached[i] & ~frees[i + 1] if i < last else reached[i]  # (a row not reached: 0 either way)
        if stays:
            rest.extend((px, i - h, rows[i][px]) for px in range(cols) if stays >> px & 1)
    return rest


def mask_cells(mask: int) -> list[tuple[int, int]]:
    """(column, row) sheet names of the set bits, row 1 at the bottom."""
    out = []
    for i in range(W * H):
        if mask >> i & 1:
            y, x = divmod(i, W)
            out.append((x + 1, H - y))
    return out


def full_rows(board: int) -> list[int]:
    """Sheet rows (1 = bottom) that are completely filled."""
    return [H - y for y in range(H) if (board >> (y * W)) & FULL_ROW == FULL_ROW]
