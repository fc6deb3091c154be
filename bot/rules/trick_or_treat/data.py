"""Components (from data/trick_or_treat/components.json) and the street graph of the 4×4 city.

The street graph is our design (rules-data C.6): a street is the gap between two edge-adjacent
buildings, streets meeting at an intersection are one step apart, and each side of the city has
three entrances used only at the start.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.i18n import N_, T_, Msg

DATA_FILE = Path(__file__).resolve().parents[3] / "data" / "trick_or_treat" / "components.json"
COMPONENTS: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))

KINDS: tuple[str, ...] = tuple(COMPONENTS["candy_kinds"])  # five kinds then "wild"
PLAIN: tuple[str, ...] = KINDS[:-1]
WILD = "wild"
PER_KIND: int = COMPONENTS["candy_per_kind"]
FACES: tuple[str, ...] = tuple(COMPONENTS["dice"]["faces"])
ORANGE_DICE: int = COMPONENTS["dice"]["orange"]
BUILDINGS: list[dict[str, Any]] = COMPONENTS["buildings"]
CARDS: dict[int, dict[str, Any]] = {c["id"]: c for c in COMPONENTS["cards"]}
CHARACTERS: dict[str, dict[str, Any]] = {c["key"]: c for c in COMPONENTS["characters"]}
CHAR_ORDER: tuple[str, ...] = tuple(c["key"] for c in COMPONENTS["characters"])
NOT_WITH_TWO: frozenset[str] = frozenset(COMPONENTS["not_with_two_players"])

FACE_ICON = {"feet2": "👣👣", "feet": "👣", "pumpkin": "🎃", "club": "🏏", "glass": "🔍", "candy": "🍬"}
CANDY_ICON = {"corn": "🌽", "bonbon": "🍫", "waffle": "🧇", "donut": "🍩", "lolly": "🍭", "wild": "❓"}
# the names players read: glossary terms (data/trick_or_treat/glossary.tsv), English by default
FACE_NAME: dict[str, str] = {
    k: T_(f"trick_or_treat.face.{k}", v)
    for k, v in {
        "feet2": "2 footprints",
        "feet": "1 footprint",
        "pumpkin": "pumpkin",
        "club": "club",
        "glass": "magnifier",
        "candy": "candy",
    }.items()
}
KIND_NAME: dict[str, str] = {
    k: T_(f"trick_or_treat.candy.{k}", v)
    for k, v in {
        "corn": "corn candy",
        "bonbon": "bonbon",
        "waffle": "waffle",
        "donut": "donut",
        "lolly": "lollipop",
        "wild": "wild ?",
    }.items()
}
TYPE_NAME: dict[str, str] = {
    k: T_(f"trick_or_treat.building.{k}", v)
    for k, v in {
        "mansion": "Mansion",
        "villa": "Villa",
        "castle": "Castle",
        "bikers": "Bikers",
        "plant": "Power plant",
    }.items()
}

COLS = "ABCD"


def bname(idx: int) -> str:
    """Building square name: column letter A–D then row 1–4 (index = row*4 + col)."""
    return f"{COLS[idx % 4]}{idx // 4 + 1}"


BUILDING_NAMES: tuple[str, ...] = tuple(bname(i) for i in range(16))

# Streets: V r k between T(r,k) and T(r,k+1); H k c between T(k,c) and T(k+1,c) (1-based).
STREETS: tuple[str, ...] = tuple(
    [f"V{r}{k}" for r in range(1, 5) for k in range(1, 4)] + [f"H{k}{c}" for k in range(1, 4) for c in range(1, 5)]
)


def _beside(street: str) -> tuple[int, int]:
    a, b = int(street[1]), int(street[2])
    if street[0] == "V":
        return ((a - 1) * 4 + (b - 1), (a - 1) * 4 + b)
    return ((a - 1) * 4 + (b - 1), a * 4 + (b - 1))


BESIDE: dict[str, tuple[int, int]] = {s: _beside(s) for s in STREETS}
STREETS_BESIDE: dict[int, tuple[str, ...]] = {i: tuple(s for s in STREETS if i in BESIDE[s]) for i in range(16)}


def _neighbours() -> dict[str, tuple[str, ...]]:
    out: dict[str, set[str]] = {s: set() for s in STREETS}
    for i in range(1, 4):
        for j in range(1, 4):
            group = [f"V{i}{j}", f"V{i + 1}{j}", f"H{i}{j}", f"H{i}{j + 1}"]
            for s in group:
                out[s].update(g for g in group if g != s)
    return {s: tuple(sorted(v)) for s, v in out.items()}


NEIGHBOURS: dict[str, tuple[str, ...]] = _neighbours()
ENTRANCES: dict[str, str] = {
    **{f"N{k}": f"V1{k}" for k in range(1, 4)},
    **{f"S{k}": f"V4{k}" for k in range(1, 4)},
    **{f"W{k}": f"H{k}1" for k in range(1, 4)},
    **{f"E{k}": f"H{k}4" for k in range(1, 4)},
}
LINES: tuple[tuple[int, ...], ...] = tuple(
    [tuple(r * 4 + c for c in range(4)) for r in range(4)] + [tuple(r * 4 + c for r in range(4)) for c in range(4)]
)


def card_cost_text(card: dict[str, Any]) -> str:
    cost = card["cost"]
    if "any" in cost:
        return N_("any {n}", n=cost["any"])
    if "same" in cost:
        return N_("{n} of one kind", n=cost["same"])
    return Msg.cat(*(N_("{n} {kind}", n=n, kind=KIND_NAME[k]) for k, n in cost["need"].items()), sep=" + ")


def card_cost_size(card: dict[str, Any]) -> int:
    cost = card["cost"]
    if "any" in cost:
        return int(cost["any"])
    if "same" in cost:
        return int(cost["same"])
    return sum(int(n) for n in cost["need"].values())
