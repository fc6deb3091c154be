"""The table bot for Ghost Stories: bot Taoists that plan their round as a team.

Design (issue #14; figures and what was tried: docs/rules/ghost_stories.md, "Bot").

* **What it sees.** Only its seat's view: the whole board is public, the ghost deck's order is not.
  Where the future matters it reasons over the cards nobody has seen (not in play, not discarded),
  each equally likely — the removed ghosts and the deck are indistinguishable to a player — and
  never reads the engine state. Every seat computes the same values from the same view, so the
  bots agree on a plan without messages, and a bot keeps no plan between decisions: it re-plans
  from whatever board a human teammate left it.
* **The round plan.** Each decision weighs the rest of the round — every living Taoist's Yang phase
  until each board's next Yin phase — not only its own turn:
  - a ghost's danger counts how many teammates still act before its board's Yin phase (`chances`:
    the last one who can stop an overrun or a haunting weighs it most), so each Taoist takes what
    nobody after it can;
  - moving a teammate is an ordinary move (`mate_gain`): Twin Winds and the Pavilion carry a
    teammate where its own next turn is worth more, or onto my tile so that its Tao tokens pay my
    exorcism — the move is chosen with that push in mind (`pool_bonus`), so a corner's double
    exorcism becomes possible;
  - boards are kept below full: the Pavilion is valued by how much danger blowing a ghost onto a
    neutral or dead board (or onto a Buddha) takes away (`blow_gains`), a Buddha goes on the most
    crowded living board;
  - the Yin-Yang, kept for restores near the haunted-tile limit, is otherwise an extra action after
    the turn's own: a full board about to be overrun makes the Pavilion's relief the help it buys
    from afar;
  - before Wu-Feng shows, tokens of the colours the unseen incarnations need (`wufeng_need`) are
    worth more, and once the last incarnation is in play the team plays all-in for it
    (`plan_wufeng.py`: gather on its tile, pool tokens, fetch the tokens it needs, attempt every
    turn, take the Bottomless Pockets token and borrow a neutral power for the attempt first), unless
    the village would fall first or a Taoist at 1 Qi is about to die of an overrun.
* **Mistakes found by reading lost games** (bench/trace_ghost_stories.py; docs, "Bot"): the Sorcerer's
  Hut counts only the teammates who can still exorcise a ghost before its harm (`in_time`), and the
  overrun it spares a full board only as the Qi trade it is (`SORC_OVR`, unless the overrun kills);
  a ghost that locks the Tao tokens weighs by the tokens it locks (`TOK_LOCK`); Uncatchable is put on
  a Buddha before anything else (`plan_wufeng.uncatchable_action`); the Circle of Prayer values the
  incarnation with the living Taoists' tokens pooled, as the team fights it (`CIRC_INC_POOL`); a ghost
  whose space the drawer chooses is not put opposite Howling Nightmare (`HOWL_PLACE`); a haunter about
  to haunt weighs by the teammates after me who could in fact stop it (reach its tile with fair odds,
  the Sorcerer's Hut, the Night Watchman's Beat, or hold a Yin-Yang: `able_after`, ninth pass), not by
  those merely in line, who left it to a last seat that could not reach it. In the all-in
  plan (seventh pass) the incarnation is not attempted at odds 0, every tile is one move away with
  Dance of the Peaks, the powers for this turn's attempt are borrowed before moving
  (`plan_wufeng.power_action`, `ENDGAME_POWERS`: solo holds 3 Power tokens), and the Bottomless
  Pockets token and a neutral power are taken for an attempt at its tile (`plan_wufeng._borrow_for`).
  Solo (ninth pass, deaths): a Taoist at 1 Qi with a full board, whose overrun would kill it, values
  only what stops it or wins (`doomed`, `rescue_value`).
* **Where games are lost** (bench/tune_ghost_stories.py `losses`): mostly with the incarnation in play,
  in turns the all-in plan leaves to this heuristic for a crisis; so the last incarnation is worth
  the game (`inc_worth`), more than any danger, and a Taoist in reach attempts it. `YY_USE` and
  `TEMPLE` come from a paired coordinate search (`search`) checked on a second and a third range.
* **A tile's value** is the larger of its exorcism value (exact dice odds over every roll multiset,
  with the Circle, the Mantra and the tokens of every Taoist on the tile, times the ghost's worth)
  and its help value, plus a little for what it reaches next turn. Pending choices (placement,
  rewards, discards, rerolls, team decisions) have small dedicated rules.
* **The endgame by rollouts** (twelfth pass, `plan_endgame.py`): once the last incarnation is in play,
  the turn's main step (a move, an exorcism, a help, the end) is the one of the heuristic's step and
  up to 6 alternatives (the best tile of each other kind by the values here) that wins most of 8
  paired rollouts to the end of the game, in worlds built from this seat's view with the unseen cards
  reshuffled (`planning=False`: the heuristic alone, which the rollouts play).
* **Before the endgame, one round and a value** (fifteenth pass, `plan_endgame.choose_by_value`,
  `value.py`; 2–4 Taoists, solo no gain): at a turn's first decision, the heuristic's step against
  up to 3 other kinds, each played for one round in 4 worlds and scored by a learned value of the
  public board; an alternative must win by 0.03. The heuristic's rules above still decide every other step.
* **Time.** A heuristic decision is a few thousand cached odds look-ups (median well under 1 ms); a
  planned one (once or twice a turn) tens to a few hundred ms (the bench prints median / p99 / max).
  Nothing is replayed between decisions: each one re-plans from the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.base import BotPolicy
from bot.rules.ghost_stories.core import State
from bot.rules.ghost_stories.data import (
    ADJ,
    CARDS,
    FACES,
    FRONT,
    INCARNATION_IDS,
    LINES,
    OPPOSITE,
    TAO_COLOURS,
    space_index,
    tile_index,
)
from bot.rules.ghost_stories.game import GAME, Act
from bot.rules.ghost_stories.plan_endgame import ALTS, Arm, K, choose_by_value, in_endgame, view_seed
from bot.rules.ghost_stories.plan_endgame import choose as plan_choose
from bot.rules.ghost_stories.plan_wufeng import power_action, uncatchable_action, wufeng_action
from bot.rules.ghost_stories.reading import (
    ORDER,
    _dice,
    chances,
    has_power,
    haunts_in,
    power_of,
    success_chance,
)
from bot.rules.rng import Rng

View = dict[str, Any]
# Weights, tuned with bench/bench_ghost_stories.py at Initiation (see docs/rules/ghost_stories.md, "Bot").
SORC_W = 0.6  # Sorcerer's Hut: share of a ghost's danger that removing it is worth ...
SORC_HARD = 0.3  # ... raised by 30% per resistance symbol past the first (hard to exorcise) ...
SORC_COST = {2: 12.0, 3: 6.0, 4: 4.0}  # ... against the Qi it costs, by Qi held (never at 1 Qi)
SORC_EASE = 1.0  # ... and only as far as an exorcism is unlikely: times (1 - best odds) ** this
SORC_OVR = 0.3  # ... and of the overrun it spares a full board only this share, unless the overrun would kill
SORC_TIME = True  # ... by a teammate who can still do it before the ghost's harm (`in_time`)
TORM = 9.0  # a Tormentor (curse die every Yin phase of its board)
TOKB = 1.5  # per Power token lying on the centre tile (picked up by ending the turn there)
WATCH = 0.3  # Night Watchman: share of the danger of haunters about to haunt
WINV = 1000.0  # exorcising the last Wu-Feng incarnation wins the game: more than any ghost's danger (`inc_worth`)
INC_EARLY = 60.0  # an earlier incarnation (Nightmare, Hell): the game goes on after it
HOWL = 15.0  # a ghost facing Howling Nightmare keeps it from being exorcised
HOWL_PLACE = 20.0  # ... so a ghost whose space we choose goes anywhere else
SUPPORT = 3.0  # standing where Wu-Feng can be fought, per useful Tao token held
UNCATCH = 30.0  # the Pavilion can blow Uncatchable onto a Buddha
BORROW = 3.0  # least gain for which a Power token is spent (divided by the tokens held)
SINK = 0.5  # a blocker: a harmless ghost on a neutral or dead board (it keeps its space from newcomers)
SINK_BASE = 1.0  # worth of freeing a space on such a board (BASE on a living Taoist's board)
CEM = 9.0  # Cemetery: bringing a dead Taoist back
PREP = 8  # this many draws before Wu-Feng shows, tokens of the colours it may need are wanted ...
PREP_BLACK = 40.0  # ... this much for the most needed colour (black), the others by their share
HERB_WUFENG = 6.0  # Herbalist while Wu-Feng is in play, per missing symbol (up to 2)
YYR = 2
YY_USE = 6.0  # after the turn's action, the Yin-Yang buys a help from afar worth at least this (was 3)
YY_WATCH = True  # the Yin-Yang calls the Night Watchman when a haunter would haunt before anyone acts
RESTORE = {"sorcerer": 6.0, "temple": 5.0, "circle": 4.0, "altar": 4.0, "watchman": 3.5, "herbalist": 3.0,
           "tea_house": 3.0, "pavilion": 2.0, "cemetery": 1.0}  # fmt: skip
URG_TEAM = True  # a ghost's urgency by how many teammates act before its board's Yin phase ...
URGENCY = {1: 1.8, 2: 1.3, 3: 1.0, 0: 0.8}  # ... (1: I am the last chance; 0: any other count)
HAUNT_ABLE = True  # ... for a haunter about to haunt, counting only the teammates able to stop it (`able_after`)
ABLE_P = 0.5  # ... with these odds of exorcising it, if not by the Sorcerer or the Watchman
FUT_TOK = 1.0  # a held Tao token's worth against the hard ghosts still to come (token_future) ...
FUT_HARD = 2  # ... those of this resistance or more
TOKW = 0.5  # a Tao token from the Tea House or the Herbalist: this share of what it adds to an exorcism
TEA_GHOST = 2.0  # the Tea House brings a ghost
TEMPLE = 12.0  # a Buddha from the Temple (it destroys the next ghost placed on its space; 8 before the fifth pass)
DOOM = True  # solo, at 1 Qi with my board full, only what stops the overrun (or wins) counts (`doomed`)
HAUNT1 = 11.0  # a haunter whose figure is on the board (it haunts at its board's next Yin phase) ...
HAUNT_LIMIT_EXP = 2.0  # haunters weigh (4 / haunted-tile limit) ** this more at Normal and up
HAUNT0 = 4.0  # ... and one whose figure is still on its card
ALTAR = {1: 14.0, 2: 6.0, 0: 2.5}  # Altar by haunted tiles left before the loss (0: any other count)
ENDGAME_PLAN = True  # with the last incarnation in play, the turn's main choice by rollouts (plan_endgame.py)
MID_K, MID_ALTS, MID_MARGIN = 4, 3, 0.03  # before it, with 2-4 Taoists: one-round rollouts scored by value.py
ENDGAME = True  # the team plays for an exorcisable incarnation once it shows (plan_wufeng.py)
ENDGAME_POWERS = True  # ... and first borrows the powers that raise this turn's attempt (plan_wufeng.power_action)
UNCATCH_PLAN = True  # ... and puts Uncatchable on a Buddha first (Temple, Buddha, Pavilion)
PAIR = 1.5
CROWD = 1.0
CIRC = 0.5
CIRC_FUT = 10.0  # Circle of Prayer: worth of -1 resistance on the future ghosts of a colour ...
CIRC_INC_POOL = True  # ... the incarnation's odds with the living Taoists' tokens pooled (plan_wufeng gathers them)
CIRC_BLACK = 0.3  # ... black counts this much more (black ghosts land on Taoists' boards; Wu-Feng)
BASE = 3.0
MATE_W = 0.5  # a teammate's next turn, made better by moving it (Twin Winds, Pavilion): this share counts
PUSH_MIN = 1.0  # least gain for which Twin Winds moves a teammate
PAV_W = 0.3  # the Pavilion: this share of the danger a blown ghost takes away ...
PAV_MATE = 0.5  # ... plus the teammate it may move
TOK_LOCK = 1.5  # a ghost that locks the Tao tokens: this much more danger per token the team holds (up to 6)
# power_sides=choose: the side the bot plays (it never moves a teammate, so not Twin Winds); see
# docs/rules/ghost_stories.md, "Bot", for the bench behind the choice
SIDE_PREF = ("peaks", "mountain", "pockets", "second_wind", "mantra", "gust", "favorite", "twin_winds")
EXW = 1.0
OVR = [12.0, 3.0]
HERB = [4.5, 2.25]  # Herbalist by tokens held (<2, <4), else 0.8 ([3, 1.5] before the sixth pass)
TEA = [7.0, 3.0]


def _me(view: View) -> dict[str, Any]:
    return next(b for b in view["boards"] if b["colour"] == view["turn"])


def _requirement(view: View, sp: dict[str, Any]) -> tuple[dict[str, int], int, bool]:
    g = sp["ghost"]
    need = dict(g["resistance"])
    if view["circle"] and need.get(view["circle"], 0) > 0:
        need[view["circle"]] -= 1
    return need, (1 if sp["mantra"] else 0), "DICE_IMMUNE" not in g["states"]


def on_sink(view: View, k: int) -> bool:
    """A neutral board, or a dead Taoist's: a ghost there costs no Taoist Qi when the board is full."""
    owner = view["boards"][k // 3]
    return bool(owner["neutral"] or not owner["alive"])


def is_blocker(view: View, k: int) -> bool:
    """A ghost that does nothing where it sits, and keeps its space from a worse newcomer."""
    g = view["spaces"][k]["ghost"]
    if g is None or not on_sink(view, k) or g["incarnation"] or g["captured"]:
        return False
    if any(code in g["yin"] for code in ("HAUNTER", "CURSE", "BONE_CRACK")):
        return False
    if any(st in g["states"] for st in ("TAO_LOCK", "ALL_POWERS_BLOCK", "NO_WHITE", "DICE_IMMUNE")):
        return False
    opp = view["spaces"][OPPOSITE[k]]["ghost"]
    return not (opp is not None and "OPPOSITE_EMPTY" in opp["states"])


def restore_priority(view: View, tile: str) -> float:
    """Which haunted tile to turn back first: the helps the team leans on most."""
    return RESTORE.get(view["tiles"][tile_index(tile) or 0]["key"], 0.0)


def danger(view: View, k: int, ovr: float = 1.0) -> float:
    """What ghost k costs the team if left alone (`ovr` scales the part its crowded board's overrun adds)."""
    sp = view["spaces"][k]
    g = sp["ghost"]
    if g is None:
        return 0.0
    d: float = 2.0 + sum(g["resistance"].values()) * 0.5
    if is_blocker(view, k):
        d = SINK
        if "CURSE" in g["exit"]:
            d -= 1.5
        if "R_TAO2" in g["exit"] or "R_QI_OR_YY" in g["exit"]:
            d += 1.0
        return d
    order = ("red", "yellow", "green", "blue")
    soon = (k // 3 - order.index(view["turn"])) % 4  # 0: this board (already played), 1: next
    if URG_TEAM:
        urgency = URGENCY.get(chances(view, k // 3), URGENCY[0])
    else:
        urgency = {0: 0.8, 1: 1.6, 2: 1.3, 3: 1.0}[soon]
    if "HAUNTER" in g["yin"]:
        scale = (4.0 / view["haunt_limit"]) ** HAUNT_LIMIT_EXP  # 3 haunted tiles lose at Normal and up
        hi = haunts_in(g)
        if HAUNT_ABLE and hi == 1 and URG_TEAM:
            urgency = URGENCY.get(1 + len(able_after(view, k)), URGENCY[0])
        step = HAUNT1 if hi == 1 else ((HAUNT1 + HAUNT0) / 2 if hi == 2 else HAUNT0)
        d += step * urgency * scale
        line_active = sum(1 for t in LINES[k] if not view["tiles"][t]["haunted"])
        if view["haunted"] >= view["haunt_limit"] - 1:
            d += 6.0
        d += 0.5 * line_active
    if "CURSE" in g["yin"] or "BONE_CRACK" in g["yin"]:
        d += TORM * urgency
    if g["incarnation"]:
        d += 20.0
    opp = view["spaces"][OPPOSITE[k]]["ghost"]
    if opp is not None and "OPPOSITE_EMPTY" in opp["states"]:
        d += HOWL
    for st, w in (("POWER_BLOCK", 2.0), ("TAO_LOCK", 3.0), ("ALL_POWERS_BLOCK", 4.0), ("NO_WHITE", 2.0)):
        if st in g["states"]:
            d += w
    if "TAO_LOCK" in g["states"] and not g["incarnation"]:
        held = sum(sum(b["tao"].values()) for b in view["boards"] if b["alive"] and not b["neutral"])
        d += TOK_LOCK * min(held, 6)
    if g["captured"]:
        d += 3.0
    board = k // 3
    crowd = sum(1 for s in view["spaces"][board * 3 : board * 3 + 3] if s["ghost"] is not None)
    owner = view["boards"][board]
    if owner["alive"] and not owner["neutral"]:
        low = 1.6 if owner["qi"] <= 2 else 1.0
        d += {3: OVR[0], 2: OVR[1]}.get(crowd, 0.0) * low * urgency * ovr
    elif crowd == 3 and owner["qi"] > 0:
        d += 1.5
    if "CURSE" in g["exit"]:
        d -= 1.5
    if "R_TAO2" in g["exit"] or "R_QI_OR_YY" in g["exit"]:
        d += 1.0
    return d


def _pool_at(view: View, me: dict[str, Any], tile: str) -> dict[str, int]:
    if view["tao_locked"]:
        return {}
    pool = dict(me["tao"])
    for b in view["boards"]:
        if b is not me and b["alive"] and not b["neutral"] and b["pos"] == tile:
            for c, n in b["tao"].items():
                pool[c] = pool.get(c, 0) + n
    return pool


def exorcise_value(view: View, me: dict[str, Any], tile: int) -> float:
    total = 0.0
    pool = _pool_at(view, me, _tname(tile))
    for k in FACES[tile]:
        sp = view["spaces"][k]
        if sp["ghost"] is None or not sp["ghost"]["exorcisable"]:
            continue
        need, flex, dice_ok = _requirement(view, sp)
        p = success_chance(need, flex, _dice(view, me), pool, view["whites_wild"], dice_ok)
        total += p * _worth(view, k) * EXW
    return total


def support_value(view: View, me: dict[str, Any], tile: int) -> float:
    """Standing where Wu-Feng can be fought, holding the tokens it needs, helps whoever fights it."""
    v = 0.0
    for k in FACES[tile]:
        g = view["spaces"][k]["ghost"]
        if g is None or not g["incarnation"]:
            continue
        useful = sum(min(n, me["tao"].get(c, 0)) for c, n in g["resistance"].items())
        v += SUPPORT * useful + SUPPORT * 0.5
    return v


def _tname(tile: int) -> str:
    return "abc"[tile % 3] + str(tile // 3 + 1)


def help_value(view: View, me: dict[str, Any], tile: int) -> float:
    tl = view["tiles"][tile]
    if tl["haunted"]:
        return 0.0
    key = tl["key"]
    ghosts = [k for k, sp in enumerate(view["spaces"]) if sp["ghost"] is not None]
    if key == "altar" and view["haunted"]:
        left = view["haunt_limit"] - view["haunted"]
        return ALTAR.get(left, ALTAR[0])
    if (
        key == "cemetery"
        and view["players"] > 1
        and any(not b["neutral"] and not b["alive"] for b in view["boards"])
    ):
        return CEM
    if key == "tea_house":
        qi = TEA[0] if me["qi"] <= 1 else (TEA[1] if me["qi"] == 2 else 0.3)
        gains = token_gains(view, me)
        fut = token_future(view, me) if FUT_TOK else {}
        tok = max((TOKW * gains.get(c, 0.0) + fut.get(c, 0.0) for c in set(gains) | set(fut)), default=0.0)
        return qi + tok - TEA_GHOST
    if key == "watchman":
        best = 0.0
        for b in range(4):
            v = sum(
                WATCH * danger(view, k) * (1.0 if haunts_in(view["spaces"][k]["ghost"]) == 1 else 0.4)
                for k in range(b * 3, b * 3 + 3)
                if view["spaces"][k]["ghost"] is not None and view["spaces"][k]["ghost"]["haunt"]
            )
            best = max(best, v)
        return best
    if key == "pavilion" and any(sp["ghost"] is None for sp in view["spaces"]) and ghosts:
        if any(sp["buddha"] and sp["ghost"] is None for sp in view["spaces"]) and any(
            sp["ghost"] is not None and "NEEDS_BUDDHA" in sp["ghost"]["states"] and not sp["ghost"]["exorcisable"]
            for sp in view["spaces"]
        ):
            return UNCATCH
        return PAV_W * max(blow_gains(view).values(), default=0.0) + PAV_MATE
    if key == "temple" and view["temple_buddhas"] > 0:
        if any(sp["ghost"] is not None and "NEEDS_BUDDHA" in sp["ghost"]["states"] for sp in view["spaces"]):
            return 10.0 if me["buddhas"] == 0 else 2.0
        return TEMPLE if me["buddhas"] == 0 else TEMPLE / 4
    if key == "sorcerer" and me["qi"] >= 2:
        best = max((sorcerer_gain(view, k) for k in ghosts), default=0.0)
        return best - SORC_COST[min(me["qi"], 4)]
    if key == "herbalist":
        held = sum(me["tao"].values())
        v = HERB[0] if held < 2 else (HERB[1] if held < 4 else 0.8)
        gains = token_gains(view, me)
        if FUT_TOK:
            fut = token_future(view, me)
            gains = {c: gains.get(c, 0.0) + fut.get(c, 0.0) / TOKW for c in set(gains) | set(fut)}
        if gains:
            v = max(v, TOKW * 2 * (max(gains.values()) + sum(gains.values())) / 6)
        for g in _wufeng_in_play(view):
            if "TAO_LOCK" not in g["states"]:
                short = sum(max(0, n - me["tao"].get(c, 0)) for c, n in g["resistance"].items())
                v = max(v, HERB_WUFENG * min(short, 2))
        return v
    if key == "circle":
        return circle_gain(view)
    return 0.0


def in_time(view: View, k: int) -> list[str] | None:
    """The teammates who can still reach and exorcise ghost k before it does its harm, when that harm
    comes at its board's next Yin phase (a haunter about to haunt, or a full living board about to be
    overrun): those who act before that Yin phase and can step onto its tile. None: no harm is that
    close, so any Taoist may deal with it later."""
    g = view["spaces"][k]["ghost"]
    if g is None:
        return None
    board = k // 3
    owner = view["boards"][board]
    full = all(sp["ghost"] is not None for sp in view["spaces"][board * 3 : board * 3 + 3])
    if not (haunts_in(g) == 1 or (full and owner["alive"] and not owner["neutral"])):
        return None
    return [b["colour"] for b in _after_me(view, board) if FRONT[k] in reach(view, b)]


def _after_me(view: View, board: int) -> list[dict[str, Any]]:
    """The living Taoists' boards that play after me and before board `board`'s Yin phase, in turn order."""
    me = ORDER.index(view["turn"])
    out = []
    for step in range(1, 4):
        i = (me + step) % 4
        if i == board:
            break
        b = view["boards"][i]
        if b["alive"] and not b["neutral"]:
            out.append(b)
    return out


def able_after(view: View, k: int) -> list[str]:
    """The teammates acting after me, before the Yin phase of ghost k's board, who could stop its
    haunting themselves: step onto its tile with fair odds (ABLE_P, their own tokens), or onto the
    Sorcerer's Hut with Qi to spare, or onto the Night Watchman's Beat, or call either from afar with
    a Yin-Yang token. Counting the teammates merely in line (`chances`) left a haunter to a last seat
    that could not reach it (issue #14, ninth pass). Whether they will is not known, only that they can."""
    sp = view["spaces"][k]
    g = sp["ghost"]
    board = k // 3
    tiles = {tl["key"]: x for x, tl in enumerate(view["tiles"]) if not tl["haunted"]}
    out = []
    for b in _after_me(view, board):
        r = reach(view, b)
        watch = "watchman" in tiles
        sorc = "sorcerer" in tiles and b["qi"] >= 2
        ok = (watch and tiles["watchman"] in r) or (sorc and tiles["sorcerer"] in r)
        ok = ok or (bool(b["yinyang"]) and (watch or sorc))
        if not ok and FRONT[k] in r and g["exorcisable"]:
            need, flex, dice_ok = _requirement(view, sp)
            tokens = {} if view["tao_locked"] else b["tao"]
            ok = success_chance(need, flex, _dice(view, b), tokens, view["whites_wild"], dice_ok) >= ABLE_P
        if ok:
            out.append(b["colour"])
    return out


def ease(view: View, k: int) -> float:
    """The best exorcism odds any living Taoist would have against ghost k with the tokens they hold
    (SORC_TIME: only the teammates who can still do it in time, see `in_time`)."""
    sp = view["spaces"][k]
    g = sp["ghost"]
    if g is None or not g["exorcisable"]:
        return 0.0
    need, flex, dice_ok = _requirement(view, sp)
    best = 0.0
    who = in_time(view, k) if SORC_TIME else None
    for b in view["boards"]:
        if b["neutral"] or not b["alive"] or (who is not None and b["colour"] not in who):
            continue
        tokens = {} if view["tao_locked"] else b["tao"]
        best = max(best, success_chance(need, flex, _dice(view, b), tokens, view["whites_wild"], dice_ok))
    return best


def sorcerer_gain(view: View, k: int) -> float:
    """Removing ghost k for 1 Qi: worth its danger only as far as an exorcism is unlikely to do it."""
    g = view["spaces"][k]["ghost"]
    if g is None or g["incarnation"]:
        return 0.0
    hard = 1.0 + SORC_HARD * max(0, sum(g["resistance"].values()) - 1)
    # An overrun costs its Taoist 1 Qi and skips the board's arrival, so 1 Qi paid to spare a full board
    # its overrun only trades Qi, and lets a new ghost in: worth it when the overrun would kill.
    ovr = 1.0 if view["boards"][k // 3]["qi"] <= 1 else SORC_OVR
    return float(danger(view, k, ovr) * hard * SORC_W * (1.0 - ease(view, k)) ** SORC_EASE)


def token_gains(view: View, me: dict[str, Any]) -> dict[str, float]:
    """What one more Tao token of each colour (in the supply) adds to my best exorcism: the rise in
    odds times the ghost's worth, for the ghost it helps most (a token pays for one exorcism)."""
    if view["tao_locked"]:
        return {}
    out: dict[str, float] = {}
    n = _dice(view, me)
    ghosts = []
    for k, sp in enumerate(view["spaces"]):
        g = sp["ghost"]
        if g is None or not g["exorcisable"] or is_blocker(view, k):
            continue
        need, flex, dice_ok = _requirement(view, sp)
        pool = _pool_at(view, me, _tname(FRONT[k]))
        p0 = success_chance(need, flex, n, pool, view["whites_wild"], dice_ok)
        ghosts.append((k, need, flex, dice_ok, pool, p0))
    for c in TAO_COLOURS:
        if view["supply"].get(c, 0) <= 0:
            continue
        best = 0.0
        for k, need, flex, dice_ok, pool, p0 in ghosts:
            if need.get(c, 0) <= 0:
                continue
            more = {**pool, c: pool.get(c, 0) + 1}
            p1 = success_chance(need, flex, n, more, view["whites_wild"], dice_ok)
            best = max(best, (p1 - p0) * _worth(view, k))
        out[c] = best
    return out


def token_future(view: View, me: dict[str, Any]) -> dict[str, float]:
    """What one more Tao token of each colour is worth against the hard ghosts still to come.

    A hard ghost (resistance FUT_HARD or more) is rarely exorcised with the dice alone; a token of its
    colour, already held when it lands, turns it into a fair attempt. The unseen cards say how many
    of each colour are left; a colour matters as much as its ghosts bother the team
    (`_stream_weight`), and less for each token of it already held."""
    seen = {int(i) for i in view["discard_ids"]}
    seen |= {int(sp["ghost"]["id"]) for sp in view["spaces"] if sp["ghost"] is not None}
    left = [c for i, c in CARDS.items() if i not in seen and i not in INCARNATION_IDS]
    if not left:
        return {}
    out: dict[str, float] = {}
    for colour in TAO_COLOURS:
        hard = sum(1 for c in left if c["resistance"].get(colour, 0) >= FUT_HARD)
        held = me["tao"].get(colour, 0)
        out[colour] = FUT_TOK * _stream_weight(view, colour) * hard / len(left) * 10.0 / (1 + held) ** 2
    return out


def wufeng_need(view: View) -> dict[str, float]:
    """The symbols of each colour the next incarnation needs, on average over the incarnations nobody
    has seen yet (which one is in the deck is hidden: each unseen one is as likely); one that locks
    the Tao tokens counts for nothing, tokens cannot pay it."""
    seen = {int(i) for i in view["discard_ids"]}
    seen |= {int(sp["ghost"]["id"]) for sp in view["spaces"] if sp["ghost"] is not None}
    incs = [CARDS[i] for i in INCARNATION_IDS if i not in seen]
    out = {c: 0.0 for c in TAO_COLOURS}
    for inc in incs:
        if "TAO_LOCK" in inc["states"]:
            continue
        for c, n in inc["resistance"].items():
            out[c] += n / len(incs)
    return out


def inc_worth(view: View) -> float:
    """What exorcising an incarnation in play adds to its worth: the last one wins the game, so it
    outweighs any danger (at 60 a crisis's dangers, up to about 65, outbid a 1-in-3 attempt on it)."""
    inc = view["incarnations"]
    return WINV if int(inc["total"]) - int(inc["banished"]) <= 1 else INC_EARLY


def _worth(view: View, k: int) -> float:
    g = view["spaces"][k]["ghost"]
    return danger(view, k) + (SINK_BASE if on_sink(view, k) else BASE) + (inc_worth(view) if g["incarnation"] else 0.0)


def circle_gain(view: View) -> float:
    return circle_best(view)[1]


def _stream_weight(view: View, colour: str) -> float:
    """How much of the future stream of ghosts of this colour will bother the team.

    Black ghosts land on the drawer's board (always a Taoist's) and half the incarnations are black;
    a coloured ghost lands on its own board, harmless on a neutral board unless it haunts.
    """
    if colour == "black":
        return 1.0 + CIRC_BLACK
    b = next(x for x in view["boards"] if x["colour"] == colour)
    return 1.0 if (b["alive"] and not b["neutral"]) else 0.4


def circle_best(view: View) -> tuple[str | None, float]:
    """How much a Circle of Prayer token of the best colour raises the exorcism odds of the ghosts in play
    (ghosts with the dice alone; the incarnation with the team's tokens, which the all-in plan pools)."""

    team: dict[str, int] = {}
    if CIRC_INC_POOL and not view["tao_locked"]:
        for b in view["boards"]:
            if b["alive"] and not b["neutral"]:
                for c, n in b["tao"].items():
                    team[c] = team.get(c, 0) + n

    def benefit(colour: str | None) -> float:
        if colour is None:
            return 0.0
        v = 0.0
        for k, sp in enumerate(view["spaces"]):
            g = sp["ghost"]
            if g is None or g["resistance"].get(colour, 0) == 0 or not g["exorcisable"]:
                continue
            need = dict(g["resistance"])
            ok = "DICE_IMMUNE" not in g["states"]
            flex = 1 if sp["mantra"] else 0
            n = max(0, 3 - int(view["captured_dice"]))
            # the incarnation is fought with the gathered team's tokens (plan_wufeng): its odds with them
            tokens = team if g["incarnation"] else {}
            p0 = success_chance(need, flex, n, tokens, view["whites_wild"], ok)
            need[colour] -= 1
            p1 = success_chance(need, flex, n, tokens, view["whites_wild"], ok)
            v += (p1 - p0) * _worth(view, k)
        return v + CIRC_FUT * _stream_weight(view, colour)

    current = benefit(view["circle"])
    best, colour = 0.0, None
    for c in TAO_COLOURS:
        if c != view["circle"] and view["supply"][c] > 0:
            v = benefit(c)
            if v > best:
                best, colour = v, c
    return colour, max(0.0, CIRC * (best - current))


def buddha_spot(view: View, k: int) -> float:
    """Where a Buddha catches the most harm: a living Taoist's board (every ghost there costs), the
    more crowded the better (the next ghost would bring an overrun); on a neutral board it would
    only catch a ghost that does little there."""
    owner = view["boards"][k // 3]
    crowd = sum(1 for sp in view["spaces"][k // 3 * 3 : k // 3 * 3 + 3] if sp["ghost"] is not None)
    if owner["neutral"] or not owner["alive"]:
        return -1.0 + 0.1 * crowd
    return 1.0 + crowd


def doomed(view: View, me: dict[str, Any]) -> bool:
    """Solo, at 1 Qi with my board full, its overrun at my next Yin phase kills me and loses the game: a
    token, a Buddha or a Circle colour for later is then worth nothing."""
    if view["players"] > 1:  # with teammates my last turn still serves the team (tried: 80 against 91 of 300)
        return False
    b = next(i for i, x in enumerate(view["boards"]) if x["colour"] == me["colour"])
    return me["qi"] <= 1 and all(sp["ghost"] is not None for sp in view["spaces"][b * 3 : b * 3 + 3])


def rescue_value(view: View, me: dict[str, Any], tile: int) -> tuple[float, float]:
    """A doomed Taoist's tile (exorcism, help): exorcising a ghost of my board (no overrun) or the
    incarnation, the Pavilion blowing one off it, or the Tea House's Qi while a space is free for the
    ghost it draws (with every space full that ghost takes the Qi back)."""
    b = next(i for i, x in enumerate(view["boards"]) if x["colour"] == me["colour"])
    total = 0.0
    pool = _pool_at(view, me, _tname(tile))
    for k in FACES[tile]:
        sp = view["spaces"][k]
        g = sp["ghost"]
        if g is None or not g["exorcisable"] or (k // 3 != b and not g["incarnation"]):
            continue
        need, flex, dice_ok = _requirement(view, sp)
        p = success_chance(need, flex, _dice(view, me), pool, view["whites_wild"], dice_ok)
        total += p * _worth(view, k)
    tl = view["tiles"][tile]
    help_v = 0.0
    if tl["key"] == "tea_house" and not tl["haunted"] and any(sp["ghost"] is None for sp in view["spaces"]):
        help_v = help_value(view, me, tile)
    if tl["key"] == "pavilion" and not tl["haunted"] and any(k // 3 == b for k, _ in blow_gains(view)):
        help_v = help_value(view, me, tile)  # it blows a ghost off my board: a sure rescue
    return total, help_v


def tile_value(view: View, me: dict[str, Any], tile: int) -> float:
    if DOOM and doomed(view, me):
        return max(rescue_value(view, me, tile))
    now = max(exorcise_value(view, me, tile), help_value(view, me, tile)) + support_value(view, me, tile)
    if me["buddhas"] - me.get("buddhas_new", 0) > 0:
        empty = [
            k for k in FACES[tile] if view["spaces"][k]["ghost"] is None and not view["spaces"][k]["buddha"]
        ]
        if empty:
            now += 3.0
    later = max((exorcise_value(view, me, x) for x in ADJ[tile]), default=0.0)
    if tile == 4 and view["centre_power_tokens"] > 0:
        now += TOKB * view["centre_power_tokens"]
    return now + 0.15 * later


# ----------------------------------------------------------------------------------- the team
def board_of(view: View, colour: str) -> dict[str, Any]:
    return next(b for b in view["boards"] if b["colour"] == colour)


def with_taoist(view: View, colour: str, tile: int) -> View:
    """The view with the Taoist of `colour` standing on `tile` (moved by the winds)."""
    boards = [({**b, "pos": _tname(tile)} if b["colour"] == colour else b) for b in view["boards"]]
    return {**{k: v for k, v in view.items() if k != "_turn"}, "boards": boards}


def reach(view: View, b: dict[str, Any]) -> list[int]:
    """The tiles a Taoist can stand on for its next action: here, a step away (any tile with Peaks)."""
    here = tile_index(b["pos"]) or 0
    if b["power"]["key"] == "peaks" and b["power"]["active"]:
        return list(range(9))
    return [here, *ADJ[here]]


def turn_value(view: View, b: dict[str, Any]) -> float:
    """What a Taoist's next Yang phase is worth from where it stands: its best reachable tile."""
    return max(tile_value(view, b, x) for x in reach(view, b))


def mate_gain(view: View, me: dict[str, Any], colour: str, tile: int) -> float:
    """What moving the Taoist of `colour` to `tile` is worth to the team this round: my exorcism from
    where I stand with its tokens beside me (before my action), plus MATE_W of the rise of its own
    next turn from there (it plays after me in this round, from the new tile)."""
    here = tile_index(me["pos"]) or 0
    v2 = with_taoist(view, colour, tile)
    me2 = board_of(v2, me["colour"])
    gain = 0.0
    if not view["yang"]["acts"] and colour != me["colour"]:
        gain += exorcise_value(v2, me2, here) - exorcise_value(view, me, here)
    memo: dict[str, float] = view.setdefault("_turn", {})  # its next turn from where it stands now
    if colour not in memo:
        memo[colour] = turn_value(view, board_of(view, colour))
    gain += MATE_W * (turn_value(v2, board_of(v2, colour)) - memo[colour])
    return gain


def pool_bonus(view: View, me: dict[str, Any], tile: int, pushes: Sequence[Act]) -> float:
    """With Twin Winds still to use: what the best teammate the winds can bring onto `tile` adds to my
    exorcism there (its Tao tokens pay too), so the move is chosen with the push in mind."""
    best = 0.0
    if not pushes or view["tao_locked"]:
        return best
    base = None
    for mate in {a.parts[1] for a in pushes if a.parts[2] == _tname(tile)}:
        if not any(board_of(view, mate)["tao"].values()):
            continue
        if base is None:
            base = exorcise_value(view, me, tile)
        v2 = with_taoist(view, mate, tile)
        best = max(best, exorcise_value(v2, me, tile) - base)
    return best


def total_danger(view: View) -> float:
    return sum(danger(view, k) for k, sp in enumerate(view["spaces"]) if sp["ghost"] is not None)


def blown(view: View, k: int, j: int) -> View:
    """The view after the Pavilion blows the ghost on k to the free space j (onto a Buddha: destroyed,
    unless it is an incarnation)."""
    spaces = list(view["spaces"])
    src, dst = spaces[k], spaces[j]
    g = src["ghost"]
    spaces[k] = {**src, "ghost": None, "mantra": False}
    if dst["buddha"] and not g["incarnation"]:
        spaces[j] = {**dst, "buddha": False}
    else:
        spaces[j] = {**dst, "ghost": g, "buddha": False, "mantra": src["mantra"]}
    return {**{k: v for k, v in view.items() if k not in ("_blow", "_turn")}, "spaces": spaces}


def blow_gains(view: View) -> dict[tuple[int, int], float]:
    """For each ghost and free space of a neutral or dead board (or with a Buddha), how much blowing it
    there lowers the team's danger: a ghost taken off a full board saves the overrun; on a neutral
    board a harmless ghost bothers nobody. (Onto another living board it only moves the trouble: not
    counted.) Memoised in the view: the Pavilion is valued from several places of one decision."""
    memo = view.get("_blow")
    if memo is not None:
        return memo  # type: ignore[no-any-return]
    base = total_danger(view)
    free = [j for j, sp in enumerate(view["spaces"]) if sp["ghost"] is None and (sp["buddha"] or on_sink(view, j))]
    out: dict[tuple[int, int], float] = {}
    for k, sp in enumerate(view["spaces"]):
        if sp["ghost"] is None or not free:
            continue
        for j in free:
            out[(k, j)] = base - total_danger(blown(view, k, j))
    view["_blow"] = out
    return out


def draws_to_wufeng(view: View) -> int | None:
    """Cards still to be drawn before the next incarnation shows (None: one is in play, or none is left)."""
    in_play = sum(1 for sp in view["spaces"] if sp["ghost"] is not None and sp["ghost"]["incarnation"])
    left = int(view["incarnations"]["total"]) - int(view["incarnations"]["banished"]) - in_play
    if in_play or left <= 0:
        return None
    return max(0, int(view["deck"]) - (11 * left - 1))


def _wufeng_in_play(view: View) -> list[dict[str, Any]]:
    return [sp["ghost"] for sp in view["spaces"] if sp["ghost"] is not None and sp["ghost"]["incarnation"]]


def _demand(view: View) -> dict[str, float]:
    dem = {c: 0.1 for c in TAO_COLOURS}
    for k, sp in enumerate(view["spaces"]):
        g = sp["ghost"]
        if g is not None:
            for c, n in g["resistance"].items():
                dem[c] += n * (danger(view, k) + (inc_worth(view) if g["incarnation"] else 0.0))
    soon = draws_to_wufeng(view)
    if soon is not None and soon <= PREP:
        # hold tokens of the colours the coming incarnation may need (black most: half are black)
        need = wufeng_need(view)
        top = max(need.values()) or 1.0
        for c in TAO_COLOURS:
            dem[c] += PREP_BLACK * need[c] / top
    return dem


class TaoistPolicy(BotPolicy[Act]):
    """The table bot described in the module docstring; `planning=False` is the heuristic alone (the
    planners' rollouts, and the bench's paired baseline); `mid_k=0` plans in the endgame only."""

    def __init__(
        self,
        planning: bool = True,
        k: int = K,
        alts: int = ALTS,
        mid_k: int = MID_K,
        mid_alts: int = MID_ALTS,
        margin: float = MID_MARGIN,
    ) -> None:
        self.planning = planning and ENDGAME_PLAN
        self.k, self.alts = k, alts  # the planner's worlds and alternatives
        self.mid_k, self.mid_alts, self.margin = mid_k, mid_alts, margin  # ... before the endgame

    def choose(self, view: View, legal: Sequence[Act], memory: dict[str, Any], rng: Rng) -> Act:
        by_verb: dict[str, list[Act]] = {}
        for a in legal:
            by_verb.setdefault(a.parts[0], []).append(a)
        p = view["pending"]
        if p is not None:
            return self._pending(view, p, legal, by_verb)
        return self._yang(view, legal, by_verb, rng)

    # -- pending choices -------------------------------------------------------------------
    def _pending(self, view: View, p: dict[str, Any], legal: Sequence[Act], by: dict[str, list[Act]]) -> Act:
        kind = p["kind"]
        if kind == "side":
            return min(by["side"], key=lambda a: SIDE_PREF.index(a.parts[1]))
        if kind == "place":
            return max(by["place"], key=lambda a: self._place_score(view, p, a.parts[1]))
        if kind == "curse_reroll":
            return by["reroll"][0] if "reroll" in by else legal[0]
        if "reroll" in by and kind in ("exorcism", "herbs"):
            return self._reroll(view, p, by)
        if kind == "exorcism":
            good = [a for a in by["banish"] if a.parts[1] != "none"]
            if good:
                return max(good, key=lambda a: sum(danger(view, space_index(x) or 0) for x in a.parts[1:]))
            return by["banish"][0]
        dem = _demand(view)
        if kind == "discard":
            me = next(b for b in view["boards"] if b["colour"] == view["boards"][p["t"]]["colour"])
            return max(by["discard"], key=lambda a: (me["tao"][a.parts[1]], -dem[a.parts[1]]))
        if kind == "take":
            return max(by["take"], key=lambda a: dem[a.parts[1]])
        if kind == "reward":
            me = view["boards"][p["t"]]
            want = (
                "qi" if me["qi"] <= 2 or not any(a.parts[1] == "yinyang" for a in by["reward"]) else "yinyang"
            )
            return next(a for a in by["reward"] if a.parts[1] == want)
        if kind in ("share", "victim"):
            return _team_choice(view, kind, by)
        if kind == "pavilion":
            return self._pavilion(view, by["pavilion"])
        if kind == "blow":
            src = int(p["k"])
            g = view["spaces"][src]["ghost"]
            if g is not None and "NEEDS_BUDDHA" in g["states"] and not g["exorcisable"]:
                buddha = [a for a in by["blow"] if view["spaces"][space_index(a.parts[1]) or 0]["buddha"]]
                if buddha:
                    return buddha[0]
            gains = blow_gains(view)
            return max(by["blow"], key=lambda a: gains.get((src, space_index(a.parts[1]) or 0), 0.0))
        if kind == "yyhelp":
            tile = view["tiles"][tile_index(p["tile"]) if isinstance(p["tile"], str) else p["tile"]]
            return self._help_choice(view, {"pos": tile["tile"]}, by["help"])
        return legal[0]

    @staticmethod
    def _place_score(view: View, p: dict[str, Any], space: str) -> float:
        k = space_index(space) or 0
        sp = view["spaces"][k]
        name = p.get("card_name", "")
        incarnation = name in {
            "Howling Nightmare", "Uncatchable", "Hope Killer", "Death Army", "Forgotten Ones",
            "Bone Cracker", "Dark Mistress", "Creeping Horror", "Vampire Lord", "Nameless",
        }  # fmt: skip
        score = 0.0
        if sp["buddha"]:
            score += 10.0 if (not incarnation or name == "Uncatchable") else -5.0
        line_active = sum(1 for t in LINES[k] if not view["tiles"][t]["haunted"])
        score += 0.3 * line_active
        front = FRONT[k]
        if not view["tiles"][front]["haunted"]:
            score -= 0.2
        for b in view["boards"]:
            if b["alive"] and not b["neutral"] and b["pos"]:
                x = tile_index(b["pos"]) or 0
                dist = max(abs(x // 3 - front // 3), abs(x % 3 - front % 3))
                score += 1.0 / (1 + dist)
        board = k // 3
        crowd = sum(1 for s in view["spaces"][board * 3 : board * 3 + 3] if s["ghost"] is not None)
        owner = view["boards"][board]
        if owner["alive"] and not owner["neutral"]:
            score -= CROWD * crowd + (CROWD * 2 if crowd == 2 else 0.0)
        else:
            score += 1.5 - 0.3 * crowd  # neutral or dead board: no Taoist loses Qi when it is full
        others = [j for j in FACES[front] if j != k]
        if others and view["spaces"][others[0]]["ghost"] is not None:
            score += PAIR
        if name == "Howling Nightmare" and view["spaces"][OPPOSITE[k]]["ghost"] is None:
            score += 2.0
        opp = view["spaces"][OPPOSITE[k]]["ghost"]
        if opp is not None and "OPPOSITE_EMPTY" in opp["states"]:
            score -= HOWL_PLACE  # it would keep Howling Nightmare from being exorcised
        return score

    @staticmethod
    def _reroll(view: View, p: dict[str, Any], by: dict[str, list[Act]]) -> Act:
        dice = p["dice"]
        if p["kind"] == "exorcism":
            useful: set[str] = {"white"} if view["whites_wild"] else set()
            for x in p.get("targets", []):
                g = view["spaces"][space_index(x) or 0]["ghost"]
                if g is not None:
                    useful |= set(g["resistance"])
        else:
            useful = {"red", "yellow", "green", "blue", "black", "white"}
        bad = "".join(str(i + 1) for i, d in enumerate(dice) if d not in useful)
        for a in by["reroll"]:
            if a.parts[1] == bad:
                return a
        return by["keep"][0]

    # -- the Yang phase ----------------------------------------------------------------------
    def _yang(self, view: View, legal: Sequence[Act], by: dict[str, list[Act]], rng: Rng) -> Act:
        y = view["yang"]
        start = self.planning and not y["acts"] and _me(view)["alive"]
        endgame = start and in_endgame(view)
        mid = start and not endgame and self.mid_k > 0 and not y["moved"] and view["players"] > 1  # solo: no gain
        seed = view_seed(view) if endgame or mid else 0  # before the heuristic's caches join the view
        act = self._heuristic_yang(view, legal, by, rng)
        if (endgame or mid) and act.parts[0] in ("move", "exorcise", "help", "end"):
            return self._planned(view, by, act, seed, mid)
        return act

    def _planned(self, view: View, by: dict[str, list[Act]], act: Act, seed: int, mid: bool = False) -> Act:
        """The turn's main choice (plan_endgame.py; `mid`: before the endgame, by one round and the value):
        the heuristic's step against the best tile of each other kind by the values here, reachable by a
        plain move (or here, once moved)."""
        me = _me(view)
        here = tile_index(me["pos"]) or 0
        moves = {tile_index(a.parts[1]) or 0: a for a in by.get("move", [])}
        best: dict[str, tuple[float, int]] = {}
        for x in [here, *moves]:
            m = {**me, "pos": _tname(x)}
            ex = exorcise_value(view, m, x) if x != here or "exorcise" in by else 0.0
            if ex > 0.0:
                best["exorcise"] = max(best.get("exorcise", (-1e9, x)), (ex, x))
            if not view["tiles"][x]["haunted"] and (x != here or "help" in by):
                hv = help_value(view, m, x)
                key = "help:" + view["tiles"][x]["key"]
                if hv > 0.0:
                    best[key] = max(best.get(key, (-1e9, x)), (hv, x))
        mine = self._kind_of(view, me, act)
        others = sorted(((v, kd, x) for kd, (v, x) in best.items() if (kd, x) != mine), reverse=True)
        arms = [Arm("heuristic", act, lambda s, seat: s)]
        for _, kd, x in others[: self.mid_alts if mid else self.alts]:
            if x != here:
                first = moves[x]
            elif kd == "exorcise":
                first = max(by["exorcise"], key=lambda a: (len(a.parts), 0))
            else:
                first = self._help_choice(view, me, by["help"])
            arms.append(Arm(f"{kd}@{x}", first, _opening(x, kd)))
        if len(arms) == 1:
            return act
        heuristic = TaoistPolicy(planning=False)
        if mid:
            chosen = choose_by_value(view, arms, heuristic, self.mid_k, seed, self.margin)
        else:
            chosen = plan_choose(view, arms, heuristic, k=self.k, seed=seed)
        pick: Act = chosen.first
        return pick

    @staticmethod
    def _kind_of(view: View, me: dict[str, Any], act: Act) -> tuple[str, int] | None:
        """What the heuristic's step leads to this turn, as the arms name it (a move: the larger of the
        exorcism and help values there), so that no alternative repeats it."""
        x = tile_index(me["pos"]) or 0
        if act.parts[0] == "move":
            x = tile_index(act.parts[1]) or 0
            m = {**me, "pos": act.parts[1]}
            ex, hv = exorcise_value(view, m, x), help_value(view, m, x)
            return ("exorcise", x) if ex >= hv and ex > 0.3 else ("help:" + view["tiles"][x]["key"], x)
        if act.parts[0] == "exorcise":
            return "exorcise", x
        if act.parts[0] == "help":
            return "help:" + view["tiles"][x]["key"], x
        return None

    def _heuristic_yang(self, view: View, legal: Sequence[Act], by: dict[str, list[Act]], rng: Rng) -> Act:
        me = _me(view)
        here = tile_index(me["pos"]) or 0
        limit, haunted = view["haunt_limit"], view["haunted"]
        if ENDGAME:
            powers = power_action(view, me, by) if ENDGAME_POWERS else None
            if powers is not None:
                return powers
            endgame = wufeng_action(view, me, by) or (uncatchable_action(view, me, by) if UNCATCH_PLAN else None)
            if endgame is not None:
                if endgame.parts[0] != "move" and "push" in by:
                    push = self._push(view, me, by["push"])
                    if push is not None:
                        return push
                return endgame
        if "yinyang" in by and YY_WATCH and not view["yang"]["moved"]:
            guard = self._yinyang_guard(view, me, here, by["yinyang"])
            if guard is not None:
                return guard
        if "yinyang" in by and haunted >= limit - YYR:
            restores = [a for a in by["yinyang"] if a.parts[1] == "restore"]
            if restores:
                return max(restores, key=lambda a: restore_priority(view, a.parts[2]))
        if "mantra" in by:
            best = max(by["mantra"], key=lambda a: danger(view, space_index(a.parts[1]) or 0))
            if view["mantra"] in (None, "home"):
                return best
        if "power" in by and not view["yang"]["moved"] and not view["yang"]["acts"]:
            borrow = self._borrow(view, me, here, by["power"])
            if borrow is not None:
                return borrow
        if "pocket" in by:
            dem = _demand(view)
            return max(by["pocket"], key=lambda a: dem[a.parts[1]])
        if "move" in by:
            pushes = by.get("push", [])
            cur = tile_value(view, me, here) + pool_bonus(view, me, here, pushes)
            best_a, best_v = None, cur
            for a in by["move"]:
                x = tile_index(a.parts[1]) or 0
                there = {**me, "pos": a.parts[1]}
                v = tile_value(view, there, x) + pool_bonus(view, there, x, pushes)
                if v > best_v + 0.2:
                    best_a, best_v = a, v
            if best_a is not None:
                return best_a
        if "push" in by:
            push = self._push(view, me, by["push"])
            if push is not None:
                return push
        ex = exorcise_value(view, me, here) if "exorcise" in by else 0.0
        hv = help_value(view, me, here) if "help" in by else 0.0
        if DOOM and doomed(view, me):
            ex, hv = rescue_value(view, me, here)
            ex, hv = (ex if "exorcise" in by else 0.0), (hv if "help" in by else 0.0)
        if "exorcise" in by and ex >= hv and ex > 0.3:
            return max(by["exorcise"], key=lambda a: (len(a.parts), 0))
        if "help" in by and hv > 0.5:
            return self._help_choice(view, me, by["help"])
        if "buddha" in by:
            return max(by["buddha"], key=lambda a: buddha_spot(view, space_index(a.parts[1]) or 0))
        if "yinyang" in by and haunted < limit - YYR and view["yang"]["acts"]:
            spend = self._yinyang_extra(view, me, by["yinyang"])
            if spend is not None:
                return spend
        if "yinyang" in by and me["qi"] <= 1:
            tea = [
                a
                for a in by["yinyang"]
                if a.parts[1] != "restore" and view["tiles"][tile_index(a.parts[1]) or 0]["key"] == "tea_house"
            ]
            if tea:
                return tea[0]
        return by["end"][0]

    @staticmethod
    def _pavilion(view: View, acts: list[Act]) -> Act:
        """The winds may carry a Taoist anywhere: the teammate whose next turn gains most (solo: me)."""
        moves = [a for a in acts if a.parts[1] != "skip"]
        return TaoistPolicy._best_carry(view, _me(view), moves, PAV_MATE) or acts[0]

    @staticmethod
    def _push(view: View, me: dict[str, Any], acts: list[Act]) -> Act | None:
        """Twin Winds: move the teammate whose step gains the team most (its tokens beside my exorcism,
        or its own next turn), if that is worth PUSH_MIN."""
        return TaoistPolicy._best_carry(view, me, acts, PUSH_MIN)

    @staticmethod
    def _best_carry(view: View, me: dict[str, Any], acts: list[Act], least: float) -> Act | None:
        """Of the moves of a Taoist (`move <colour> <tile>`), the one whose `mate_gain` is highest and
        above `least`; None if none is (the first of equals wins)."""
        best, best_v = None, least
        for a in acts:
            v = mate_gain(view, me, a.parts[1], tile_index(a.parts[2]) or 0)
            if v > best_v:
                best, best_v = a, v
        return best

    @staticmethod
    def _yinyang_extra(view: View, me: dict[str, Any], acts: list[Act]) -> Act | None:
        """After the turn's action, spend the Yin-Yang on the best help from afar if it is worth YY_USE.

        The token is an extra action; held back for a crisis it was mostly never spent (about one
        per Taoist a game), while rewards give it back. Restores near the limit come first (YYR)."""
        far = [a for a in acts if a.parts[1] != "restore"]
        if not far:
            return None
        best = max(far, key=lambda a: help_value(view, me, tile_index(a.parts[1]) or 0))
        return best if help_value(view, me, tile_index(best.parts[1]) or 0) >= YY_USE else None

    @staticmethod
    def _yinyang_guard(view: View, me: dict[str, Any], here: int, acts: list[Act]) -> Act | None:
        """Spend the Yin-Yang on the Night Watchman's Beat from afar when a haunter's figure would enter
        the village before any teammate can act and I cannot exorcise it from where I can go."""
        reach = [here, *ADJ[here]]
        for k, sp in enumerate(view["spaces"]):
            g = sp["ghost"]
            if g is None or haunts_in(g) != 1 or chances(view, k // 3) != 1:
                continue
            if FRONT[k] in reach and g["exorcisable"]:
                need, flex, dice_ok = _requirement(view, sp)
                pool = _pool_at(view, me, _tname(FRONT[k]))
                if success_chance(need, flex, _dice(view, me), pool, view["whites_wild"], dice_ok) >= 0.6:
                    continue
            for a in acts:
                x = tile_index(a.parts[1]) if a.parts[1] != "restore" else None
                if x is not None and x not in reach and view["tiles"][x]["key"] == "watchman":
                    return a
        return None

    @staticmethod
    def _borrow(view: View, me: dict[str, Any], here: int, acts: list[Act]) -> Act | None:
        """Spend a Power token when a neutral board's power is clearly worth it this turn."""

        def best(m: dict[str, Any], tiles: Sequence[int]) -> tuple[float, int]:
            return max((tile_value(view, {**m, "pos": _tname(x)}, x), x) for x in tiles)

        reach = [here, *ADJ[here]] if not has_power(view, me, "peaks") else list(range(9))
        base, at = best(me, reach)
        choice, gain_best = None, BORROW / max(1, me["power_tokens"])
        for a in acts:
            key = power_of(view, a.parts[1])
            if has_power(view, me, key):
                continue
            extra = {**me, "_extra": (*me.get("_extra", ()), key)}
            gain = 0.0
            if key == "peaks":
                gain = best(me, range(9))[0] - base
            elif key == "mountain":
                gain = best(extra, reach)[0] - base
            elif key == "gust":
                m = {**me, "pos": _tname(at)}
                gain = min(exorcise_value(view, m, at), help_value(view, m, at)) * 0.8
            elif key == "second_wind":
                m = {**me, "pos": _tname(at)}
                gain = max(exorcise_value(view, m, at), help_value(view, m, at)) * 0.45
            elif key == "pockets":
                gain = 1.2
            elif key == "favorite":
                gain = 0.25 * exorcise_value(view, {**me, "pos": _tname(at)}, at)
            if gain > gain_best:
                choice, gain_best = a, gain
        return choice

    @staticmethod
    def _help_choice(view: View, me: dict[str, Any], helps: list[Act]) -> Act:
        key = view["tiles"][tile_index(me["pos"]) or 0]["key"]
        if key == "sorcerer":
            return max(helps, key=lambda a: sorcerer_gain(view, space_index(a.parts[1]) or 0))
        if key == "altar":
            return max(helps, key=lambda a: restore_priority(view, a.parts[1]))
        if key == "watchman":

            def figures(a: Act) -> float:
                b = ORDER.index(a.parts[1])
                return sum(
                    danger(view, k) / (haunts_in(view["spaces"][k]["ghost"]) or 1)
                    for k in range(b * 3, b * 3 + 3)
                    if view["spaces"][k]["ghost"] is not None and view["spaces"][k]["ghost"]["haunt"]
                )

            return max(helps, key=figures)
        if key == "circle":
            colour = circle_best(view)[0]
            for a in helps:
                if a.parts[1:] == (colour,):
                    return a
        if key == "tea_house":
            gains = token_gains(view, _me(view))
            if gains and max(gains.values()) > 0.5:
                colour = max(gains, key=lambda c: gains[c])
                for a in helps:
                    if a.parts[1:] == (colour,):
                        return a
        if key in ("tea_house", "circle"):
            dem = _demand(view)
            return max(helps, key=lambda a: dem.get(a.parts[1], 0.0) if len(a.parts) > 1 else 0.0)
        if key == "pavilion":
            blows = blow_gains(view)
            buddha = any(sp["buddha"] and sp["ghost"] is None for sp in view["spaces"])

            def blow(a: Act) -> float:
                src = space_index(a.parts[1]) or 0
                g = view["spaces"][src]["ghost"]
                if buddha and "NEEDS_BUDDHA" in g["states"] and not g["exorcisable"]:
                    return 1000.0
                return max((v for (k, _), v in blows.items() if k == src), default=0.0)

            return max(helps, key=blow)
        return helps[0]


def _opening(tile: int, kind: str) -> Any:
    """An endgame arm's first steps on an engine state: move to `tile` if not there, then the action of
    `kind` (`exorcise`, or `help:<key>` by the help rule here); None if not legal there."""

    def opening(s: State, seat: int) -> State | None:
        me = s["boards"][s["turn"]]
        if me["pos"] != tile:
            a = next((a for a in GAME.legal_actions(s, seat) if a.parts == ("move", _tname(tile))), None)
            if a is None:
                return None
            s, _ = GAME.apply(s, seat, a)
            if GAME.outcome(s) is not None or s["pending"] is not None:
                return None
        verb = "exorcise" if kind == "exorcise" else "help"
        acts = [a for a in GAME.legal_actions(s, seat) if a.parts[0] == verb]
        if not acts:
            return None
        if verb == "exorcise":
            act = max(acts, key=lambda a: (len(a.parts), 0))
        else:
            view = GAME.view(s, seat)
            act = TaoistPolicy._help_choice(view, _me(view), acts)
        s, _ = GAME.apply(s, seat, act)
        return s

    return opening


def _team_choice(view: View, kind: str, by: dict[str, list[Act]]) -> Act:
    """A team decision, the same from every seat: a reward to the neediest Taoist, a curse to the one
    who can best afford it.

    The curse die of a neutral or haunted board (core.apply_curse) costs the chosen Taoist 1 Qi on
    its Qi face, and on its ghost face makes them draw (a black ghost lands on their board); its Tao
    face does nothing for a neutral board but takes every token on a dead Taoist's board, where
    Strength of a Mountain also spares its Taoist the roll. So: on a dead Taoist's board a Taoist
    with an active Mountain first; then whoever has Qi to spare (1 Qi left means death), then The
    Gods' Favorite (it may reroll a bad face), then the most free spaces on their board, then the
    fewest Tao tokens. A token Bone Cracker takes goes to the Taoist holding the fewest (none: nothing
    is lost).
    """
    boards = {b["colour"]: b for b in view["boards"]}
    pending = view["pending"] or {}
    if kind == "share":
        if pending.get("what") == "yinyang":
            return min(by["give"], key=lambda a: (boards[a.parts[1]]["yinyang"], boards[a.parts[1]]["qi"]))
        return min(by["give"], key=lambda a: boards[a.parts[1]]["qi"])
    if pending.get("what") == "discard":
        return min(by["suffer"], key=lambda a: sum(boards[a.parts[1]]["tao"].values()))
    spared = pending.get("neutral") is False

    def afford(a: Act) -> tuple[int, int, int, int, int]:
        b = boards[a.parts[1]]
        pos = ("red", "yellow", "green", "blue").index(b["colour"])
        free = sum(1 for sp in view["spaces"][pos * 3 : pos * 3 + 3] if sp["ghost"] is None)
        favorite = int(b["power"]["key"] == "favorite" and b["power"]["active"])
        mountain = int(spared and b["power"]["key"] == "mountain" and b["power"]["active"])
        return mountain, min(b["qi"], 3), favorite, free, -sum(b["tao"].values())

    return max(by["suffer"], key=afford)
