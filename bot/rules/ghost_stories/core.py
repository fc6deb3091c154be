"""The Ghost Stories state machine: setup, the Yin effect queue, the Yang actions and the solver.

State is one JSON dict. Everything the ghosts do is expressed as small *ops* in `state["queue"]`,
resolved front first by `run`; an op that needs a player's decision parks a `pending` choice and
`run` stops until an action answers it. This makes every interruption (a placement choice in the
middle of a curse in the middle of a Yin phase) resumable, replayable and serialisable.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from bot.i18n import N_, T_, Msg, Nn_
from bot.rules.base import Event
from bot.rules.ghost_stories.data import (
    BOARD_COLOURS,
    BOARD_OF_COLOUR,
    CARDS,
    CURSE_DIE,
    GHOST_IDS,
    INCARNATION_IDS,
    LINES,
    OPPOSITE,
    POWER_NAMES,
    POWERS,
    TAO_COLOURS,
    TAO_DIE,
    TILE_KEYS,
    TILES,
    space_name,
    tile_name,
)
from bot.rules.rng import Rng

State = dict[str, Any]
DIFFICULTIES = ("initiation", "normal", "nightmare", "hell")
SEAT_BOARDS = {1: [0], 2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}
REMOVED_GHOSTS = {1: 15, 2: 10, 3: 5, 4: 0}
TOTAL_QI = 20
TAO_PER_COLOUR = 4
# Rules revision of a new game (state["rev"]; games stored before it existed read as 0). A fix of the
# engine against the seed that changes what a stored game means is gated on it, so old games keep the
# rule they were played under. 1: the Yin phase's ghost actions in the seed's two passes (see start_yin).
RULES_REV = 1


class Stop(Exception):
    """Raised internally when the game ends in the middle of resolving an op."""


# ----------------------------------------------------------------------------------- setup
def new_state(players: int, seed: int, opts: dict[str, str]) -> State:
    rng = Rng.from_seed(seed)
    diff = opts["difficulty"]
    tiles = rng.shuffled(list(TILE_KEYS))
    sides = opts.get("power_sides", "random")
    boards: list[dict[str, Any]] = []
    seat_boards = SEAT_BOARDS[players]
    to_choose: list[int] = []  # power_sides=choose: the player boards whose players pick a side
    for pos, colour in enumerate(BOARD_COLOURS):
        seat = seat_boards.index(pos) if pos in seat_boards else None
        side = {"first": 0, "second": 1}.get(sides, -1)
        if sides == "choose" and seat is not None and not (players == 1 and colour == "red"):
            side = 0  # shown until the player has chosen (「將代表自家色的玩家圖板任選一面為正面」)
            to_choose.append(pos)
        elif side < 0:
            side = rng.below(2)
        power = POWERS[colour][side]["key"]
        if players == 1 and colour == "red":
            power = "peaks"  # solo: the red board keeps Dance of the Peaks
        boards.append(
            {
                "colour": colour,
                "seat": seat,
                "power": power,
                "qi": 0,
                "tao": {c: 0 for c in TAO_COLOURS},
                "yy": False,
                "buddhas": 0,
                "fresh": 0,
                "tokens": 0,
                "alive": seat is not None,
                "pos": 4 if seat is not None else None,
            }
        )
    supply = {c: TAO_PER_COLOUR for c in TAO_COLOURS}
    qi_supply = TOTAL_QI
    for b in boards:
        if b["seat"] is None:
            b["qi"] = 3
        else:
            b["qi"] = 4 if diff == "initiation" else 3
            b["yy"] = diff != "hell"
            if players == 1:
                for c in BOARD_COLOURS:
                    b["tao"][c] += 1
                    supply[c] -= 1
            else:
                b["tao"][b["colour"]] += 1
                supply[b["colour"]] -= 1
                if diff == "initiation" and opts.get("black_token", "yes") == "yes":
                    b["tao"]["black"] += 1
                    supply["black"] -= 1
            b["tokens"] = 3 if players == 1 else (1 if players < 4 else 0)
        qi_supply -= b["qi"]
    ghosts = rng.shuffled(list(GHOST_IDS))
    removed: list[int] = []
    if diff in ("initiation", "normal"):
        cut = REMOVED_GHOSTS[players]
        removed, ghosts = ghosts[:cut], ghosts[cut:]
        n_inc = 1
    else:
        n_inc = 4 if players >= 3 else 3
    incs = rng.shuffled(list(INCARNATION_IDS))
    chosen, removed_inc = incs[:n_inc], incs[n_inc:]
    deck: list[int] = []  # index 0 is the bottom card
    for inc in chosen:
        deck.extend(ghosts[:10])
        ghosts = ghosts[10:]
        deck.append(inc)
    deck.extend(ghosts)
    state: State = {
        "schema": 1,
        "rev": RULES_REV,
        "players": players,
        "difficulty": diff,
        "options": dict(opts),
        "rng": rng.state,
        "boards": boards,
        "spaces": [None] * 12,
        "buddha_on": [False] * 12,
        "tiles": [{"key": k, "haunted": False} for k in tiles],
        "temple": 2,
        "circle": None,
        "centre_tokens": 0,
        "supply": supply,
        "qi_supply": qi_supply,
        "deck": deck,
        "removed": removed + removed_inc,
        "discard": [],
        "mantra": "home" if any(b["power"] == "mantra" for b in boards) else None,
        "turn": 0,
        "phase": "yin",
        "yang": None,
        "queue": [],
        "pending": None,
        "last_roll": None,
        "result": None,
        "reason": "",
        "incarnations": n_inc,
        "banished_incarnations": 0,
        "deck_out": False,
        "round": 1,
    }
    if to_choose:
        ask_side(state, to_choose)
        return state
    start_yin(state, [])
    run(state, [])
    return state


def ask_side(s: State, boards: list[int]) -> None:
    """Ask the player of boards[0] which side of their board to play (option power_sides=choose);
    the others follow in seat order, then the first Yin phase starts (see `side_chosen`)."""
    b = boards[0]
    keys = [p["key"] for p in POWERS[BOARD_COLOURS[b]]]
    s["pending"] = {"kind": "side", "seat": seat_of(s, b), "t": b, "choices": keys, "left": boards[1:]}


def side_chosen(s: State, key: str, ev: list[Event]) -> None:
    p = s["pending"]
    b = p["t"]
    s["boards"][b]["power"] = key
    s["pending"] = None
    ev.append(
        Event(
            N_(
                "The {BOARD_COLOURS} Taoist plays the side of {POWER_NAMES}.",
                BOARD_COLOURS=cap(BOARD_COLOURS[b]),
                POWER_NAMES=POWER_NAMES[key],
            )
        )
    )
    if p["left"]:
        ask_side(s, list(p["left"]))
        return
    s["mantra"] = "home" if any(bd["power"] == "mantra" for bd in s["boards"]) else None
    start_yin(s, ev)


def copy_state(s: State) -> State:
    """A deep copy of the JSON-shaped state (every `apply` makes one): 1.4-2.2x `copy.deepcopy`'s speed."""
    out: State = copy_json(s)
    return out


def copy_json(x: Any) -> Any:
    """A deep copy of nested dicts, lists and tuples of immutable leaves."""
    if isinstance(x, dict):
        return {k: copy_json(v) for k, v in x.items()}
    if isinstance(x, list):
        return [copy_json(v) for v in x]
    if isinstance(x, tuple):
        return tuple(copy_json(v) for v in x)
    return x  # str, int, float, bool, None: immutable


# ----------------------------------------------------------------------------------- queries
def card(g: dict[str, Any] | None) -> dict[str, Any]:
    assert g is not None
    return CARDS[int(g["id"])]


def sp_label(k: int) -> str:
    """'Red 2': the board colour and the place 1..3 from the owner's left."""
    return f"{BOARD_COLOURS[k // 3].capitalize()} {k % 3 + 1}"


def tao_word(colour: str) -> str:
    """A Tao token's or a die face's colour inside a sentence: "3 red", in the glossary's term."""
    return T_(f"ghost_stories.{colour}", colour)


def cap(colour: str) -> str:
    """A colour (or difficulty) as players read it: the glossary's term, "Red" in English."""
    return T_(f"ghost_stories.{colour}", colour.capitalize())


def tname(s: State, t: int) -> str:
    """ "Tea House (A2)": the tile's name (a glossary term) and where it lies."""
    key = s["tiles"][t]["key"]
    return N_("{tile} ({where})", tile=T_(f"ghost_stories.tile.{key}", TILES[key]["name"]), where=tile_name(t).upper())


def ghost_label(s: State, k: int) -> str:
    c = card(s["spaces"][k])
    return N_("{c} ({c2}) on {k}", c=c["name"], c2=cap(c["colour"]), k=sp_label(k))


def is_player(s: State, b: int) -> bool:
    return s["boards"][b]["seat"] is not None


def alive(s: State, b: int) -> bool:
    return bool(s["boards"][b]["alive"])


def board_haunted(s: State, b: int) -> bool:
    bd = s["boards"][b]
    return (not bd["alive"]) if bd["seat"] is not None else bd["qi"] <= 0


def in_play(s: State) -> list[tuple[int, dict[str, Any]]]:
    return [(k, g) for k, g in enumerate(s["spaces"]) if g is not None]


def any_state(s: State, code: str) -> bool:
    return any(code in card(g)["states"] for _, g in in_play(s))


def tao_locked(s: State) -> bool:
    return any_state(s, "TAO_LOCK")


def captured_dice(s: State) -> int:
    return sum(1 for _, g in in_play(s) if g.get("captured"))


def board_power_ok(s: State, b: int) -> bool:
    if board_haunted(s, b) or any_state(s, "ALL_POWERS_BLOCK"):
        return False
    return not any(g is not None and "POWER_BLOCK" in card(g)["states"] for g in s["spaces"][b * 3 : b * 3 + 3])


def has_power(s: State, t: int, key: str) -> bool:
    bd = s["boards"][t]
    if not bd["alive"]:
        return False
    if bd["power"] == key and board_power_ok(s, t):
        return True
    y = s["yang"]
    if s["phase"] == "yang" and y is not None and s["turn"] == t:
        return any(s["boards"][nb]["power"] == key and board_power_ok(s, nb) for nb in y["borrowed"])
    return False


def living(s: State) -> list[int]:
    return [b for b in range(4) if is_player(s, b) and alive(s, b)]


def tile_of(s: State, key: str) -> int:
    return next(i for i, t in enumerate(s["tiles"]) if t["key"] == key)


def free_spaces(s: State, b: int | None = None) -> list[int]:
    ks = range(12) if b is None else range(b * 3, b * 3 + 3)
    return [k for k in ks if s["spaces"][k] is None]


def haunt_limit(s: State) -> int:
    return 4 if s["difficulty"] == "initiation" else 3


def seat_of(s: State, b: int) -> int:
    seat = s["boards"][b]["seat"]
    assert seat is not None
    return int(seat)


def rng_of(s: State) -> Rng:
    return Rng(int(s["rng"]))


def roll(s: State, faces: tuple[str, ...], n: int) -> list[str]:
    r = rng_of(s)
    out = [faces[r.below(len(faces))] for _ in range(n)]
    s["rng"] = r.state
    return out


def whites_wild(s: State) -> bool:
    return not any_state(s, "NO_WHITE")


# ----------------------------------------------------------------------------------- flow
def start_yin(s: State, ev: list[Event]) -> None:
    b = s["turn"]
    s["phase"] = "yin"
    s["yang"] = None
    bd = s["boards"][b]
    colour = cap(bd["colour"])
    who = N_("{colour} board", colour=colour)
    if bd["seat"] is None:
        who = (
            N_("{colour} board (neutral, haunted)", colour=colour)
            if board_haunted(s, b)
            else N_("{colour} board (neutral)", colour=colour)
        )
    elif not bd["alive"]:
        who = N_("{colour} board (dead Taoist, haunted board)", colour=colour)
    ev.append(Event(N_("— Yin phase of the {who} —", who=who), kind="turn"))
    if s.get("rev", 0) >= 1:
        # 「A.鬼怪作祟 (i)鬼怪出沒 … (ii)鬼怪折磨」: every haunting figure of the board advances, then its
        # ghosts' other Yin effects (curse die, Bone Cracker), spaces 1 → 3 in each pass. Each op names
        # the ghost that was there when the phase began: a ghost a curse brings in meanwhile does not act.
        here = [(k, int(g["id"])) for k in range(b * 3, b * 3 + 3) if (g := s["spaces"][k]) is not None]
        s["queue"] = [{"op": "ghost", "k": k, "id": i, "part": "haunt"} for k, i in here]
        s["queue"] += [{"op": "ghost", "k": k, "id": i, "part": "other"} for k, i in here]
    else:  # games stored before: each ghost in turn, whatever is on its space when its turn comes
        s["queue"] = [{"op": "ghost", "k": b * 3 + i} for i in range(3)]
    s["queue"] += [{"op": "overrun", "b": b}, {"op": "arrival", "b": b}]


def start_yang(s: State) -> None:
    s["phase"] = "yang"
    s["yang"] = {
        "moved": False,
        "acts": [],
        "premove": False,
        "push": False,
        "buddha": False,
        "borrowed": [],
        "mantra": False,
        "pockets": False,
    }


def next_turn(s: State, ev: list[Event]) -> None:
    t = s["turn"]
    s["boards"][t]["fresh"] = 0
    s["turn"] = (t + 1) % 4
    if s["turn"] == 0:
        s["round"] += 1
    start_yin(s, ev)


def run(s: State, ev: list[Event]) -> None:
    """Resolve queued ops until a decision is needed, the active Taoist must act, or the game ends."""
    guard = 0
    try:
        while s["result"] is None:
            guard += 1
            if guard > 10000:
                raise RuntimeError("ghost_stories: run loop did not settle")
            check_mantra(s, ev)
            if s["pending"] is not None:
                return
            if s["queue"]:
                op = s["queue"].pop(0)
                do_op(s, op, ev)
                continue
            if s["deck_out"]:
                lose(s, ev, N_("The ghost deck ran out while Wu-Feng still walks the village."))
            b = s["turn"]
            if s["phase"] == "yin":
                if is_player(s, b) and alive(s, b):
                    start_yang(s)
                    return
                next_turn(s, ev)
                continue
            if s["phase"] == "yang":
                if not alive(s, b):
                    next_turn(s, ev)
                    continue
                return
            return
    except Stop:
        s["queue"] = []
        s["pending"] = None
        s["phase"] = "over"


def lose(s: State, ev: list[Event], reason: str) -> None:
    s["result"] = "lose"
    s["reason"] = reason
    s["reason_msg"] = reason.to_json() if isinstance(reason, Msg) else None  # in every language later
    ev.append(Event(N_("The village falls: {reason}", reason=reason), kind="end"))
    raise Stop


def win(s: State, ev: list[Event]) -> None:
    s["result"] = "win"
    s["reason"] = N_("Wu-Feng has been sent back to the underworld.")
    s["reason_msg"] = s["reason"].to_json()
    ev.append(Event(N_("Victory! Wu-Feng has been exorcised and the village is saved."), kind="end"))
    raise Stop


def check_mantra(s: State, ev: list[Event]) -> None:
    """「若道士技能被封印，符咒將被移除」: a sealed power takes the Mantra off its ghost; it goes back to
    the Yellow Taoist, who may use it again once the seal lifts. (The seed says 「移除遊戲」 where it
    means out of the game; games that lost it for good before this reading keep "gone".)"""
    m = s["mantra"]
    if not isinstance(m, int):
        return
    yb = next(b for b in range(4) if s["boards"][b]["power"] == "mantra")
    if not board_power_ok(s, yb):
        s["mantra"] = "home"
        ev.append(Event(N_("The Enfeeblement Mantra is removed from its ghost: its power is sealed.")))


# ----------------------------------------------------------------------------------- effects
def do_op(s: State, op: dict[str, Any], ev: list[Event]) -> None:
    kind = op["op"]
    if kind == "ghost":
        ghost_turn(s, op["k"], ev, op.get("id"), op.get("part"))
    elif kind == "overrun":
        b = op["b"]
        if not free_spaces(s, b):
            bd = s["boards"][b]
            if bd["qi"] > 0:
                ev.append(Event(N_("The {bd} board is overrun by ghosts: -1 Qi.", bd=cap(bd["colour"]))))
                lose_qi(s, b, 1, ev)
            else:
                ev.append(Event(N_("The {bd} board is overrun (no Qi left to lose).", bd=cap(bd["colour"]))))
    elif kind == "arrival":
        b = op["b"]
        if is_player(s, b) and alive(s, b) and free_spaces(s, b):
            s["queue"].insert(0, {"op": "draw", "by": b})
    elif kind == "draw":
        draw(s, op["by"], ev)
    elif kind == "curse":
        curse(s, op, ev)
    elif kind == "discard":
        if op["t"] is None:
            cands = living(s)
            if len(cands) > 1:
                team_pending(s, "victim", cands, op=op)
                return
            if not cands:
                return
            op["t"] = cands[0]
        discard_one(s, op["t"], ev)
    elif kind == "reward_tao":
        reward_tao(s, op["t"], ev)
    elif kind == "reward_qiyy":
        reward_qiyy(s, op["t"], ev)
    elif kind == "share":
        share(s, op["what"], ev)
    else:  # pragma: no cover - a programming error
        raise RuntimeError(f"unknown op {kind}")


def push_front(s: State, ops: list[dict[str, Any]]) -> None:
    s["queue"][0:0] = ops


def yin_victim(s: State, b: int, ev: list[Event]) -> tuple[int | None, bool]:
    """Who suffers a Yin effect of board b, and whether b is a neutral board.

    A living Taoist suffers their own board's effects. For a neutral board or a dead Taoist's
    (haunted) board the victim is None while several Taoists live: the group names the one who
    rolls (「由其中一生存玩家進行投擲詛咒骰並承受擲骰結果」), and `curse` parks a shared decision.
    The flag is True only for a neutral board: the seed's exceptions (the Tao-loss face does
    nothing, Strength of a Mountain does not protect) are stated for neutral boards
    (「中立遊戲圖板…其中「失去法寶」的結果無效」), not for a dead Taoist's board, whose ghosts the
    living suffer in full (「其他生存的玩家須承受來自此遊戲圖板上鬼怪牌的效果及影響」).
    """
    neutral = not is_player(s, b)
    if is_player(s, b) and alive(s, b):
        return b, False
    cands = living(s)
    if not cands:
        lose(s, ev, N_("every Taoist is dead."))
    return (cands[0] if len(cands) == 1 else None), neutral


def haunt_steps(s: State) -> int:
    """Yin phases a haunting figure needs from its card to the village: 3 as the seed tells it
    (card → the board's 出沒 icon → its 出沒村莊 icon → haunts), or 2 (option `haunting=two`).
    Games stored before the option existed keep the 2 they were started with."""
    return 3 if s["options"].get("haunting", "two") == "three" else 2


def haunts_in(s: State, g: dict[str, Any]) -> int | None:
    """How many more Yin phases of its board before this haunter haunts (None: not a haunter)."""
    return None if g.get("haunt") is None else haunt_steps(s) - int(g["haunt"])


def ghost_turn(s: State, k: int, ev: list[Event], gid: int | None = None, part: str | None = None) -> None:
    """The Yin effects of the ghost on space k: its haunting figure (part "haunt"), its other effects
    ("other"), or both (None, games stored before). With gid, only if that ghost is still there."""
    g = s["spaces"][k]
    if g is None or (gid is not None and int(g["id"]) != gid):
        return
    c = card(g)
    b = k // 3
    ops: list[dict[str, Any]] = []
    for code in c["yin"]:
        if part is not None and (part == "haunt") != (code == "HAUNTER"):
            continue
        if code == "HAUNTER":
            if g.get("haunt") is None:
                g["haunt"] = 0
            if g["haunt"] < haunt_steps(s) - 1:
                g["haunt"] += 1
                where = N_("to the edge of the village") if g["haunt"] == haunt_steps(s) - 1 else N_("onto the board")
                ev.append(Event(N_("{s}: its haunting figure advances {where}.", s=ghost_label(s, k), where=where)))
            else:
                g["haunt"] = 0
                ev.append(Event(N_("{s}: its haunting figure enters the village.", s=ghost_label(s, k))))
                haunt_line(s, k, ev)
        elif code == "CURSE":
            victim, neutral = yin_victim(s, b, ev)
            ops.append({"op": "curse", "k": k, "t": victim, "neutral": neutral, "who": c["name"]})
        elif code == "BONE_CRACK":
            ev.append(Event(N_("{c} cracks bones: Tao tokens must be discarded.", c=c["name"])))
            if s["options"].get("bone_cracker", "all") == "all":
                ops += [{"op": "discard", "t": t} for t in living(s)]
            else:
                # 「每回合此一化身所擺置遊戲圖板的玩家須丟棄一個法器標記，並適用於中立遊戲圖板」: the
                # board's player; on a neutral or dead Taoist's board a living Taoist the team names
                victim, _ = yin_victim(s, b, ev)
                ops.append({"op": "discard", "t": victim, "who": c["name"]})
    push_front(s, ops)


def haunt_line(s: State, k: int, ev: list[Event]) -> None:
    """The first tile not yet haunted in the ghost's line is haunted. With the whole line haunted the
    seed names no consequence and lists no such loss (reading 7): nothing more is haunted (option
    `full_line=spared`, the default), or the game is lost (`lost`, what games stored before kept)."""
    for t in LINES[k]:
        if not s["tiles"][t]["haunted"]:
            haunt_tile(s, t, ev)
            return
    if s["options"].get("full_line", "lost") == "lost":
        lose(s, ev, N_("every tile in the line of {k} is already haunted.", k=sp_label(k)))
    else:
        ev.append(Event(N_("The line of {k} is all haunted: nothing more is haunted.", k=sp_label(k))))


def haunt_tile(s: State, t: int, ev: list[Event]) -> None:
    if s["tiles"][t]["haunted"]:
        return
    s["tiles"][t]["haunted"] = True
    n = sum(1 for x in s["tiles"] if x["haunted"])
    ev.append(
        Event(N_("{s} is haunted! ({n} of {s2} haunted tiles lose the game)", s=tname(s, t), n=n, s2=haunt_limit(s)))
    )
    if n >= haunt_limit(s):
        lose(s, ev, N_("{n} village tiles are haunted.", n=n))


def lose_qi(s: State, b: int, n: int, ev: list[Event]) -> None:
    bd = s["boards"][b]
    if bd["seat"] is not None and not bd["alive"]:
        return
    n = min(n, bd["qi"])
    bd["qi"] -= n
    s["qi_supply"] += n
    if bd["qi"] > 0:
        return
    if bd["seat"] is None:
        ev.append(Event(N_("The neutral {bd} board has no Qi left: it becomes a haunted board.", bd=cap(bd["colour"]))))
        return
    die(s, b, ev)


def die(s: State, b: int, ev: list[Event]) -> None:
    bd = s["boards"][b]
    bd["alive"] = False
    for c in TAO_COLOURS:
        s["supply"][c] += bd["tao"][c]
        bd["tao"][c] = 0
    bd["yy"] = False
    s["temple"] += bd["buddhas"]
    bd["buddhas"] = 0
    bd["fresh"] = 0
    s["centre_tokens"] += bd["tokens"]
    bd["tokens"] = 0
    bd["pos"] = tile_of(s, "cemetery")
    ev.append(
        Event(N_("The {bd} Taoist dies! Their board becomes a haunted board.", bd=cap(bd["colour"])), kind="death")
    )
    if not living(s):
        lose(s, ev, N_("every Taoist is dead."))


def gain_qi(s: State, b: int, n: int) -> int:
    n = min(n, s["qi_supply"])
    s["boards"][b]["qi"] += n
    s["qi_supply"] -= n
    return n


def draw(s: State, by: int, ev: list[Event]) -> None:
    if not s["deck"]:
        return
    if not free_spaces(s):
        ev.append(
            Event(N_("All 12 ghost spaces are full: the {s} Taoist loses 1 Qi.", s=cap(s["boards"][by]["colour"])))
        )
        lose_qi(s, by, 1, ev)
        return
    gid = s["deck"].pop()
    if not s["deck"]:
        s["deck_out"] = True
    c = CARDS[gid]
    res = ", ".join(f"{n} {col}" for col, n in c["resistance"].items())
    kind = N_("Wu-Feng incarnation") if c["incarnation"] else N_("ghost")
    ev.append(
        Event(
            N_("A {kind} arrives: {c} ({c2}, resistance {res}).", kind=kind, c=c["name"], c2=cap(c["colour"]), res=res),
            kind="ghost",
        )
    )
    target = by if c["colour"] == "black" else BOARD_OF_COLOUR[c["colour"]]
    cands = free_spaces(s, target) or free_spaces(s)
    if len(cands) == 1:
        place(s, cands[0], gid, by, ev)
    else:
        s["pending"] = {"kind": "place", "seat": seat_of(s, by), "t": by, "card": gid, "spaces": cands}


def place(s: State, k: int, gid: int, by: int, ev: list[Event]) -> None:
    c = CARDS[gid]
    g: dict[str, Any] = {"id": gid, "haunt": None, "captured": False, "vulnerable": False}
    if s["buddha_on"][k]:
        s["buddha_on"][k] = False
        s["temple"] += 1
        if not c["incarnation"]:
            s["discard"].append(gid)
            ev.append(
                Event(
                    N_(
                        "{c} lands on the Buddha at {k} and is destroyed; the Buddha returns to the Temple.",
                        c=c["name"],
                        k=sp_label(k),
                    )
                )
            )
            return
        ev.append(Event(N_("The Buddha at {k} cannot stop {c}; it returns to the Temple.", k=sp_label(k), c=c["name"])))
        if "NEEDS_BUDDHA" in c["states"]:
            g["vulnerable"] = True
    s["spaces"][k] = g
    ev.append(Event(N_("{c} is placed on {k}.", c=c["name"], k=sp_label(k))))
    if "HAUNTER" in c["yin"]:
        g["haunt"] = 1 if "HAUNTER_FAST" in c["arrival"] else 0
    ops: list[dict[str, Any]] = []
    for code in c["arrival"]:
        if code == "SUMMON":
            ops.append({"op": "draw", "by": by})
        elif code == "HAUNT_NOW":
            haunt_line(s, k, ev)
        elif code == "CURSE":
            ops.append({"op": "curse", "k": k, "t": by, "neutral": False, "who": c["name"]})
        elif code == "LOSE_QI":
            # 「玩家或中立遊戲圖板失去1點真氣」: a ghost placed on a neutral board takes the Qi from that
            # board, otherwise from the player who drew it
            nb = k // 3
            if not is_player(s, nb):
                if s["boards"][nb]["qi"] > 0:
                    ev.append(
                        Event(
                            N_(
                                "{c}: the neutral {BOARD_COLOURS} board loses 1 Qi.",
                                c=c["name"],
                                BOARD_COLOURS=cap(BOARD_COLOURS[nb]),
                            )
                        )
                    )
                    lose_qi(s, nb, 1, ev)
                else:
                    ev.append(
                        Event(
                            N_(
                                "{c}: the neutral {BOARD_COLOURS} board has no Qi to lose.",
                                c=c["name"],
                                BOARD_COLOURS=cap(BOARD_COLOURS[nb]),
                            )
                        )
                    )
            else:
                ev.append(Event(N_("{c}: the {s} Taoist loses 1 Qi.", c=c["name"], s=cap(s["boards"][by]["colour"]))))
                lose_qi(s, by, 1, ev)
        elif code == "GROUP_LOSE_TAO":
            ev.append(Event(N_("{c}: every Taoist discards a Tao token.", c=c["name"])))
            ops += [{"op": "discard", "t": t} for t in living(s)]
        elif code == "CAPTURE_DIE":
            g["captured"] = True
            ev.append(Event(N_("{c} captures a Tao die.", c=c["name"])))
        elif code == "TAO_LOCK":
            ev.append(Event(N_("{c}: Tao tokens are locked while it is in play.", c=c["name"])))
        elif code == "CLEAR_CIRCLE" and s["circle"] is not None:
            s["supply"][s["circle"]] += 1
            ev.append(Event(N_("{c} removes the {s} token from the Circle of Prayer.", c=c["name"], s=s["circle"])))
            s["circle"] = None
    push_front(s, ops)


def remove_ghost(s: State, k: int) -> int:
    g = s["spaces"][k]
    assert g is not None
    s["spaces"][k] = None
    if s["mantra"] == k:
        s["mantra"] = "home"
    s["discard"].append(int(g["id"]))
    return int(g["id"])


def team_pending(s: State, kind: str, cands: list[int], **extra: Any) -> None:
    """Park a decision the living Taoists make together: each of their seats may answer, once for all."""
    seats = sorted({seat_of(s, t) for t in living(s)})
    s["pending"] = {"kind": kind, "seats": seats, "cands": cands, **extra}


def curse(s: State, op: dict[str, Any], ev: list[Event]) -> None:
    t = op["t"]
    if t is None:
        cands = living(s)
        if len(cands) > 1:
            team_pending(s, "victim", cands, op=op)
            return
        if not cands:
            return
        t = op["t"] = cands[0]
    if not alive(s, t):
        return
    colour = cap(s["boards"][t]["colour"])
    if not op.get("neutral") and has_power(s, t, "mountain"):
        ev.append(
            Event(
                N_(
                    "Strength of a Mountain: the {colour} Taoist does not roll the curse die ({op}).",
                    colour=colour,
                    op=op["who"],
                )
            )
        )
        return
    if "face" not in op:
        face = roll(s, CURSE_DIE, 1)[0]
        s["last_roll"] = {"kind": "curse", "faces": [face], "by": s["boards"][t]["colour"], "why": op["who"]}
        ev.append(
            Event(
                N_(
                    "{op}: the {colour} Taoist rolls the curse die: {CURSE_TEXT}.",
                    op=op["who"],
                    colour=colour,
                    CURSE_TEXT=CURSE_TEXT[face],
                )
            )
        )
        if face != "blank" and has_power(s, t, "favorite") and not op.get("rerolled"):
            s["pending"] = {"kind": "curse_reroll", "seat": seat_of(s, t), "t": t, "op": {**op, "face": face}}
            return
    else:
        face = op["face"]
    apply_curse(s, op, face, ev)


CURSE_TEXT = {
    "blank": N_("nothing happens"),
    "haunt": N_("a tile is haunted"),
    "ghost": N_("a ghost arrives"),
    "tao": N_("all Tao tokens lost"),
    "qi": N_("1 Qi lost"),
}


def apply_curse(s: State, op: dict[str, Any], face: str, ev: list[Event]) -> None:
    t = op["t"]
    if face == "haunt":
        if op.get("tile") is not None:
            haunt_tile(s, op["tile"], ev)
        else:
            haunt_line(s, op["k"], ev)
    elif face == "ghost":
        push_front(s, [{"op": "draw", "by": t}])
    elif face == "tao":
        if op.get("neutral"):
            ev.append(Event(N_("The Tao-loss face has no effect for a neutral board.")))
            return
        bd = s["boards"][t]
        for c in TAO_COLOURS:
            s["supply"][c] += bd["tao"][c]
            bd["tao"][c] = 0
    elif face == "qi":
        lose_qi(s, t, 1, ev)


def discard_one(s: State, t: int, ev: list[Event]) -> None:
    if not alive(s, t):
        return
    held = [c for c in TAO_COLOURS if s["boards"][t]["tao"][c] > 0]
    if not held:
        return
    if len(held) == 1:
        s["boards"][t]["tao"][held[0]] -= 1
        s["supply"][held[0]] += 1
        ev.append(
            Event(N_("The {s} Taoist discards a {held} Tao token.", s=cap(s["boards"][t]["colour"]), held=held[0]))
        )
        return
    s["pending"] = {"kind": "discard", "seat": seat_of(s, t), "t": t, "colours": held}


def reward_tao(s: State, t: int, ev: list[Event]) -> None:
    if not alive(s, t):
        return
    avail = [c for c in TAO_COLOURS if s["supply"][c] > 0]
    if not avail:
        ev.append(Event(N_("No Tao token is left in the supply.")))
        return
    if len(avail) == 1:
        give_tao(s, t, avail[0], ev)
        return
    s["pending"] = {"kind": "take", "seat": seat_of(s, t), "t": t, "colours": avail}


def give_tao(s: State, t: int, c: str, ev: list[Event]) -> None:
    s["supply"][c] -= 1
    s["boards"][t]["tao"][c] += 1
    ev.append(Event(N_("The {s} Taoist takes a {c} Tao token.", s=cap(s["boards"][t]["colour"]), c=c)))


def yy_possible(s: State, t: int) -> bool:
    return s["difficulty"] != "hell" and not s["boards"][t]["yy"]


def reward_qiyy(s: State, t: int, ev: list[Event]) -> None:
    if not alive(s, t):
        return
    opts = (["qi"] if s["qi_supply"] > 0 else []) + (["yinyang"] if yy_possible(s, t) else [])
    if not opts:
        return
    if len(opts) == 1:
        grant(s, t, opts[0], ev)
        return
    s["pending"] = {"kind": "reward", "seat": seat_of(s, t), "t": t, "choices": opts}


def grant(s: State, t: int, what: str, ev: list[Event]) -> None:
    colour = cap(s["boards"][t]["colour"])
    if what == "qi":
        if gain_qi(s, t, 1):
            ev.append(Event(N_("The {colour} Taoist gains 1 Qi.", colour=colour)))
    else:
        s["boards"][t]["yy"] = True
        ev.append(Event(N_("The {colour} Taoist recovers their Yin-Yang token.", colour=colour)))


def share(s: State, what: str, ev: list[Event]) -> None:
    if what == "qi":
        cands = living(s) if s["qi_supply"] > 0 else []
    else:
        cands = [t for t in living(s) if yy_possible(s, t)]
    if not cands:
        return
    if len(cands) == 1:
        grant(s, cands[0], what, ev)
        return
    team_pending(s, "share", cands, what=what)


# ----------------------------------------------------------------------------------- exorcism
def requirement(s: State, k: int) -> tuple[dict[str, int], int, bool]:
    """(symbols still needed after the Circle of Prayer, flexible -1 from the Mantra, dice count?)."""
    g = s["spaces"][k]
    c = card(g)
    req = dict(c["resistance"])
    if s["circle"] is not None and req.get(s["circle"], 0) > 0:
        req[s["circle"]] -= 1
    flex = 1 if s["mantra"] == k else 0
    return req, flex, "DICE_IMMUNE" not in c["states"]


def _residuals(need: dict[str, int], w: int) -> list[dict[str, int]]:
    cols = [c for c in need if need[c] > 0]
    use = min(w, sum(need[c] for c in cols))
    out: list[dict[str, int]] = []

    def rec(i: int, left: int, cur: dict[str, int]) -> None:
        if i == len(cols):
            if left == 0:
                out.append(dict(cur))
            return
        c = cols[i]
        for x in range(0, min(left, need[c]) + 1):
            cur[c] = need[c] - x
            rec(i + 1, left - x, cur)
        cur.pop(c, None)

    rec(0, use, {})
    return out


def solve(s: State, targets: list[int], dice: list[str], pool: dict[str, int]) -> dict[str, dict[str, int]]:
    """For each non-empty subset of targets that can be banished, the cheapest token payment."""
    return {key: pays[0] for key, pays in payments(s, targets, dice, pool).items()}


def payments(s: State, targets: list[int], dice: list[str], pool: dict[str, int]) -> dict[str, list[dict[str, int]]]:
    """For each subset of targets that can be banished, every distinct token payment of the least count.

    Against two ghosts from a corner each die counts for one of them (option `corner_dice=split`, the
    default), or the whole roll is checked against each ghost (`each`, reading 16); tokens always pay
    each ghost's own shortfall."""
    wild = whites_wild(s)
    reqs = [requirement(s, k) for k in targets]
    best: dict[str, list[dict[str, int]]] = {}
    each = s["options"].get("corner_dice", "split") == "each"
    assigns = [(-1,) * len(dice)] if each else product(range(len(targets)), repeat=len(dice))
    for assign in assigns:
        per: list[list[dict[str, int]]] = []
        for gi, (req, flex, dice_ok) in enumerate(reqs):
            mine = [d for d, a in zip(dice, assign, strict=True) if each or a == gi] if dice_ok else []
            need = {c: max(0, n - mine.count(c)) for c, n in req.items()}
            whites = mine.count("white") if wild else 0
            per.append(_residuals(need, whites + flex))
        n = len(targets)
        for mask in range(1, 1 << n):
            members = [i for i in range(n) if mask >> i & 1]
            for combo in product(*[per[i] for i in members]):
                pay: dict[str, int] = {}
                for r in combo:
                    for c, x in r.items():
                        if x:
                            pay[c] = pay.get(c, 0) + x
                if any(pool.get(c, 0) < x for c, x in pay.items()):
                    continue
                key = " ".join(space_name(targets[i]) for i in members)
                have = best.get(key)
                if have is None or sum(pay.values()) < sum(have[0].values()):
                    best[key] = [pay]
                elif sum(pay.values()) == sum(have[0].values()) and pay not in have:
                    have.append(pay)
    return best


def token_pool(s: State, t: int) -> dict[str, int]:
    if tao_locked(s):
        return {}
    pool = {c: 0 for c in TAO_COLOURS}
    pos = s["boards"][t]["pos"]
    for b in range(4):
        bd = s["boards"][b]
        if bd["alive"] and bd["pos"] == pos and bd["seat"] is not None:
            for c in TAO_COLOURS:
                pool[c] += bd["tao"][c]
    return pool


def payers(s: State, t: int) -> list[int]:
    """Whose Tao tokens can pay an exorcism by t: t's own, then the Taoists on the same tile."""
    pos = s["boards"][t]["pos"]
    others = [(t + i) % 4 for i in range(1, 4)]
    return [t] + [b for b in others if s["boards"][b]["alive"] and s["boards"][b]["pos"] == pos and is_player(s, b)]


def allocations(s: State, t: int, pay: dict[str, int]) -> list[list[tuple[str, int]]]:
    """Every way to take a colour payment from the tokens of `payers`: lists of (colour, board) per token."""
    per_colour = [
        _splits(c, n, [(b, s["boards"][b]["tao"][c]) for b in payers(s, t)]) for c, n in sorted(pay.items()) if n
    ]
    return [[tok for part in combo for tok in part] for combo in product(*per_colour)]


def _splits(c: str, n: int, holders: list[tuple[int, int]]) -> list[list[tuple[str, int]]]:
    """Ways to take n tokens of colour c from (board, held) holders, the first holder's first."""
    if n == 0:
        return [[]]
    if not holders:
        return []
    (b, have), rest = holders[0], holders[1:]
    return [[(c, b)] * x + tail for x in range(min(have, n), -1, -1) for tail in _splits(c, n - x, rest)]


def pay_tokens(s: State, t: int, alloc: list[tuple[str, int]], ev: list[Event]) -> None:
    counts: dict[tuple[str, int], int] = {}
    for c, b in alloc:
        counts[(c, b)] = counts.get((c, b), 0) + 1
    for (c, b), x in counts.items():
        bd = s["boards"][b]
        bd["tao"][c] -= x
        s["supply"][c] += x
        who = N_("their own") if b == t else N_("the {bd} Taoist's", bd=cap(bd["colour"]))
        ev.append(
            Event(
                Nn_(
                    "Pays {n} {colour} Tao token ({who}).",
                    "Pays {n} {colour} Tao tokens ({who}).",
                    x,
                    colour=tao_word(c),
                    who=who,
                )
            )
        )


def dice_count(s: State, t: int) -> int:
    return max(0, 3 - captured_dice(s)) + (1 if has_power(s, t, "mountain") else 0)


def exorcisable(s: State, k: int) -> bool:
    g = s["spaces"][k]
    if g is None:
        return False
    c = card(g)
    if "OPPOSITE_EMPTY" in c["states"] and s["spaces"][OPPOSITE[k]] is not None:
        return False
    return not ("NEEDS_BUDDHA" in c["states"] and not g.get("vulnerable"))


def start_exorcism(s: State, t: int, targets: list[int], ev: list[Event]) -> None:
    n = dice_count(s, t)
    dice = roll(s, TAO_DIE, n)
    names = " + ".join(ghost_label(s, k) for k in targets)
    s["last_roll"] = {"kind": "tao", "faces": dice, "by": s["boards"][t]["colour"], "why": "exorcism"}
    ev.append(
        Event(
            N_(
                "The {s} Taoist attempts to exorcise {names}: rolls {dice}.",
                s=cap(s["boards"][t]["colour"]),
                names=names,
                dice=fmt_dice(dice),
            )
        )
    )
    s["pending"] = {"kind": "exorcism", "seat": seat_of(s, t), "t": t, "targets": targets, "dice": dice}
    if dice and has_power(s, t, "favorite"):
        s["pending"]["reroll"] = True
        return
    settle_prepare(s, ev)


def fmt_dice(dice: list[str]) -> str:
    return ", ".join(dice) if dice else N_("no dice")


def settle_prepare(s: State, ev: list[Event]) -> None:
    p = s["pending"]
    p["reroll"] = False
    opts = solve(s, p["targets"], p["dice"], token_pool(s, p["t"]))
    p["options"] = opts
    if not opts:
        ev.append(Event(N_("The exorcism fails.")))
        s["pending"] = None
        return
    best = max(opts, key=lambda key: (len(key.split()), -sum(opts[key].values())))
    if not opts[best] and all(set(key.split()) <= set(best.split()) for key in opts):
        s["pending"] = None
        banish(s, p["t"], [k for k in p["targets"] if space_name(k) in best.split()], [], ev)


def banish(s: State, t: int, ks: list[int], alloc: list[tuple[str, int]], ev: list[Event]) -> None:
    pay_tokens(s, t, alloc, ev)
    ops: list[dict[str, Any]] = []
    for k in ks:
        gid = remove_ghost(s, k)
        c = CARDS[gid]
        ev.append(Event(N_("{c} is exorcised from {k}!", c=c["name"], k=sp_label(k)), kind="exorcism"))
        if c["incarnation"]:
            s["banished_incarnations"] += 1
            if s["banished_incarnations"] >= s["incarnations"]:
                win(s, ev)
        for code in c["exit"]:
            if code == "CURSE":
                ops.append({"op": "curse", "k": k, "t": t, "neutral": False, "who": c["name"]})
            elif code == "R_TAO1":
                ops.append({"op": "reward_tao", "t": t})
            elif code == "R_TAO2":
                ops += [{"op": "reward_tao", "t": t}, {"op": "reward_tao", "t": t}]
            elif code == "R_QI_OR_YY":
                ops.append({"op": "reward_qiyy", "t": t})
            elif code == "R_QI_AND_YY":
                ops += [{"op": "share", "what": "qi"}, {"op": "share", "what": "yinyang"}]
    push_front(s, ops)


# ----------------------------------------------------------------------------------- help
def help_args(s: State, t: int, tile: int) -> list[tuple[str, ...]]:
    """Every way to take the help of village tile `tile` now (empty: unavailable)."""
    if s["tiles"][tile]["haunted"]:
        return []
    key = s["tiles"][tile]["key"]
    avail = [c for c in TAO_COLOURS if s["supply"][c] > 0]
    if key == "tea_house":
        return [(c,) for c in avail] or [()]
    if key == "altar":
        return [(tile_name(x),) for x in range(9) if s["tiles"][x]["haunted"]]
    if key == "herbalist":
        return [()]
    if key == "sorcerer":
        return [(space_name(k),) for k, g in in_play(s) if not card(g)["incarnation"]]
    if key == "temple":
        return [()] if s["temple"] > 0 else []
    if key == "watchman":
        return [
            (BOARD_COLOURS[b],)
            for b in range(4)
            if any(g is not None and g.get("haunt") for g in s["spaces"][b * 3 : b * 3 + 3])
        ]
    if key == "circle":
        return [(c,) for c in avail]
    if key == "pavilion":
        return [(space_name(k),) for k, _ in in_play(s)] if free_spaces(s) else []
    if key == "cemetery":
        if s["players"] == 1:
            return []
        return [(BOARD_COLOURS[b],) for b in range(4) if is_player(s, b) and not alive(s, b)]
    return []


def do_help(s: State, t: int, tile: int, args: tuple[str, ...], ev: list[Event]) -> None:
    from bot.rules.ghost_stories.data import space_index, tile_index

    key = s["tiles"][tile]["key"]
    bd = s["boards"][t]
    me = N_("The {bd} Taoist", bd=cap(bd["colour"]))
    ev.append(Event(N_("{me} asks for the help of the {s}.", me=me, s=tname(s, tile))))
    if key == "tea_house":
        if args:
            give_tao(s, t, args[0], ev)
        if gain_qi(s, t, 1):
            ev.append(Event(N_("{me} gains 1 Qi.", me=me)))
        push_front(s, [{"op": "draw", "by": t}])
    elif key == "altar":
        x = tile_index(args[0])
        assert x is not None
        s["tiles"][x]["haunted"] = False
        ev.append(Event(N_("{s} is restored.", s=tname(s, x))))
        push_front(s, [{"op": "draw", "by": t}])
    elif key == "herbalist":
        dice = roll(s, TAO_DIE, 2)
        s["last_roll"] = {"kind": "tao", "faces": dice, "by": bd["colour"], "why": N_("Herbalist's Shop")}
        ev.append(Event(N_("{me} rolls {dice} at the Herbalist's Shop.", me=me, dice=fmt_dice(dice))))
        s["pending"] = {"kind": "herbs", "seat": seat_of(s, t), "t": t, "dice": dice}
        if has_power(s, t, "favorite"):
            s["pending"]["reroll"] = True
        else:
            herbs_resolve(s, ev)
    elif key == "sorcerer":
        k = space_index(args[0])
        assert k is not None
        gid = remove_ghost(s, k)
        ev.append(
            Event(
                N_(
                    "The Sorcerer removes {CARDS} from {k}; {me} loses 1 Qi.",
                    CARDS=CARDS[gid]["name"],
                    k=sp_label(k),
                    me=me,
                )
            )
        )
        lose_qi(s, t, 1, ev)
    elif key == "temple":
        s["temple"] -= 1
        bd["buddhas"] += 1
        bd["fresh"] += 1
        ev.append(Event(N_("{me} takes a Buddha from the Temple.", me=me)))
    elif key == "watchman":
        b = BOARD_COLOURS.index(args[0])
        for g in s["spaces"][b * 3 : b * 3 + 3]:
            if g is not None and g.get("haunt") is not None:
                g["haunt"] = 0
        ev.append(Event(N_("The haunting figures of the {args} board return to their cards.", args=cap(args[0]))))
    elif key == "circle":
        if s["circle"] is not None:
            s["supply"][s["circle"]] += 1
        s["supply"][args[0]] -= 1
        s["circle"] = args[0]
        ev.append(
            Event(
                N_("A {args} Tao token lies on the Circle of Prayer: {args} ghosts have -1 resistance.", args=args[0])
            )
        )
    elif key == "pavilion":
        k = space_index(args[0])
        assert k is not None
        s["pending"] = {"kind": "blow", "seat": seat_of(s, t), "t": t, "k": k, "spaces": free_spaces(s)}
    elif key == "cemetery":
        b = BOARD_COLOURS.index(args[0])
        dead = s["boards"][b]
        dead["alive"] = True
        gain_qi(s, b, 2)
        dead["pos"] = tile
        ev.append(Event(N_("The {args} Taoist comes back to life with {dead} Qi!", args=cap(args[0]), dead=dead["qi"])))
        push_front(s, [{"op": "curse", "tile": tile, "t": t, "neutral": False, "who": "Cemetery"}])


def move_ghost(s: State, k: int, j: int, ev: list[Event]) -> None:
    g = s["spaces"][k]
    assert g is not None
    s["spaces"][k] = None
    c = card(g)
    ev.append(Event(N_("{c} is blown from {k} to {j}.", c=c["name"], k=sp_label(k), j=sp_label(j))))
    if s["mantra"] == k:
        s["mantra"] = j
    if s["buddha_on"][j]:
        s["buddha_on"][j] = False
        s["temple"] += 1
        if not c["incarnation"]:
            if s["mantra"] == j:
                s["mantra"] = "home"
            s["discard"].append(int(g["id"]))
            ev.append(
                Event(N_("The Buddha on {j} destroys {c} and returns to the Temple.", j=sp_label(j), c=c["name"]))
            )
            return
        if "NEEDS_BUDDHA" in c["states"]:
            g["vulnerable"] = True
        ev.append(Event(N_("The Buddha on {j} returns to the Temple.", j=sp_label(j))))
    s["spaces"][j] = g


def herbs_resolve(s: State, ev: list[Event]) -> None:
    p = s["pending"]
    t = p["t"]
    p["reroll"] = False
    whites = 0
    for d in p["dice"]:
        if d == "white":
            if whites_wild(s):
                whites += 1
        elif s["supply"][d] > 0:
            give_tao(s, t, d, ev)
    s["pending"] = None
    push_front(s, [{"op": "reward_tao", "t": t}] * whites)
