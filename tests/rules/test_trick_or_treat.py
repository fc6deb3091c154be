"""Scenario tests for Trick or Treat Halloween: one behaviour of the seed (or of a reading in
docs/rules/trick_or_treat.md) per test, on hand-built positions."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import IllegalAction, InvalidInput, NotYourTurn, get_game
from bot.rules.trick_or_treat import GAME
from bot.rules.trick_or_treat import game as G
from bot.rules.trick_or_treat.data import (
    BESIDE,
    BUILDINGS,
    CARDS,
    ENTRANCES,
    NEIGHBOURS,
    STREETS,
)
from bot.rules.trick_or_treat.game import Action as A
from tests.rules.playout import assert_illegal

# building ids in data/trick_or_treat/components.json
CORN_MANSION, BONBON_MANSION, DONUT_MANSION = 0, 2, 6
VILLA_CBW = 10  # corn, bonbon, waffle
CASTLE = 15
BIKERS, BIKERS2 = 17, 18
PLANT = 19
# squares: index = row*4 + col; V22 lies between B2 (5) and C2 (6)
B2, C2, B3 = 5, 6, 9


def build(
    n: int = 3,
    *,
    chars: list[str | None] | None = None,
    pos: list[str | None] | None = None,
    dice: list[str] | None = None,
    city: dict[int, tuple[int, bool, list[str]]] | None = None,
    candy: dict[int, dict[str, int]] | None = None,
    cards: dict[int, list[int]] | None = None,
    seat: int = 0,
    opts: dict[str, str] | None = None,
    act: bool = True,
    auto_end: bool = False,
) -> dict[str, Any]:
    """A position in `seat`'s act phase (or roll phase if act=False) with the given dice.

    The turn does not end by itself when End is the only move left (`auto_end`, the rule of new
    tables), so a scenario can end it explicitly; the auto-end has its own tests."""
    s = GAME.new(n, 1, opts)
    s = G.clone(s)
    s["auto_end"] = auto_end
    # a known city: squares 0..15 hold buildings 0..15 face down, 16..20 removed; supply adjusted
    s["city"] = [{"b": i, "up": False, "candy": []} for i in range(16)]
    s["removed"] = [16, 17, 18, 19, 20]
    for idx, (bid, up, kinds) in (city or {}).items():
        if bid in s["removed"]:
            old = s["city"][idx]["b"]
            s["removed"][s["removed"].index(bid)] = old
        else:
            other = next(i for i, c in enumerate(s["city"]) if c["b"] == bid)
            s["city"][other]["b"] = s["city"][idx]["b"]
        s["city"][idx] = {"b": bid, "up": up, "candy": list(kinds)}
        for k in kinds:
            s["supply"][k] -= 1
    for i in range(n):
        p = s["players"][i]
        p["char"] = (chars or [None] * n)[i]
        p["pos"] = (pos or ["V22"] + [None] * (n - 1))[i]
        for k, c in (candy or {}).get(i, {}).items():
            p["candy"][k] += c
            s["supply"][k] -= c
        for cid in (cards or {}).get(i, []):
            if cid in s["row"]:
                s["row"].remove(cid)
                s["row"].append(s["deck"].pop(0))
            else:
                s["deck"].remove(cid)
            p["cards"].append(cid)
    s["turn"] = seat
    faces, _black, extra = G.turn_kit(s, seat)
    s["sym"] = [{"f": f, "src": "orange", "used": False} for f in (dice or [])]
    s["marked"] = [False] * len(s["sym"])
    s["perm"] = faces
    s["rerolls"] = 2 + extra
    s["phase"] = "roll"
    if act:
        s, _ = GAME.apply(s, seat, A("done"))
    return s


def put_row(s: dict[str, Any], slot: int, cid: int) -> None:
    """Place score card `cid` in row slot `slot` (0-based), swapping so all 24 stay accounted for."""
    old = s["row"][slot]
    if cid in s["row"]:
        j = s["row"].index(cid)
        s["row"][j] = old
    else:
        s["deck"][s["deck"].index(cid)] = old
    s["row"][slot] = cid


def do(s: dict[str, Any], text: str, seat: int | None = None) -> dict[str, Any]:
    who = seat if seat is not None else s["turn"]
    new, _ = GAME.apply(s, who, GAME.parse_action(text))
    return new


def legal(s: dict[str, Any], seat: int | None = None) -> list[str]:
    who = seat if seat is not None else s["turn"]
    return [GAME.format_action(a) for a in GAME.legal_actions(s, who)]


# ---------------------------------------------------------------------------------------------
# setup


def test_game_is_registered_with_its_metadata() -> None:
    g = get_game("trick_or_treat")
    assert g is GAME and (g.min_players, g.max_players) == (2, 8)


def test_setup_puts_16_face_down_buildings_out_and_5_away_and_six_cards_face_up() -> None:
    s = GAME.new(4, 7)
    assert len(s["city"]) == 16 and not any(c["up"] for c in s["city"])
    assert len(s["removed"]) == 5
    assert sorted([c["b"] for c in s["city"]] + s["removed"]) == list(range(21))
    assert len(s["row"]) == 6 and len(s["deck"]) == 18
    assert all(v == 13 for v in s["supply"].values()) and len(s["supply"]) == 6


def test_characters_are_chosen_in_seat_order_then_entrances() -> None:
    s = GAME.new(3, 2)
    assert GAME.to_act(s) == {0} and s["phase"] == "choose"
    s = do(s, "choose witch")
    assert GAME.to_act(s) == {1} and "choose witch" not in legal(s)
    s = do(s, "choose hero")
    s = do(s, "choose cowboy")
    assert s["phase"] == "start" and GAME.to_act(s) == {0}
    assert len(legal(s)) == 12
    s = do(s, "start n1")
    s = do(s, "start n1")  # several pawns may share an entrance
    s = do(s, "start e3")
    assert s["phase"] == "roll" and s["turn"] == 0 and len(s["sym"]) == 6


def test_two_player_game_has_no_pirate_or_lion() -> None:
    s = GAME.new(2, 2)
    offered = legal(s)
    assert "choose pirate" not in offered and "choose lion" not in offered
    assert len(offered) == 6
    assert "choose pirate" in legal(GAME.new(3, 2))


# ---------------------------------------------------------------------------------------------
# roll phase


def test_marked_dice_are_rerolled_and_the_others_kept() -> None:
    s = build(dice=["club"] * 6, act=False)
    s = do(s, "mark 2")
    s = do(s, "mark 5")
    s = do(s, "mark 5")  # unmark
    assert s["marked"] == [False, True, False, False, False, False]
    before = [d["f"] for d in s["sym"]]
    s2 = do(s, "reroll")
    after = [d["f"] for d in s2["sym"]]
    assert [after[i] for i in (0, 2, 3, 4, 5)] == [before[i] for i in (0, 2, 3, 4, 5)]
    assert s2["rerolls"] == 1 and s2["phase"] == "roll" and not any(s2["marked"])


def test_two_rerolls_then_the_act_phase_starts_by_itself() -> None:
    s = build(dice=["club"] * 6, act=False)
    assert "reroll" not in legal(s)  # nothing marked
    for _ in range(2):
        s = do(s, "mark 1")
        s = do(s, "reroll")
    assert s["phase"] == "act" and s["rerolls"] == 0


def test_done_stops_rolling_and_adds_permanent_symbols() -> None:
    s = build(chars=["witch", None, None], dice=["club"], act=False)
    s = do(s, "done")
    assert s["phase"] == "act"
    assert [d["f"] for d in s["sym"]] == ["club", "feet2"] and s["sym"][1]["src"] == "perm"


def test_dinosaur_and_reroll_cards_give_extra_rerolls() -> None:
    s = build(chars=["dinosaur", None, None], cards={0: [8, 14]}, dice=["club"], act=False)
    assert s["rerolls"] == 5


def test_black_die_cards_add_black_dice_to_the_roll_from_the_next_turn() -> None:
    s = build(n=2, cards={0: [22, 23]}, dice=["club"])
    s = do(s, "end")
    s = do(s, "done")
    s = do(s, "end")
    assert s["turn"] == 0 and len(s["sym"]) == 8
    assert [d["src"] for d in s["sym"]][6:] == ["black", "black"]


# ---------------------------------------------------------------------------------------------
# movement


def test_one_footprint_moves_one_street_through_an_intersection() -> None:
    s = build(dice=["feet"])
    moves = sorted(a for a in legal(s) if a.startswith("move"))
    assert moves == sorted(f"move {x.lower()}" for x in NEIGHBOURS["V22"])
    s = do(s, "move v32")
    assert s["players"][0]["pos"] == "V32" and not any(a.startswith("move") for a in legal(s))


def test_the_board_shows_the_last_walk_until_the_next_player_walks() -> None:
    """Issue #12: what moved since the last board. The view's trail is this turn's walk, and the
    previous turn's stays until the next player takes a step (an async player sees who went where)."""
    s = build(pos=["V22", "V22", "N3"], dice=["feet", "feet"], auto_end=False)
    start = "V22"
    s = do(s, "move v32")
    s = do(s, "move h32")
    assert GAME.view(s, None)["trail"] == {"seat": 0, "streets": [start, "V32", "H32"]}
    s = do(s, "end")
    assert s["turn"] == 1 and GAME.view(s, None)["trail"]["seat"] == 0  # still shown to the next player
    s = G.clone(s)
    s["phase"], s["sym"] = "act", [{"f": "feet", "src": "orange", "used": False}]
    s["marked"] = [False]
    s = do(s, next(a for a in legal(s) if a.startswith("move")))
    trail = GAME.view(s, None)["trail"]
    assert trail["seat"] == 1 and len(trail["streets"]) == 2  # a new walk replaced it


def test_two_footprints_may_be_split_around_other_actions() -> None:
    s = build(dice=["feet2", "pumpkin", "pumpkin"], city={C2: (CORN_MANSION, True, ["corn"] * 3)})
    s = do(s, "move v12")
    assert s["banked"] == 1
    s = do(s, "move v22")
    s = do(s, "ring c2")
    assert s["players"][0]["candy"]["corn"] == 1
    assert not any(a.startswith("move") for a in legal(s))


def test_entering_a_crowded_street_costs_one_footprint_more_per_pawn() -> None:
    s = build(pos=["V22", "V32", "V32"], dice=["feet", "feet"])
    assert "move v32" not in legal(s)
    s = build(pos=["V22", "V32", "V32"], dice=["feet", "feet", "feet2"])
    s = do(s, "move v32")
    assert s["players"][0]["pos"] == "V32" and G.feet_points(s) == 1


def test_crowding_counts_on_every_street_entered_not_on_leaving() -> None:
    s = build(pos=["V32", "V32", "V32"], dice=["feet", "feet"])
    s = do(s, "move v22")  # leaving a crowded street is free
    assert G.feet_points(s) == 1


def test_a_pawn_at_an_entrance_can_only_step_into_its_street() -> None:
    s = build(pos=["N2", None, None], dice=["feet", "pumpkin", "pumpkin", "club", "club", "club"])
    assert [a for a in legal(s) if a not in ("end",)] == ["move v12"]


def test_a_pawn_may_not_stay_at_its_entrance_when_it_can_step_in() -> None:
    """「除遊戲開始外，玩家不能將自家立牌停留在城市區邊緣，只能停留在城市間的街道區上」 (issue #13, point 3):
    only the start puts a pawn at the edge; with the footprints to step in, it must before the turn
    ends (or a card is bought)."""
    s = build(pos=["N2", None, None], dice=["feet", "candy", "candy"], candy={0: {"corn": 4}})
    put_row(s, 0, 1)  # corn x4: affordable
    assert "end" not in legal(s) and not any(a.startswith("buy") for a in legal(s))
    err = assert_illegal(GAME, s, 0, A("end"))
    assert "edge of the city" in err.message and "V12" in err.message
    assert_illegal(GAME, s, 0, A("buy", "1"))
    s = do(s, "discount")  # symbol-only actions are still fine at the entrance
    assert "end" not in legal(s)
    s = do(s, "move v12")
    assert "end" in legal(s) and "buy 1" in legal(s)


def test_a_pawn_without_the_footprints_waits_at_its_entrance() -> None:
    s = build(pos=["N2", "V12", "V12"], dice=["feet2", "pumpkin"])  # V12 is crowded: 3 footprints
    assert legal(s) == ["end"]
    s = do(s, "end")
    assert s["players"][0]["pos"] == "N2"


def test_a_pawn_at_the_edge_cannot_dodge_the_bikers_by_staying_out() -> None:
    """「當玩家進入與此板塊相鄰的街道…亦須將自家1個糖果板塊繳回公區」: the entrance is no refuge."""
    s = build(pos=["N1", None, None], dice=["feet"], city={0: (BIKERS, True, [])}, candy={0: {"corn": 2}})
    assert legal(s) == ["move v11"]  # V11 lies beside A1 (the bikers): stepping in costs a candy
    s = do(s, "move v11")
    assert s["players"][0]["candy"]["corn"] == 1


def test_pawns_never_return_to_the_city_edge() -> None:
    s = build(pos=["V11", None, None], dice=["feet2", "feet2"])
    moves = [a.split()[1].upper() for a in legal(s) if a.startswith("move")]
    assert moves and all(m in STREETS for m in moves) and not set(moves) & set(ENTRANCES)


def test_entrances_lead_to_the_edge_streets() -> None:
    assert ENTRANCES["N1"] == "V11" and ENTRANCES["S3"] == "V43"
    assert ENTRANCES["W2"] == "H21" and ENTRANCES["E1"] == "H14"
    assert len(STREETS) == 24 and len(ENTRANCES) == 12
    assert BESIDE["V22"] == (B2, C2) and BESIDE["H22"] == (B2, B3)


# ---------------------------------------------------------------------------------------------
# doorbells, magnifiers, candy


def test_ringing_a_face_down_building_turns_it_up_and_stocks_it() -> None:
    """「若所在街道旁邊的1個建築物板塊未翻面，可將其翻至正面，並從公區拿取對應的糖果板塊置於其上方 …
    若所在街道旁邊的1個建築物板塊已翻面，則可拿取建築物板塊上方左邊算起第1個糖果板塊」 (issue #13, point 8):
    by default ringing a face-down building only turns it up and stocks it; taking is the face-up case."""
    s = build(dice=["pumpkin", "pumpkin"], city={C2: (VILLA_CBW, False, [])})
    assert GAME.check_options(None)["ring_face_down"] == "reveal"
    assert "ring c2" in legal(s) and "ring b2" in legal(s)
    s = do(s, "ring c2")
    assert s["city"][C2]["up"] and s["city"][C2]["candy"] == ["corn", "bonbon", "waffle"]
    assert G.candy_total(s["players"][0]) == 0
    assert 6 in s["rang"]  # it was rung: not again this turn, nor in this player's next turn


def test_option_take_ringing_a_face_down_building_also_gives_the_first_candy() -> None:
    s = build(dice=["pumpkin", "pumpkin"], city={C2: (VILLA_CBW, False, [])}, opts={"ring_face_down": "take"})
    s = do(s, "ring c2")
    cell = s["city"][C2]
    assert cell["up"] and cell["candy"] == ["bonbon", "waffle"]
    assert s["players"][0]["candy"]["corn"] == 1


def test_ringing_a_face_up_building_takes_its_leftmost_candy() -> None:
    s = build(dice=["pumpkin", "pumpkin"], city={C2: (VILLA_CBW, True, ["bonbon", "waffle"])})
    s = do(s, "ring c2")
    assert s["players"][0]["candy"]["bonbon"] == 1 and s["city"][C2]["candy"] == ["waffle"]


def test_each_die_face_is_used_once_per_turn() -> None:
    s = build(
        dice=["pumpkin", "pumpkin", "pumpkin"],
        city={C2: (CORN_MANSION, True, ["corn"] * 3), B2: (DONUT_MANSION, True, ["donut"] * 3)},
    )
    s = do(s, "ring c2")
    assert not any(a.startswith("ring") for a in legal(s))
    err = assert_illegal(GAME, s, 0, A("ring", "b2"))
    assert "ring b2" in err.message


def test_four_pumpkins_ring_two_different_buildings_but_not_one_twice() -> None:
    s = build(
        dice=["pumpkin"] * 4,
        city={C2: (CORN_MANSION, True, ["corn"] * 3), B2: (DONUT_MANSION, True, ["donut"] * 3)},
    )
    s = do(s, "ring c2")
    assert "ring c2" not in legal(s) and "ring b2" in legal(s)
    s = do(s, "ring b2")
    assert s["players"][0]["candy"]["corn"] == 1 and s["players"][0]["candy"]["donut"] == 1


def test_a_building_rung_last_turn_cannot_be_rung_this_turn() -> None:
    s = build(n=2, dice=["pumpkin"] * 2, city={C2: (CORN_MANSION, True, ["corn"] * 3)})
    s = do(s, "ring c2")
    s = do(s, "end")
    s = do(s, "done")
    s = do(s, "end")
    s["sym"] = [{"f": "pumpkin", "src": "orange", "used": False}] * 2
    s["phase"] = "act"
    assert "ring c2" not in legal(s)
    assert GAME.view(s, None)["seats"][0]["rang_prev"] == ["C2"]
    s = do(s, "end")
    s = do(s, "done")
    s = do(s, "end")
    s["sym"] = [{"f": "pumpkin", "src": "orange", "used": False}] * 2
    s["phase"] = "act"
    assert "ring c2" in legal(s)  # two turns later it is allowed again


def test_another_player_may_ring_a_building_you_rang() -> None:
    s = build(n=2, dice=["pumpkin"] * 2, city={C2: (CORN_MANSION, True, ["corn"] * 3)}, pos=["V22", "V22"])
    s = do(s, "ring c2")
    s = do(s, "end")
    s["sym"] = [{"f": "pumpkin", "src": "orange", "used": False}] * 2
    s["phase"] = "act"
    assert "ring c2" in legal(s)


def test_pumpkins_and_three_clubs_take_the_first_two_candies() -> None:
    s = build(dice=["pumpkin"] * 2 + ["club"] * 3, city={C2: (VILLA_CBW, True, ["corn", "bonbon", "waffle"])})
    s = do(s, "grab c2")
    p = s["players"][0]["candy"]
    assert (p["corn"], p["bonbon"]) == (1, 1) and s["city"][C2]["candy"] == ["waffle"]
    assert "ring c2" not in legal(s)  # it counts as ringing this doorbell


def test_two_candies_need_a_face_up_building_with_two_candies() -> None:
    s = build(dice=["pumpkin"] * 2 + ["club"] * 3, city={C2: (VILLA_CBW, True, ["waffle"])})
    assert "grab c2" not in legal(s) and "grab b2" not in legal(s)


def test_two_magnifiers_turn_up_a_building_without_taking_and_without_ringing() -> None:
    s = build(dice=["glass", "glass", "pumpkin", "pumpkin"], city={C2: (DONUT_MANSION, False, [])})
    s = do(s, "reveal c2")
    assert s["city"][C2]["candy"] == ["donut"] * 3 and G.candy_total(s["players"][0]) == 0
    s = do(s, "ring c2")  # revealing is not ringing
    assert s["players"][0]["candy"]["donut"] == 1


def test_four_magnifiers_become_two_faces_of_your_choice() -> None:
    """「另2個「放大鏡」圖案的骰子則可自行轉至行動玩家所須要的圖案面」 (issue #13, point 9): the two dice
    turn to whatever faces the player needs — a magnifier included (it used to be refused)."""
    s = build(dice=["glass"] * 4, city={C2: (DONUT_MANSION, True, ["donut"] * 3)})
    sets = [a for a in legal(s) if a.startswith("set")]
    assert len(sets) == 21 and "set pumpkin pumpkin" in sets and "set club glass" in sets and "set glass glass" in sets
    assert GAME.parse_action("set magnifier club") == A("set", "club", "glass")
    s = do(s, "set pumpkin pumpkin")
    assert G.free_count(s, "glass") == 0
    s = do(s, "ring c2")
    assert s["players"][0]["candy"]["donut"] == 1


def test_four_candies_take_a_plain_candy_from_the_supply_never_a_wild() -> None:
    s = build(dice=["candy"] * 4)
    offers = [a for a in legal(s) if a.startswith("supply")]
    assert offers == ["supply corn", "supply bonbon", "supply waffle", "supply donut", "supply lolly"]
    s["supply"]["donut"] = 0
    assert "supply donut" not in legal(s)
    s = do(s, "supply lolly")
    assert s["players"][0]["candy"]["lolly"] == 1 and G.free_count(s, "candy") == 0


def test_two_candies_give_a_discount_on_a_score_card() -> None:
    s = build(dice=["candy", "candy"], candy={0: {"corn": 3}})
    put_row(s, 0, 1)  # corn x4
    assert "buy 1" not in legal(s)
    s = do(s, "discount")
    assert "buy 1 -1" in legal(s) and "buy 1" not in legal(s)  # 3 corn: only with the discount
    s = do(s, "buy 1 -1")
    assert s["players"][0]["candy"]["corn"] == 0 and s["discounts"] == 0 and 1 in s["players"][0]["cards"]


def test_two_discounts_buy_two_cards_one_candy_off_each() -> None:
    """「在換取分數卡時，可少支付1個糖果板塊」 (issue #13, point 2): each 🍬🍬 pair is one candy fewer when
    trading for a score card; nothing puts them all on the first card bought. The buyer chooses how
    many discounts go on each card."""
    s = build(dice=["candy"] * 4, candy={0: {"corn": 3, "donut": 3}})
    put_row(s, 0, 1)  # corn x4
    put_row(s, 1, 4)  # donut x4
    s = do(s, "discount")
    s = do(s, "discount")
    buys = [a for a in legal(s) if a.startswith(("buy 1", "buy 2"))]
    assert buys == ["buy 1 -1", "buy 1 -2", "buy 2 -1", "buy 2 -2"]  # 3 of a kind: at least one off
    new, ev = GAME.apply(s, 0, GAME.parse_action("buy 1 -1"))
    assert "1 discount" in ev[-1].text and new["discounts"] == 1
    assert [a for a in legal(new) if a.startswith("buy 2")] == ["buy 2 -1"]
    new = do(new, "buy 2 -1")
    me = new["players"][0]
    assert sorted(me["cards"]) == [1, 4] and G.candy_total(me) == 0 and new["discounts"] == 0


# ---------------------------------------------------------------------------------------------
# steals


def test_three_clubs_steal_and_the_victim_chooses_the_candy() -> None:
    s = build(pos=["V22", "V22", None], dice=["club"] * 3, candy={1: {"corn": 1, "donut": 2}})
    assert "steal 2" in legal(s)
    s = do(s, "steal 2")
    assert GAME.to_act(s) == {1} and legal(s, 1) == ["give corn", "give donut"]
    assert legal(s, 0) == []
    assert isinstance(assert_illegal(GAME, s, 0, A("end")), NotYourTurn)
    s = do(s, "give donut", seat=1)
    assert s["players"][0]["candy"]["donut"] == 1 and s["players"][1]["candy"]["donut"] == 1
    assert GAME.to_act(s) == {0} and s["phase"] == "act"


def test_a_victim_with_one_kind_of_candy_is_not_asked() -> None:
    s = build(pos=["V22", "V22", None], dice=["club"] * 3, candy={1: {"waffle": 2}})
    s = do(s, "steal 2")
    assert GAME.to_act(s) == {0} and s["players"][0]["candy"]["waffle"] == 1


def test_a_magnifier_lets_the_thief_choose_the_candy() -> None:
    s = build(pos=["V22", "V22", None], dice=["club"] * 3 + ["glass"], candy={1: {"corn": 1, "wild": 1}})
    assert "steal 2 wild" in legal(s) and "steal 2 corn" in legal(s)
    s = do(s, "steal 2 wild")
    assert s["players"][0]["candy"]["wild"] == 1 and G.free_count(s, "glass") == 0


def test_steals_only_reach_a_player_on_the_same_street() -> None:
    s = build(pos=["V22", "V32", None], dice=["club"] * 3, candy={1: {"corn": 1}})
    assert not any(a.startswith("steal") for a in legal(s))


def test_each_club_of_the_victim_costs_the_thief_one_more_club() -> None:
    s = build(
        pos=["V22", "V22", None], chars=[None, "pirate", None], dice=["club"] * 3, candy={1: {"corn": 1}}
    )
    assert not any(a.startswith("steal") for a in legal(s))
    s = build(
        pos=["V22", "V22", None], chars=[None, "pirate", None], dice=["club"] * 4, candy={1: {"corn": 1}}
    )
    assert "steal 2" in legal(s)
    s = build(pos=["V22", "V22", None], cards={1: [2, 10]}, dice=["club"] * 4, candy={1: {"corn": 1}})
    assert G.club_symbols(s, 1) == 2 and not any(a.startswith("steal") for a in legal(s))


def test_the_lion_cannot_be_robbed() -> None:
    s = build(
        pos=["V22", "V22", None],
        chars=[None, "lion", None],
        dice=["club"] * 4 + ["glass"],
        candy={1: {"corn": 2}},
    )
    assert not any(a.startswith("steal") for a in legal(s))


def test_nobody_steals_from_an_empty_hand() -> None:
    s = build(pos=["V22", "V22", None], dice=["club"] * 3)
    assert not any(a.startswith("steal") for a in legal(s))


# ---------------------------------------------------------------------------------------------
# special buildings


def test_ringing_face_down_bikers_costs_a_candy_of_your_choice() -> None:
    s = build(dice=["pumpkin"] * 2, city={C2: (BIKERS, False, [])}, candy={0: {"corn": 1, "donut": 1}})
    s = do(s, "ring c2")
    assert s["city"][C2]["up"] and legal(s) == ["pay corn", "pay donut"]
    s = do(s, "pay donut")
    assert s["players"][0]["candy"] == {**dict.fromkeys(s["players"][0]["candy"], 0), "corn": 1}
    assert s["supply"]["donut"] == 13 and s["phase"] == "act" and s["pending"] is None


def test_bikers_take_nothing_from_an_empty_hand() -> None:
    s = build(dice=["pumpkin"] * 2, city={C2: (BIKERS, False, [])})
    s = do(s, "ring c2")
    assert s["pending"] is None and "end" in legal(s)


def test_revealing_bikers_with_magnifiers_costs_nothing() -> None:
    s = build(dice=["glass"] * 2, city={C2: (BIKERS, False, [])}, candy={0: {"corn": 2}})
    s = do(s, "reveal c2")
    assert s["players"][0]["candy"]["corn"] == 2


def test_entering_a_street_beside_face_up_bikers_costs_a_candy_per_bikers() -> None:
    s = build(dice=["feet"], city={B3: (BIKERS, True, [])}, candy={0: {"corn": 3}})
    s = do(s, "move h22")  # beside B2 and B3
    assert s["players"][0]["candy"]["corn"] == 2
    s = build(
        pos=["V32", None, None],
        dice=["feet"],
        city={B2: (BIKERS, True, []), B3: (BIKERS2, True, [])},
        candy={0: {"corn": 3}},
    )
    s = do(s, "move h22")
    assert s["players"][0]["candy"]["corn"] == 1


def test_the_lion_ignores_the_bikers() -> None:
    s = build(
        chars=["lion", None, None],
        dice=["feet", "pumpkin", "pumpkin"],
        city={B3: (BIKERS, True, []), C2: (BIKERS2, False, [])},
        candy={0: {"corn": 3}},
    )
    s = do(s, "ring c2")
    s = do(s, "move h22")
    assert s["players"][0]["candy"]["corn"] == 3


def test_a_face_down_power_plant_gives_nothing_and_a_face_up_one_cannot_be_rung() -> None:
    s = build(dice=["pumpkin"] * 4, city={C2: (PLANT, False, [])})
    s = do(s, "ring c2")
    assert s["city"][C2]["up"] and G.candy_total(s["players"][0]) == 0
    s = build(dice=["pumpkin"] * 2, city={C2: (PLANT, True, [])})
    assert "ring c2" not in legal(s)


def test_four_magnifiers_can_make_the_magnifier_a_steal_needs() -> None:
    """「自行轉至行動玩家所須要的圖案面」: 🏏🏏🏏 + a magnifier from 🔍🔍🔍🔍 lets the thief choose the candy."""
    s = build(pos=["V22", "V22", None], dice=["club"] * 3 + ["glass"] * 4, candy={1: {"corn": 1, "donut": 1}})
    assert "steal 2 donut" in legal(s)  # one of the four magnifiers would do, but try the conversion
    s = do(s, "set glass pumpkin")
    assert G.free_count(s, "glass") == 1 and G.free_count(s, "pumpkin") == 1
    s = do(s, "steal 2 donut")
    assert s["players"][0]["candy"]["donut"] == 1


def test_a_castle_gives_wild_candy() -> None:
    s = build(dice=["pumpkin"] * 2, city={C2: (CASTLE, False, [])}, opts={"ring_face_down": "take"})
    s = do(s, "ring c2")
    assert s["players"][0]["candy"]["wild"] == 1 and s["city"][C2]["candy"] == ["wild", "wild"]


def test_an_emptied_face_up_building_cannot_be_rung() -> None:
    s = build(dice=["pumpkin"] * 2, city={C2: (CORN_MANSION, True, [])})
    assert "ring c2" not in legal(s)


def test_a_row_of_open_empty_buildings_is_restocked() -> None:
    # row 2 = A2 B2 C2 D2 (4..7); C2 holds the last candy
    city = {
        4: (BONBON_MANSION, True, []),
        B2: (PLANT, True, []),
        C2: (CORN_MANSION, True, ["corn"]),
        7: (VILLA_CBW, True, []),
    }
    s = build(dice=["pumpkin"] * 2, city=city)
    s = do(s, "ring c2")
    assert s["players"][0]["candy"]["corn"] == 1
    assert [s["city"][i]["candy"] for i in (4, 5, 6, 7)] == [
        ["bonbon"] * 3,
        [],
        ["corn"] * 3,
        ["corn", "bonbon", "waffle"],
    ]


def test_restocking_stops_when_the_supply_runs_out() -> None:
    city = {
        4: (BONBON_MANSION, True, []),
        B2: (PLANT, True, []),
        C2: (CORN_MANSION, True, ["corn"]),
        7: (VILLA_CBW, True, []),
    }
    s = build(dice=["pumpkin"] * 2, city=city)
    s["supply"]["corn"] = 2
    s = do(s, "ring c2")
    assert s["city"][C2]["candy"] == ["corn", "corn"] and s["city"][7]["candy"] == ["bonbon", "waffle"]


def test_a_column_is_restocked_too_but_not_a_line_with_face_down_buildings() -> None:
    # column C = C1 C2 C3 C4 (2, 6, 10, 14)
    city = {
        2: (BONBON_MANSION, True, []),
        C2: (CORN_MANSION, True, ["corn"]),
        10: (PLANT, True, []),
        14: (BIKERS, True, []),
    }
    s = build(dice=["pumpkin"] * 2, city=city)
    s = do(s, "ring c2")
    assert s["city"][2]["candy"] == ["bonbon"] * 3 and s["city"][C2]["candy"] == ["corn"] * 3
    assert not s["city"][5]["up"]  # row 2 has face-down buildings: nothing there


# ---------------------------------------------------------------------------------------------
# characters


@pytest.mark.parametrize(
    ("char", "face"),
    [("witch", "feet2"), ("hero", "glass"), ("princess", "candy"), ("pumpkin", "pumpkin")],
)
def test_characters_give_a_permanent_symbol(char: str, face: str) -> None:
    s = build(chars=[char, None, None], dice=[])
    assert [d["f"] for d in s["sym"]] == [face]


def test_the_pirate_has_a_club_and_a_footprint() -> None:
    s = build(chars=["pirate", None, None], dice=[])
    assert [d["f"] for d in s["sym"]] == ["club", "feet"]


def test_the_pumpkin_rings_with_one_rolled_pumpkin() -> None:
    s = build(chars=["pumpkin", None, None], dice=["pumpkin"], city={C2: (CORN_MANSION, True, ["corn"] * 3)})
    s = do(s, "ring c2")
    assert s["players"][0]["candy"]["corn"] == 1


def test_score_modifiers_of_the_pumpkin_and_the_cowboy() -> None:
    s = build(chars=["pumpkin", "cowboy", None], dice=[])
    assert [G.score_of(s, i) for i in range(3)] == [-2, 2, 0]
    s = build(chars=["pumpkin", "cowboy", None], dice=[], opts={"cowboy": "-2"})
    assert [G.score_of(s, i) for i in range(3)] == [-2, -2, 0]


def test_the_cowboy_chooses_which_candy_to_take() -> None:
    s = build(
        chars=["cowboy", None, None],
        dice=["pumpkin"] * 2 + ["club"] * 3,
        city={C2: (VILLA_CBW, True, ["corn", "bonbon", "waffle"])},
    )
    s = do(s, "grab c2")
    assert legal(s) == ["take corn", "take bonbon", "take waffle"]
    s = do(s, "take waffle")
    assert legal(s) == ["take corn", "take bonbon"]
    s = do(s, "take corn")
    assert s["city"][C2]["candy"] == ["bonbon"] and s["pending"] is None
    assert s["players"][0]["candy"]["waffle"] == 1 and s["players"][0]["candy"]["corn"] == 1


def test_the_cowboy_chooses_after_ringing_a_face_down_villa() -> None:
    s = build(
        chars=["cowboy", None, None],
        dice=["pumpkin"] * 2,
        city={C2: (VILLA_CBW, False, [])},
        opts={"ring_face_down": "take"},
    )
    s = do(s, "ring c2")
    assert legal(s) == ["take corn", "take bonbon", "take waffle"]


def test_the_cowboy_is_not_asked_at_a_mansion() -> None:
    s = build(
        chars=["cowboy", None, None], dice=["pumpkin"] * 2, city={C2: (CORN_MANSION, True, ["corn"] * 3)}
    )
    s = do(s, "ring c2")
    assert s["pending"] is None and s["players"][0]["candy"]["corn"] == 1


# ---------------------------------------------------------------------------------------------
# trading


def test_buying_pays_matching_candy_uses_wilds_for_the_rest_and_refills_the_row() -> None:
    s = build(dice=[], candy={0: {"corn": 2, "wild": 3}})
    put_row(s, 2, 1)  # corn x4
    top = s["deck"][0]
    s = do(s, "buy 3")
    p = s["players"][0]
    assert p["cards"] == [1] and p["candy"]["corn"] == 0 and p["candy"]["wild"] == 1
    assert s["row"][2] == top and len(s["row"]) == 6 and len(s["deck"]) == 17
    assert s["supply"]["corn"] == 13 and s["supply"]["wild"] == 12


def test_after_buying_only_more_buying_or_ending_is_possible() -> None:
    s = build(dice=["pumpkin"] * 2, candy={0: {"corn": 9}}, city={C2: (CORN_MANSION, True, ["corn"] * 3)})
    put_row(s, 0, 1)
    put_row(s, 1, 6)
    s = do(s, "buy 1")
    assert s["phase"] == "trade" and set(legal(s)) <= {
        "buy 1",
        "buy 2",
        "buy 3",
        "buy 4",
        "buy 5",
        "buy 6",
        "end",
    }
    assert "buy 2" in legal(s)
    s = do(s, "buy 2")
    assert len(s["players"][0]["cards"]) == 2


def test_the_row_shrinks_when_the_deck_is_empty() -> None:
    s = build(dice=[], candy={0: {"corn": 4}})
    put_row(s, 0, 1)
    s["deck"] = []
    s = do(s, "buy 1")
    assert len(s["row"]) == 5


@pytest.mark.parametrize(
    ("cid", "candy", "ok"),
    [
        (6, {"corn": 2, "lolly": 2, "wild": 1}, True),  # any 5
        (6, {"corn": 4}, False),
        (15, {"donut": 4, "wild": 2}, True),  # 6 of one kind, wilds substitute
        (15, {"donut": 3, "corn": 3}, False),
        (8, {"corn": 1, "bonbon": 1, "waffle": 1, "donut": 1, "wild": 1}, True),  # one of each
        (14, {"bonbon": 3, "lolly": 1}, False),
    ],
)
def test_card_costs(cid: int, candy: dict[str, int], ok: bool) -> None:
    assert (G.plan_payment(dict.fromkeys(G.KINDS, 0) | candy, CARDS[cid], 0) is not None) is ok


def test_the_buyer_names_the_candy_a_discount_saves() -> None:
    # 「在換取分數卡時，可少支付1個糖果板塊(種類由行動玩家決定)」: the active player picks the kind
    s = build(dice=["candy", "candy"], candy={0: {"corn": 2, "bonbon": 2}})
    put_row(s, 0, 9)  # corn x2 + bonbon x2
    s = do(s, "discount")
    before = dict(s["players"][0]["candy"])
    s = do(s, "buy 1 -1")
    assert s["pending"]["kind"] == "save" and legal(s) == ["save corn", "save bonbon"]
    assert s["players"][0]["candy"] == before  # nothing paid until the choice is made
    assert "picks the candy a discount saves on the 3-point card (" in GAME.view(s, None)["status"]
    assert_illegal(GAME, s, 0, A("save", "lolly"))  # not a candy of this payment
    assert_illegal(GAME, s, 1, A("save", "corn"))  # not the buyer
    s = do(s, "save bonbon")
    me = s["players"][0]
    assert s["pending"] is None and me["candy"]["corn"] == 0 and me["candy"]["bonbon"] == 1 and 9 in me["cards"]


def test_a_discount_asks_nothing_when_only_one_kind_is_paid() -> None:
    s = build(dice=["candy", "candy"], candy={0: {"corn": 4}})
    put_row(s, 0, 1)  # corn x4
    s = do(s, "discount")
    s = do(s, "buy 1 -1")
    assert s["pending"] is None and s["players"][0]["candy"]["corn"] == 1


def test_a_discount_spares_wild_candy_first() -> None:
    have = dict.fromkeys(G.KINDS, 0) | {"corn": 3, "wild": 1}
    plan = G.plan_payment(have, CARDS[1], 1)
    assert plan == ({**dict.fromkeys(G.KINDS, 0), "corn": 3}, 1)


def test_score_card_symbols_work_from_the_next_turn_on() -> None:
    s = build(n=2, dice=[], candy={0: {"corn": 4}})
    put_row(s, 0, 1)  # corn x4 -> pumpkin symbol
    s = do(s, "buy 1")
    assert not any(d["f"] == "pumpkin" and d["src"] == "perm" for d in s["sym"])
    s = do(s, "end")
    s = do(s, "done")
    s = do(s, "end")
    s = do(s, "done")
    assert any(d["f"] == "pumpkin" and d["src"] == "perm" for d in s["sym"])


# ---------------------------------------------------------------------------------------------
# end of game


def _finish_round(s: dict[str, Any]) -> dict[str, Any]:
    while GAME.outcome(s) is None and s["turn"] != 0:
        if s["phase"] == "roll":
            s = do(s, "done")
        s = do(s, "end")
    return s


def test_reaching_12_points_ends_the_game_after_the_round() -> None:
    s = build(dice=[], cards={0: [15, 7, 1]})  # 6 + 5 + 3 = 14
    s = do(s, "end")
    assert GAME.outcome(s) is None and s["turn"] == 1
    s = do(s, "done")
    s = do(s, "end")
    assert GAME.outcome(s) is None
    s = do(s, "done")
    s = do(s, "end")
    out = GAME.outcome(s)
    assert out is not None and out.winners == {0} and out.scores == (14, 0, 0)
    assert GAME.to_act(s) == frozenset()


def test_a_later_player_can_still_overtake_in_the_last_round() -> None:
    s = build(dice=[], cards={0: [15, 7, 1], 2: [6, 8, 14, 16]})  # 14 vs 16
    s = _finish_round(do(s, "end"))
    out = GAME.outcome(s)
    assert out is not None and out.winners == {2} and out.ranking == ((2,), (0,), (1,))


def test_ties_are_broken_by_most_candy_then_shared() -> None:
    s = build(dice=[], cards={0: [15, 7, 1], 1: [6, 8, 2, 3]}, candy={1: {"corn": 2}})
    s = _finish_round(do(s, "end"))
    out = GAME.outcome(s)
    assert out is not None and out.winners == {1} and "most candy" in out.summary
    s = build(dice=[], cards={0: [15, 7, 1], 1: [6, 8, 2, 3]})
    s = _finish_round(do(s, "end"))
    out = GAME.outcome(s)
    assert out is not None and out.winners == {0, 1} and out.ranking[0] == (0, 1)


def test_the_pumpkin_modifier_counts_toward_the_trigger() -> None:
    s = build(chars=["pumpkin", None, None], dice=[], cards={0: [15, 7, 1]})  # 14 - 2 = 12
    s = _finish_round(do(s, "end"))
    assert GAME.outcome(s) is not None
    s = build(chars=["pumpkin", None, None], dice=[], cards={0: [15, 7]})  # 11 - 2 = 9
    s = _finish_round(do(s, "end"))
    assert GAME.outcome(s) is None


def test_the_game_also_ends_when_every_score_card_is_gone() -> None:
    s = build(dice=[], candy={0: {"corn": 4}})
    s["row"] = [1]
    s["deck"] = []
    s = do(s, "buy 1")
    s = _finish_round(do(s, "end"))
    assert GAME.outcome(s) is not None


def test_the_last_round_is_announced_when_12_points_are_reached() -> None:
    """「遊戲持續進行至當有玩家獲得12分以上時，該回合完成後遊戲即告結束」 (issue #13, point 14): the board says
    so as soon as it is the last round."""
    s = build(dice=[], candy={0: {"corn": 4}}, cards={0: [15, 7]})  # 6 + 5 = 11
    put_row(s, 0, 1)  # corn x4, 3 points
    assert GAME.view(s, None)["last_round"] is None
    new, ev = GAME.apply(s, 0, A("buy", "1"))
    assert any(e.kind == "last" and "P1 has 14 points: this is the last round" in e.text for e in ev)
    view = GAME.view(new, None)
    assert view["last_round"] == "P1 has 14 points"
    assert GAME.status(view | {"names": ["Ann", "Bo", "Cy"]}).startswith("🏁 Last round (Ann has 14 points)")
    assert "LAST ROUND" in view["status"]


def test_the_house_rules_announce_their_last_round_too() -> None:
    s = build(dice=[], candy={0: {"corn": 4}})
    s["row"] = [1]
    s["deck"] = []
    _, ev = GAME.apply(s, 0, A("buy", "1"))
    assert any(e.kind == "last" and "The last score card is bought" in e.text for e in ev)
    s = build(n=2, dice=[])
    s["round"] = G.MAX_ROUNDS - 1
    s = do(s, "end")
    s = do(s, "done")
    new, ev = GAME.apply(s, 1, A("end"))
    assert new["round"] == G.MAX_ROUNDS and any(e.kind == "last" and "Round 30" in e.text for e in ev)
    assert GAME.view(new, None)["last_round"].startswith("Round 30")
    new = do(do(new, "done"), "end")
    new = do(do(new, "done"), "end")
    assert GAME.outcome(new) is not None


# ---------------------------------------------------------------------------------------------
# notation and errors


def test_notation_is_tolerant_and_errors_name_the_input() -> None:
    assert GAME.parse_action("  RING  B3 ") == A("ring", "b3")
    assert GAME.parse_action("steal p2 don") == A("steal", "2", "donut")
    assert GAME.parse_action("set club pumpkin") == A("set", "pumpkin", "club")
    assert GAME.parse_action("supply ?") == A("supply", "wild")
    assert GAME.parse_action("buy 4 -1") == A("buy", "4", "1") == GAME.parse_action("BUY 4 1")
    assert GAME.parse_action("buy 4 -0") == A("buy", "4") and GAME.format_action(A("buy", "4", "2")) == "buy 4 -2"
    for bad in ("buy", "buy x", "buy 4 -x", "buy 4 -1 2"):
        with pytest.raises(InvalidInput):
            GAME.parse_action(bad)
    for bad, word in [
        ("fly v22", "fly"),
        ("move z9", "z9"),
        ("ring x1", "x1"),
        ("give toffee", "toffee"),
        ("buy", "buy"),
        ("choose zombie", "zombie"),
        ("end now", "end"),
    ]:
        with pytest.raises(InvalidInput) as err:
            GAME.parse_action(bad)
        assert word in err.value.message


def test_illegal_moves_raise_with_a_reason_and_change_nothing() -> None:
    s = build(dice=["feet"])
    err = assert_illegal(GAME, s, 0, A("move", "v43"))
    assert isinstance(err, IllegalAction) and "move v43" in err.message
    assert isinstance(assert_illegal(GAME, s, 1, A("end")), NotYourTurn)


def test_labels_name_the_dice_they_use_and_fit_a_menu() -> None:
    assert GAME.describe_action(A("ring", "b3")) == "Ring doorbell at B3 — 🎃🎃"
    s = build(
        pos=["V22", "V22", None],
        dice=["club"] * 4 + ["glass"] * 4 + ["candy"] * 4 + ["pumpkin"] * 2,
        candy={1: {"corn": 1, "donut": 1}},
    )
    for a in GAME.legal_actions(s, 0):
        assert len(GAME.describe_action(a)) <= 80


def test_building_data_matches_the_seed_counts() -> None:
    types = [b["type"] for b in BUILDINGS]
    assert len(BUILDINGS) == 21
    assert {t: types.count(t) for t in set(types)} == {
        "mansion": 10,
        "villa": 5,
        "castle": 2,
        "bikers": 2,
        "plant": 2,
    }
    assert len(CARDS) == 24 and sum(1 for c in CARDS.values() if c["symbol"] == "black") == 2
    points = sorted(c["points"] for c in CARDS.values())
    assert points.count(3) == 15 and points.count(4) == 7 and points.count(5) == 1 and points.count(6) == 1


def test_two_discounts_may_go_on_one_card_if_the_buyer_wants_and_unused_ones_are_lost() -> None:
    # the buyer chooses: both discounts on one card is still allowed (`buy 1 -2`), never forced
    s = build(n=2, dice=["candy"] * 4, candy={0: {"corn": 3}})
    put_row(s, 0, 1)  # corn x4
    s = do(s, "discount")
    s = do(s, "discount")
    assert s["discounts"] == 2
    assert {"buy 1 -1", "buy 1 -2"} <= set(legal(s))
    s = do(s, "buy 1 -2")
    assert s["players"][0]["candy"]["corn"] == 1 and s["discounts"] == 0
    s = build(n=2, dice=["candy"] * 2)
    s = do(s, "discount")
    s = do(s, "end")
    assert s["discounts"] == 0


def test_every_label_is_short_enough_for_a_menu() -> None:
    samples = [
        GAME.parse_action(t)
        for t in (
            "choose lion",
            "choose cowboy",
            "choose pirate",
            "start w3",
            "mark 8",
            "reroll",
            "done",
            "move h34",
            "ring d4",
            "grab a1",
            "steal 8",
            "steal 8 lolly",
            "reveal c3",
            "set feet2 candy",
            "discount",
            "supply waffle",
            "take wild",
            "give bonbon",
            "pay donut",
            "buy 6",
            "buy 6 -2",
            "spend corn",
            "save corn",
            "end",
        )
    ]
    for a in samples:
        label = GAME.describe_action(a)
        assert 0 < len(label) <= 80, label
    assert {a.verb for a in samples} == set(G.VERBS)


def test_the_buyer_chooses_the_candy_for_an_any_five_card() -> None:
    s = build(dice=[], candy={0: {"corn": 3, "donut": 2, "wild": 1}})
    put_row(s, 0, 6)  # any 5
    s = do(s, "buy 1")
    assert 6 in s["players"][0]["cards"] and s["pending"]["kind"] == "spend"
    assert legal(s) == ["spend corn", "spend donut", "spend wild"]
    s = do(s, "spend wild")
    s = do(s, "spend corn")
    s = do(s, "spend corn")
    s = do(s, "spend corn")  # the last tile can only be a donut: paid without asking
    assert (
        s["pending"] is None
        and s["players"][0]["candy"]["donut"] == 1
        and s["players"][0]["candy"]["wild"] == 0
    )
    assert s["phase"] == "trade"


def test_six_of_one_kind_keeps_the_payment_to_one_kind_plus_wilds() -> None:
    s = build(dice=[], candy={0: {"corn": 5, "donut": 4, "wild": 2}})
    put_row(s, 0, 15)  # 6 of one kind
    s = do(s, "buy 1")
    assert legal(s) == ["spend corn", "spend donut", "spend wild"]
    s = do(s, "spend donut")
    assert legal(s) == ["spend donut", "spend wild"]
    s = do(s, "spend donut")
    s = do(s, "spend donut")
    s = do(s, "spend donut")  # two more needed: only the wilds are left, paid at once
    assert s["pending"] is None and s["players"][0]["candy"] == {**dict.fromkeys(G.KINDS, 0), "corn": 5}


def test_a_forced_payment_is_made_without_asking() -> None:
    s = build(dice=["candy", "candy"], candy={0: {"corn": 2, "lolly": 2}})
    put_row(s, 0, 6)  # any 5, with one discount: exactly the 4 tiles held
    s = do(s, "discount")
    s = do(s, "buy 1 -1")
    assert s["pending"] is None and G.candy_total(s["players"][0]) == 0


def test_no_rerolls_once_acting_has_started() -> None:
    s = build(dice=["club", "feet"], act=False)
    s = do(s, "done")
    assert not any(a.startswith(("mark", "reroll", "done")) for a in legal(s))
    s = do(s, "move v32")
    assert not any(a.startswith(("mark", "reroll", "done")) for a in legal(s))


def test_move_labels_name_the_buildings_beside_the_street() -> None:
    assert GAME.describe_action(A("move", "v22")) == "Move to street V22 (by B2, C2) — 👣"


# ---------------------------------------------------------------------------------------------
# the status line the platform shows under the board and on the panels


def test_status_names_the_players_and_shows_the_dice() -> None:
    s = build(3, chars=["witch", "hero", "cowboy"], pos=["V22", "V22", "N1"], dice=["club"] * 6, act=False)
    view = GAME.view(s, None)
    view["names"] = ["Ann", "Bo", "Cy"]
    text = GAME.status(view)
    assert text.startswith("Round 1 · Ann is rolling (2 rerolls left).")
    assert "🎲 `1` 🏏" in text and "Scores: Ann 0 · Bo 0 · Cy 2" in text
    s = do(s, "done")
    view = GAME.view(s, None)
    view["names"] = ["Ann", "Bo", "Cy"]
    assert "Ann is acting" in GAME.status(view) and "🎲 left: 🏏 🏏 🏏 🏏 🏏 🏏 👣👣" in GAME.status(view)


def test_status_of_a_steal_and_of_the_end() -> None:
    s = build(
        3,
        chars=["witch", "hero", "cowboy"],
        pos=["V22", "V22", "N1"],
        dice=["club"] * 6,
        candy={1: {"corn": 1, "donut": 1}},
    )
    s = do(s, "steal 2")
    view = GAME.view(s, None)
    view["names"] = ["Ann", "Bo", "Cy"]
    assert GAME.status(view).startswith("Round 1 · Bo chooses a candy to give to Ann.")
    assert "🎲 left: 🏏 🏏 🏏" in GAME.status(view)
    without_names = GAME.view(s, None)
    assert "P2 chooses a candy to give to P1" in GAME.status(without_names)


def test_event_lines_show_player_names_instead_of_seat_tokens() -> None:
    from bot.rules import get_game

    game = get_game("trick_or_treat")
    assert game.event_text("P2 steals a donut from P1", ["ann", "bob"]) == "bob steals a donut from ann"
    assert game.event_text("P3 moves", ["ann"]) == "P3 moves"  # no name known: the token stays


# ---------------------------------------------------------------------------------------------
# issue #11: confirmation, the turn that ends by itself, walks of several streets


def test_ending_with_unused_dice_asks_first_when_something_could_still_use_them() -> None:
    s = build(dice=["glass", "glass", "pumpkin", "feet", "club", "candy"])
    assert "end" in legal(s) and len(legal(s)) > 1
    assert GAME.confirm(s, 0, A("end")) == "End your turn with 🔍 🔍 🎃 👣 🏏 🍬 unused?"
    for other in GAME.legal_actions(s, 0):
        if other.verb != "end":
            assert GAME.confirm(s, 0, other) is None, other  # only ending the turn asks
    s = do(s, "move v12")
    assert GAME.confirm(s, 0, A("end")) == "End your turn with 🔍 🔍 🎃 🏏 🍬 unused?"


def test_dice_usable_only_after_a_walk_ask_too_but_footprints_alone_do_not() -> None:
    # no face-down building beside the pawn's street V11 (A1, B1 face up, empty), C1 face down further on
    s = build(dice=["glass", "glass", "feet"], pos=["V11", None, None], city={0: (0, True, []), 1: (2, True, [])})
    assert not any(a.startswith("reveal") for a in legal(s))
    assert GAME.confirm(s, 0, A("end")) == "End your turn with 🔍 🔍 👣 unused?"
    s = build(dice=["feet", "feet", "club"])  # walking on is a choice, not a waste
    assert "end" in legal(s) and GAME.confirm(s, 0, A("end")) is None


def test_an_unused_discount_asks_while_an_affordable_card_could_use_it() -> None:
    s = build(n=2, dice=["candy", "candy"], candy={0: {"corn": 3}})
    put_row(s, 0, 1)  # corn x4: affordable with the discount only
    s = do(s, "discount")
    assert GAME.confirm(s, 0, A("end")) == "End your turn with 1 discount (🍬🍬) unused?"
    s = build(n=2, dice=["candy", "candy", "feet"])  # nothing to buy: the discount is lost either way
    s = do(s, "discount")
    assert GAME.confirm(s, 0, A("end")) is None


def test_ending_does_not_ask_when_everything_is_spent_or_in_the_roll_phase() -> None:
    s = build(dice=["feet"])
    s = do(s, "move v12")  # the only die is spent
    assert legal(s) == ["end"] and GAME.confirm(s, 0, A("end")) is None
    assert GAME.confirm(build(dice=["feet"], act=False), 0, A("done")) is None


def test_the_turn_ends_by_itself_when_end_is_the_only_move_left() -> None:
    s = build(dice=["feet", "club"], auto_end=True)
    assert s["phase"] == "act" and s["turn"] == 0
    s2, events = GAME.apply(s, 0, A("move", "v12"))
    assert s2["turn"] == 1 and s2["phase"] == "roll"  # the club alone can do nothing
    assert any(e.text.startswith("P1's turn ends (nothing left to do)") for e in events)
    # a turn with something left to do waits for the player
    s3, _ = GAME.apply(build(dice=["feet", "feet", "club"], auto_end=True), 0, A("move", "v12"))
    assert s3["turn"] == 0 and "end" in legal(s3)


def test_the_turn_ends_by_itself_when_the_kept_dice_can_do_nothing() -> None:
    s = build(dice=["club"] * 6, act=False, auto_end=True)
    s["players"][0]["pos"] = "N1"
    s["players"][1]["pos"] = "V11"
    s["players"][2]["pos"] = "V11"  # stepping into V11 would cost 3 footprints
    s = do(s, "done")
    assert s["turn"] == 1 and s["phase"] == "roll"


def test_old_tables_keep_their_explicit_end() -> None:
    s = build(dice=["feet", "club"], auto_end=True)
    del s["auto_end"]  # a table created before the rule
    s2, _ = GAME.apply(s, 0, A("move", "v12"))
    assert s2["turn"] == 0 and legal(s2) == ["end"]


def test_walks_of_several_streets_are_the_cheapest_paths_and_replay_as_moves() -> None:
    s = build(dice=["feet2", "feet"], pos=["V22", "H22", None])  # 3 footprints; H22 is crowded
    found = {w.path[-1]: w for w in G.walks(s, 0)}
    assert found and all(len(w.path) >= 2 and w.cost <= 3 for w in found.values())
    assert not set(found) & set(NEIGHBOURS["V22"]), "one-step moves stay plain moves"
    for w in found.values():
        t = s
        for step in w.moves:
            assert step in legal(t), (w, step)
            t = do(t, step)
        assert t["players"][0]["pos"] == w.path[-1]
        assert G.feet_points(s) - G.feet_points(t) == w.cost
        assert w.crowded == tuple(x for x in w.path if x == "H22")
    assert all("H22" not in w.path[:-1] or w.cost == 3 for w in found.values())


def test_a_walk_stops_where_the_bikers_would_ask_for_a_candy() -> None:
    # face-up bikers at C2: every street beside it asks for a candy
    s = build(
        dice=["feet2", "feet2"],
        pos=["V21", None, None],
        city={6: (BIKERS, True, [])},
        candy={0: {"corn": 1, "donut": 1}},
    )
    beside_c2 = [st for st in STREETS if C2 in BESIDE[st]]
    for w in G.walks(s, 0):
        assert not set(w.path[:-1]) & set(beside_c2), w  # two kinds held: the question ends the walk
        if w.path[-1] in beside_c2:
            assert w.bikers == (w.path[-1],)
    s["players"][0]["candy"]["donut"] = 0  # one kind: the hand-back is automatic, the walk goes on
    assert any(set(w.path[:-1]) & set(beside_c2) for w in G.walks(s, 0))
