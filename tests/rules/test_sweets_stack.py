"""Scenario tests for Sweets Stack: one per rule sentence of the seed and per reading in the rules doc."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import IllegalAction, InvalidInput, NotYourTurn, Rng
from bot.rules.sweets_stack import GAME, Action
from bot.rules.sweets_stack import data as D
from bot.rules.sweets_stack.game import round_scores, start_round
from tests.rules.playout import assert_illegal

EMPTY = ["......."] * 8


def fresh(n: int = 2, seed: int = 5, **opts: str) -> dict[str, Any]:
    return GAME.new(n, seed, opts or None)


def receiving(s: dict[str, Any], seat: int, cid: str, giver: int, grid: list[str] | None = None) -> None:
    """Put `seat` in the place phase with `cid` arriving from `giver`."""
    s["phase"] = "place"
    for p in s["players"]:
        p["done"] = True
        p["pick"] = None
    p = s["players"][seat]
    p.update(incoming=cid, giver=giver, done=False, swapped=False)
    if grid is not None:
        p["grid"] = list(grid)


def notations(s: dict[str, Any], seat: int) -> set[str]:
    return {GAME.format_action(a) for a in GAME.legal_actions(s, seat)}


def pick_all(s: dict[str, Any], cards: dict[int, str]) -> tuple[dict[str, Any], list[Any]]:
    events: list[Any] = []
    for seat, cid in cards.items():
        if cid not in s["players"][seat]["hand"]:
            s = json.loads(json.dumps(s))
            s["players"][seat]["hand"][0] = cid
        s, ev = GAME.apply(s, seat, Action("pick", cid))
        events += ev
    return s, events


def owned(p: dict[str, Any]) -> int:
    return len(p["deck"]) + len(p["hand"]) + len(p["pile"]) + len(p["down"]) + (p["pick"] is not None) + (
        p["incoming"] is not None
    )


# -- components and setup --------------------------------------------------------------------------


def test_data_has_64_candy_cards_4_crowns_and_8_advanced_cards() -> None:
    assert len(D.BASE_DECK) == 64 and len(set(D.BASE_DECK)) == 64
    assert len(D.CROWNS) == 4
    assert len(D.ADVANCED) == 8
    colours = Counter(D.CARDS[c].colour for c in D.BASE_DECK)
    assert colours == {"B": 16, "Y": 16, "G": 16, "R": 16}
    syms = Counter(s for c in D.BASE_DECK for s in D.CARDS[c].symbols)
    assert syms == {"pumpkin": 16, "arrow": 12, "norot": 12, "ghost": 16}
    assert (D.W, D.H) == (7, 8)
    assert D.ROW_COLOURS[3] == "R"  # the seed's example: row 4 ticks a red favourite
    for card in D.CARDS.values():
        assert D.normalise(card.cells) == card.cells and len(set(card.cells)) == len(card.cells)
    for adv in D.ADVANCED.values():
        for col, row in adv.prefill + adv.forbidden_first:
            assert 1 <= col <= D.W and 1 <= row <= D.H


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_16_cards_each_hand_of_5_and_2_pumpkins_without_crowns(n: int) -> None:
    s = fresh(n)
    all_cards = []
    for p in s["players"]:
        assert len(p["hand"]) == 5 and len(p["deck"]) == 11
        assert p["pumpkins"] == 2 and p["candles"] == 0 and p["active"]
        all_cards += p["hand"] + p["deck"]
    assert len(set(all_cards)) == 16 * n
    assert not set(all_cards) & set(D.CROWNS)
    assert s["round"] == 1 and s["phase"] == "pick"


def test_bad_player_counts_and_options_are_refused() -> None:
    with pytest.raises(IllegalAction):
        GAME.new(1, 1)
    with pytest.raises(IllegalAction):
        GAME.new(5, 1)
    with pytest.raises(IllegalAction):
        GAME.new(3, 1, {"advanced": "sometimes"})


# -- step 1: secret simultaneous pick --------------------------------------------------------------


def test_every_active_player_picks_secretly_and_simultaneously() -> None:
    s = fresh(3)
    assert GAME.to_act(s) == {0, 1, 2}
    card = s["players"][1]["hand"][2]
    s, events = GAME.apply(s, 1, Action("pick", card))
    assert GAME.to_act(s) == {0, 2}
    public = GAME.view(s, None)
    assert [x["picked"] for x in public["seats"]] == [False, True, False]
    assert card not in json.dumps(public) and "you" not in public
    assert card not in events[0].text and card in events[0].private[1]
    assert card not in json.dumps(GAME.view(s, 0))
    assert GAME.view(s, 1)["you"]["pick"] == card


def test_a_seat_cannot_pick_twice_or_pick_a_card_it_does_not_hold() -> None:
    s = fresh(2)
    other = s["players"][1]["hand"][0]
    assert isinstance(assert_illegal(GAME, s, 0, Action("pick", other)), IllegalAction)
    s, _ = GAME.apply(s, 0, Action("pick", s["players"][0]["hand"][0]))
    assert isinstance(assert_illegal(GAME, s, 0, Action("pick", s["players"][0]["hand"][0])), NotYourTurn)


def test_reveal_gives_a_pumpkin_to_the_player_of_a_pumpkin_symbol_card_not_the_arrow() -> None:
    s = fresh(2)
    s, events = pick_all(s, {0: "R-S05", 1: "B-S03"})  # pumpkin+ghost / pumpkin-arrow
    assert s["players"][0]["pumpkins"] == 3
    assert s["players"][1]["pumpkins"] == 2
    assert "R-S05" in events[-1].text and "Revealed" in events[-1].text


# -- step 2: passing ---------------------------------------------------------------------------------


def test_cards_pass_left_in_round_1_and_right_in_round_3() -> None:
    s = fresh(3)
    s, _ = pick_all(s, {0: "B-S01", 1: "Y-S01", 2: "G-S01"})
    assert [p["incoming"] for p in s["players"]] == ["G-S01", "B-S01", "Y-S01"]
    s = fresh(3)
    s["round"] = 3
    s, _ = pick_all(s, {0: "B-S01", 1: "Y-S01", 2: "G-S01"})
    assert [p["incoming"] for p in s["players"]] == ["Y-S01", "G-S01", "B-S01"]


def test_passing_skips_eliminated_players() -> None:
    s = fresh(4)
    s["players"][1]["active"] = False
    s, _ = pick_all(s, {0: "B-S01", 2: "G-S01", 3: "R-S01"})
    assert s["players"][1]["incoming"] is None
    assert s["players"][2]["incoming"] == "B-S01" and s["players"][2]["giver"] == 0
    assert s["players"][0]["incoming"] == "R-S01"


def test_two_players_pass_to_each_other() -> None:
    s = fresh(2)
    s, _ = pick_all(s, {0: "B-S01", 1: "Y-S01"})
    assert s["players"][1]["incoming"] == "B-S01" and s["players"][0]["incoming"] == "Y-S01"
    assert GAME.to_act(s) == {0, 1}


# -- step 3: the fall -------------------------------------------------------------------------------


def test_a_candy_falls_to_the_bottom_of_an_empty_bucket() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S01", 1, EMPTY)  # I2h
    assert notations(s, 0) >= {f"place r1 c{c}" for c in range(1, 7)}
    assert not any(a.startswith("place") and not a.startswith("place r1") for a in notations(s, 0))


def test_a_candy_cannot_pass_through_candy_to_reach_a_covered_hole() -> None:
    s = fresh(2)
    grid = ["......."] * 6 + ["BBBBBBB", "......."]
    receiving(s, 0, "B-S02", 1, grid)  # I2v
    places = {a for a in notations(s, 0) if a.startswith("place")}
    assert places == {f"place r3 c{c}" for c in range(1, 8)}


def test_a_candy_can_slide_under_an_overhang_after_landing() -> None:
    s = fresh(2)
    grid = ["......."] * 6 + ["..BBBBB", "......."]  # row 2 covers columns 3-7
    receiving(s, 0, "B-S01", 1, grid)  # I2h
    places = {a for a in notations(s, 0) if a.startswith("place")}
    assert {"place r1 c1", "place r1 c4", "place r1 c6"} <= places
    s2, events = GAME.apply(s, 0, GAME.parse_action("place r1 c6"))
    assert s2["players"][0]["grid"][7] == ".....BB"
    assert "row 1, columns 6–7" in events[0].text


def test_an_overhang_stops_a_falling_candy_but_it_can_tuck_under_after_landing() -> None:
    s = fresh(2, advanced="off")
    s["adv"][0] = "rare_candy"
    start_round(s, 1)
    receiving(s, 0, "B-S02", 1)  # I2v; column 1 is blocked at row 3 by the pre-fill
    places = {a for a in notations(s, 0) if a.startswith("place")}
    assert "place r4 c1" in places  # dropped straight down column 1, it rests on the block
    assert "place r1 c1" in places  # dropped in column 2, then tucked left under the block
    assert "place r1 c4" not in places and "place r2 c4" in places


def test_a_candy_never_starts_inside_the_bucket_so_it_cannot_rest_under_a_top_overhang() -> None:
    """「當糖果落下時不可以穿過本來就已經被其他糖果佔住的空間」 (issue #13, point 1).

    An L (column 1, rows 6-8, foot in column 2 row 6) would sit right under the filled cell of row 7
    column 2 — but falling from above, its foot would have to pass through that cell, and sliding in
    from the right its upright would. The old search let the candy start inside the top rows.
    """
    s = fresh(2)
    grid = [".......", ".B.....", "......."] + ["BBBBBB."] * 5  # rows 8..1; row 7 column 2 filled
    receiving(s, 0, "B-S09", 1, grid)  # L4: upright column, foot to the right at the bottom
    places = {a for a in notations(s, 0) if a.startswith("place")}
    assert "place r6 c1" not in places
    assert_illegal(GAME, s, 0, Action("place", "", 0, 1, 6))
    assert "place r6 c3" in places  # dropped straight down columns 3-4, it lands on row 5


def _legal_fall_rests(filled: frozenset[tuple[int, int]], cells: D.Cells) -> set[tuple[int, int]]:
    """Reference search on (column, row) cells, independent of the bitmasks: the candy starts wholly
    above the bucket in any column and moves left/right/down through free cells only."""
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1

    def occupied(col: int, bottom: int) -> list[tuple[int, int]]:  # bottom row of the shape
        return [(col + x, bottom + h - 1 - y) for x, y in cells]

    def free(col: int, bottom: int) -> bool:
        if col < 1 or col + w - 1 > D.W or bottom < 1:
            return False
        return all(r > D.H or (c, r) not in filled for c, r in occupied(col, bottom))

    start = [(c, D.H + 1) for c in range(1, D.W - w + 2)]
    seen = set(start)
    todo = list(start)
    rests = set()
    while todo:
        col, bottom = todo.pop()
        if bottom + h - 1 <= D.H and not free(col, bottom - 1):
            rests.add((col, bottom))
        for nxt in ((col - 1, bottom), (col + 1, bottom), (col, bottom - 1)):
            if nxt not in seen and free(*nxt):
                seen.add(nxt)
                todo.append(nxt)
    return rests


@settings(max_examples=150, deadline=None)
@given(
    cells=st.sets(st.tuples(st.integers(1, D.W), st.integers(1, D.H)), max_size=40),
    shape=st.sampled_from(sorted({D.CARDS[c].cells for c in D.BASE_DECK} | {D.CARDS[c].cells for c in D.CROWNS})),
    turns=st.integers(0, 3),
)
def test_every_offered_resting_place_is_reached_by_a_legal_fall(
    cells: set[tuple[int, int]], shape: D.Cells, turns: int
) -> None:
    """「當糖果落下時不可以穿過本來就已經被其他糖果佔住的空間」: the places offered are exactly those a
    candy reaches from above the bucket without passing through a filled cell."""
    oriented = D.rotated(shape, turns)
    board = D.cells_mask(tuple(cells))
    h = max(y for _, y in oriented) + 1
    rests = D.resting_positions(board, oriented)
    offered = {(px + 1, D.H - py - h + 1) for px, py, _ in rests}
    assert offered == _legal_fall_rests(frozenset(cells), oriented)
    assert [(px, py) for px, py, _ in rests] == sorted(((px, py) for px, py, _ in rests), key=lambda t: (-t[1], t[0]))
    for px, py, mask in rests:  # each with the bucket cells it fills, clear of the filled ones
        assert mask == sum(1 << ((y + py) * D.W + x + px) for x, y in oriented) and not mask & board


def test_a_candy_must_end_resting_and_never_moves_up() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S01", 1, EMPTY)
    assert_illegal(GAME, s, 0, Action("place", "", 0, 1, 2))  # floating in mid-air
    err = assert_illegal(GAME, s, 0, Action("place", "", 0, 7, 1))  # off the right edge
    assert "resting place" in err.message


def test_placement_labels_and_notation_round_trip() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, EMPTY)
    for a in GAME.legal_actions(s, 0):
        assert GAME.parse_action(GAME.format_action(a)) == a
        assert len(GAME.describe_action(a)) <= 80
    assert GAME.parse_action("  PLACE  R1 C3 ") == Action("place", "", 0, 3, 1)
    assert GAME.parse_action("rotate 90 r1 c3") == Action("place", "", 1, 3, 1)
    assert GAME.parse_action("Rotate270 C3 R1") == Action("place", "", 3, 3, 1)
    assert GAME.format_action(Action("place", "", 2, 3, 1)) == "rotate180 r1 c3"
    assert GAME.parse_action("pick r-s05") == Action("pick", "R-S05")
    for bad in ("", "place", "rotate 45 r1 c1", "place 90 r1 c1", "pick X-S99", "jump", "place r1"):
        with pytest.raises(InvalidInput):
            GAME.parse_action(bad)


# -- rotation -----------------------------------------------------------------------------------------


def test_rotation_costs_two_pumpkins_and_is_offered_only_when_affordable() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, EMPTY)  # I4h
    s["players"][0]["pumpkins"] = 2
    assert "rotate90 r1 c1" in notations(s, 0)
    s2, _ = GAME.apply(s, 0, GAME.parse_action("rotate 90 r1 c1"))
    p = s2["players"][0]
    assert p["pumpkins"] == 0 + 1  # paid 2, then the pumpkin-arrow of I4h gives 1
    assert [line[0] for line in p["grid"][4:]] == ["B"] * 4
    s["players"][0]["pumpkins"] = 1
    assert not any(a.startswith("rotate") for a in notations(s, 0))
    err = assert_illegal(GAME, s, 0, GAME.parse_action("rotate 90 r1 c1"))
    assert "2 pumpkins" in err.message


def test_symmetric_shapes_offer_no_pointless_paid_rotation() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S08", 1, EMPTY)  # O4
    assert not any(a.startswith("rotate") for a in notations(s, 0))
    receiving(s, 0, "B-S01", 1, EMPTY)  # I2h: only the 90° turn is new
    rots = {a.split()[0] for a in notations(s, 0) if a.startswith("rotate")}
    assert rots == {"rotate90"}


def test_no_rotation_symbol_on_top_of_the_scoring_pile_forbids_paid_rotation() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, EMPTY)
    s["players"][0]["pumpkins"] = 5
    s["players"][0]["pile"] = ["Y-S06"]  # I4v with the no-rotation symbol
    assert not any(a.startswith("rotate") for a in notations(s, 0))
    err = assert_illegal(GAME, s, 0, GAME.parse_action("rotate 90 r1 c1"))
    assert "no-rotation" in err.message
    s["players"][0]["pile"] = ["Y-S06", "Y-S01"]  # no longer on top
    assert any(a.startswith("rotate") for a in notations(s, 0))


def test_no_rotation_symbol_does_not_block_the_swap() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, EMPTY)
    p = s["players"][0]
    p.update(pumpkins=3, pile=["Y-S06"], hand=["G-S01"])
    assert "swap G-S01" in notations(s, 0)


# -- elimination ---------------------------------------------------------------------------------------

NEARLY_FULL = ["BBB.BBB"] + ["BBBBBB."] * 7  # only a 1-wide gap at the top and down column 7


def test_a_candy_that_fits_nowhere_eliminates_its_receiver_and_the_passer_gains_a_candle() -> None:
    s = fresh(3)
    s["players"][1]["grid"] = NEARLY_FULL
    s["players"][1]["pumpkins"] = 0
    s, events = pick_all(s, {0: "R-S01", 1: "B-S01", 2: "G-S01"})  # seat 1 receives I2h from seat 0
    p1 = s["players"][1]
    assert not p1["active"] and p1["down"] == ["R-S01"] and p1["pile"] == []
    assert s["players"][0]["candles"] == 1
    assert any(e.kind == "eliminated" and "seat 2 is out" in e.text for e in events)
    assert GAME.to_act(s) == {0, 2}
    # the eliminated player is told privately too (the table sends it by DM)
    out = next(e for e in events if e.kind == "eliminated")
    assert list(out.private) == [1] and "you are out of round 1" in out.private[1]


def test_the_face_down_card_of_an_eliminated_player_is_not_scored() -> None:
    s = fresh(2)
    p = s["players"][0]
    p.update(pile=["R-S11"], down=["R-S12"], candles=1)
    assert round_scores(s)[0] == {"base": 1, "favourite": 0, "candle": 0, "goblin": 0, "total": 1}


def test_a_player_who_could_be_saved_by_rotation_is_told_and_may_decline() -> None:
    s = fresh(3)
    receiving(s, 0, "B-S07", 1, ["......."] * 8)
    s["players"][0]["grid"] = [".BBBBBB"] * 8  # only column 1 free: I4h fits only rotated
    s["players"][0]["pumpkins"] = 2
    you = GAME.view(s, 0)["you"]
    assert you["fit"]["fits"] is False and you["fit"]["saves"] == ["rotate (pay 2 pumpkins)"]
    assert "NOT fit" in you["fit"]["message"]
    assert notations(s, 0) == {"overflow", "rotate90 r1 c1"}
    s2, _ = GAME.apply(s, 0, Action("overflow"))
    assert not s2["players"][0]["active"] and s2["players"][1]["candles"] == 1


def test_overflow_is_illegal_when_the_candy_fits_upright() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S01", 1, EMPTY)
    err = assert_illegal(GAME, s, 0, Action("overflow"))
    assert "fits" in err.message


def test_the_view_names_the_swap_that_would_save_a_player() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, [".BBBBBB"] * 8)
    s["players"][0].update(pumpkins=3, hand=["G-S02", "G-S01"], pile=["Y-S06"])
    fit = GAME.view(s, 0)["you"]["fit"]
    assert fit["swap_cards_that_fit"] == ["G-S02"]
    assert fit["saves"] == ["swap with G-S02 (pay 3 pumpkins)"]


def test_both_players_eliminated_at_once_each_passer_still_gains_a_candle_and_the_round_ends() -> None:
    s = fresh(2)
    for p in s["players"]:
        p.update(grid=NEARLY_FULL, pumpkins=0)
    s, events = pick_all(s, {0: "R-S01", 1: "B-S01"})
    assert s["round"] == 2  # round 1 scored, round 2 prepared
    r1 = s["history"][0]
    assert [sc["total"] for sc in r1["scores"]] == [0, 0]
    assert any("Round 1 scored" in e.text for e in events)
    # candles were given before scoring: both players had one (checked through the log)
    assert sum("gains a candle" in e.text for e in events) == 2


def test_the_round_ends_when_one_player_remains() -> None:
    s = fresh(3)
    s["players"][2]["active"] = False
    s["players"][1]["grid"] = NEARLY_FULL
    s["players"][1]["pumpkins"] = 0
    s, _ = pick_all(s, {0: "R-S01", 1: "B-S01"})  # seat 1 is out; seat 0 still places
    assert s["round"] == 1 and GAME.to_act(s) == {0}
    s, events = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert s["round"] == 2 and any("Round 1 scored" in e.text for e in events)


# -- swap and refresh ------------------------------------------------------------------------------------


def test_swap_pays_three_records_the_hand_card_and_keeps_the_received_one() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S16", 1, EMPTY)
    s["players"][0].update(pumpkins=5, hand=["G-S03", "G-S01"])
    s, events = GAME.apply(s, 0, Action("swap", "G-S03"))
    p = s["players"][0]
    assert p["pumpkins"] == 2 and p["incoming"] == "G-S03" and "B-S16" in p["hand"]
    assert "G-S03" not in json.dumps(GAME.view(s, None)) and "G-S03" not in events[0].text
    assert GAME.view(s, None)["seats"][0]["swapped"] is True
    assert not any(a.startswith("swap") for a in notations(s, 0))  # once per step
    assert "rotate90 r1 c1" in notations(s, 0)  # may still pay 2 to rotate the swapped-in card
    s, _ = GAME.apply(s, 0, GAME.parse_action("rotate 90 r1 c1"))
    p = s["players"][0]
    assert p["pile"] == ["G-S03"] and p["pumpkins"] == 0 + 1  # 2 - 2 + pumpkin-arrow


def test_swap_into_a_card_that_does_not_fit_eliminates_at_once() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S01", 1, NEARLY_FULL)
    s["players"][0].update(pumpkins=3, hand=["G-S07"])
    s["players"].append(dict(s["players"][1]))  # a third seat keeps the round going
    s["n"] = 3
    s, events = GAME.apply(s, 0, Action("swap", "G-S07"))
    assert not s["players"][0]["active"] and s["players"][0]["down"] == ["G-S07"]
    assert s["players"][1]["candles"] == 1
    assert any("G-S07" in e.text and "out of round 1" in e.text for e in events)


def test_refresh_costs_one_pumpkin_puts_the_hand_under_the_deck_once_per_step() -> None:
    s = fresh(2)
    p = s["players"][0]
    hand, deck = list(p["hand"]), list(p["deck"])
    s, events = GAME.apply(s, 0, Action("refresh"))
    p = s["players"][0]
    assert p["pumpkins"] == 1 and p["hand"] == deck[:5] and p["deck"] == deck[5:] + hand
    assert 0 in GAME.to_act(s) and "refresh" not in notations(s, 0)
    assert hand[0] not in events[0].text and p["hand"][0] in events[0].private[0]
    s["players"][0]["pumpkins"] = 0
    s["players"][0]["refreshed"] = False
    assert "refresh" not in notations(s, 0)


def test_pumpkins_gained_at_the_reveal_can_pay_for_the_same_steps_rotation() -> None:
    s = fresh(2)
    s["players"][1]["pumpkins"] = 1
    s, _ = pick_all(s, {0: "R-S07", 1: "B-S01"})  # seat 1 played a pumpkin card: 1 -> 2
    assert s["players"][1]["pumpkins"] == 2
    assert any(a.startswith("rotate") for a in notations(s, 1))


# -- step 4: scoring pile, arrow, favourites -----------------------------------------------------------


def test_recording_a_pumpkin_arrow_card_gives_the_receiver_a_pumpkin() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S03", 1, EMPTY)
    s2, events = GAME.apply(s, 0, GAME.parse_action("place r1 c1"))
    assert s2["players"][0]["pumpkins"] == 3 and s2["players"][0]["pile"] == ["B-S03"]
    assert "Pumpkin-arrow" in events[0].text


def test_completing_row_4_ticks_its_red_favourite() -> None:
    s = fresh(2)
    grid = ["......."] * 4 + ["BBBB..."] + ["BBBBBBB"] * 3
    receiving(s, 0, "R-S07", 1, grid)  # I4h into row 4: columns 5-7 need 3 cells... use I3h
    receiving(s, 0, "R-S03", 1, grid)
    s2, events = GAME.apply(s, 0, GAME.parse_action("place r4 c5"))
    assert s2["players"][0]["ticks"] == [True, True, True, True, False, False, False, False]
    assert "row 4 (red)" in events[0].text


def test_pre_filled_cells_count_for_completing_a_row_but_score_nothing() -> None:
    s = fresh(2)
    s["adv"][0] = "rare_candy"
    start_round(s, 1)
    grid = list(s["players"][0]["grid"])
    assert grid[7] == "...#..."
    receiving(s, 0, "B-S03", 1)
    s["players"][0]["grid"][7] = "BBB#..."
    s2, _ = GAME.apply(s, 0, GAME.parse_action("place r1 c5"))
    assert s2["players"][0]["ticks"][0] is True
    assert round_scores(s2)[0]["base"] == 1


def test_the_seeds_worked_scoring_example_scores_6_plus_3_plus_3() -> None:
    s = fresh(2)
    p = s["players"][0]
    # 6 cards: 3 red without symbols, 3 blue/yellow with one ghost each; row 4 (red) ticked; 1 candle
    p.update(pile=["R-S11", "R-S14", "R-S15", "B-S04", "B-S08", "Y-S12"], candles=1)
    p["ticks"] = [False, False, False, True, False, False, False, False]
    assert round_scores(s)[0] == {"base": 6, "favourite": 3, "candle": 3, "goblin": 0, "total": 12}


def test_two_ticked_rows_of_the_same_colour_count_separately() -> None:
    s = fresh(2)
    p = s["players"][0]
    p.update(pile=["R-S11", "R-S14", "R-S15"])
    p["ticks"] = [False, False, False, True, False, False, False, True]
    assert round_scores(s)[0]["favourite"] == 6


# -- step 5: refill and the end of a round ----------------------------------------------------------------


def test_hands_are_refilled_to_three_after_the_step() -> None:
    s = fresh(2)
    for p in s["players"]:
        p["hand"] = p["hand"][:2]
    s, _ = pick_all(s, {0: s["players"][0]["hand"][0], 1: s["players"][1]["hand"][0]})
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s["phase"] == "pick" and s["step"] == 2
    assert [len(p["hand"]) for p in s["players"]] == [3, 3]


def test_the_draw_one_refill_option_draws_one_card_at_three_or_fewer() -> None:
    s = fresh(2, refill="draw-1")
    s, _ = pick_all(s, {0: s["players"][0]["hand"][0], 1: s["players"][1]["hand"][0]})
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert [len(p["hand"]) for p in s["players"]] == [4, 4]
    s, _ = pick_all(s, {0: s["players"][0]["hand"][0], 1: s["players"][1]["hand"][0]})
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert [len(p["hand"]) for p in s["players"]] == [4, 4]


def test_a_player_with_no_card_to_play_ends_the_round() -> None:
    s = fresh(2)
    p0 = s["players"][0]
    p0["deck"] = []
    p0["hand"] = p0["hand"][:1]
    s, _ = pick_all(s, {0: p0["hand"][0], 1: s["players"][1]["hand"][0]})
    for seat in (0, 1):
        s, events = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s["round"] == 2 and any("no card left" in e.text for e in events)


def test_a_new_round_gathers_every_card_resets_pumpkins_candles_and_the_sheet() -> None:
    s = fresh(3)
    s["players"][0].update(candles=2, pumpkins=7)
    s["players"][1]["active"] = False
    s["players"][2]["active"] = False
    from bot.rules.sweets_stack.game import _score_round

    _score_round(s)
    assert s["round"] == 2
    for p in s["players"]:
        assert owned(p) == 16 and len(p["hand"]) == 5
        assert p["pumpkins"] == 2 and p["candles"] == 0 and p["active"] and p["pile"] == []
        assert p["grid"] == EMPTY and not any(p["ticks"])


# -- the end of the game ----------------------------------------------------------------------------------


def _finish(s: dict[str, Any], totals: list[list[int]]) -> dict[str, Any]:
    s["phase"] = "over"
    for p, t in zip(s["players"], totals, strict=True):
        p["scores"] = [{"base": x, "favourite": 0, "candle": 0, "goblin": 0, "total": x} for x in t]
    return s


def test_highest_total_wins_ties_go_to_the_higher_round_3_score_then_shared() -> None:
    s = _finish(fresh(3), [[10, 10, 5], [10, 5, 10], [1, 1, 1]])
    o = GAME.outcome(s)
    assert o is not None and o.winners == {1} and o.ranking == ((1,), (0,), (2,))
    s = _finish(fresh(3), [[10, 5, 10], [5, 10, 10], [1, 1, 1]])
    o = GAME.outcome(s)
    assert o is not None and o.winners == {0, 1} and o.ranking == ((0, 1), (2,))
    assert "share the win" in o.summary
    assert not GAME.to_act(s) and GAME.legal_actions(s, 0) == []


# -- advanced rules -------------------------------------------------------------------------------------


def test_the_host_chooses_one_advanced_card_per_round_and_round_1_may_go_without() -> None:
    """「每輪選擇一個進階規則使用，並將其放在輪數卡片旁提醒。在此模式下第一輪可以選擇不使用進階規則卡。」
    (issue #13, point 11): the cards are chosen in the lobby, one option per round, not drawn."""
    assert fresh(3)["adv"] == [None, None, None]  # the default is the basic game
    s = fresh(3, advanced_r2="candy_fairy", advanced_r3="sugar_goblin")
    assert s["adv"] == [None, "candy_fairy", "sugar_goblin"]
    s = fresh(3, advanced_r1="dragons_fireball", advanced_r2="candy_corn", advanced_r3="rare_candy")
    assert s["adv"] == ["dragons_fireball", "candy_corn", "rare_candy"]
    assert len(s["players"][0]["hand"]) == 5  # Dragon's Fireball: 4 cards + a crown candy
    for spec in GAME.options[:3]:
        assert spec.default == "none" and set(D.ADVANCED_IDS) | {"none", "random"} == set(spec.choices)


def test_dragons_fireball_is_not_available_with_only_two_advanced_cards() -> None:
    """「如果你僅想在此模式下使用二張進階規則，則放在後兩輪時。(在此狀況下你無法使用Dragon’s fireball進階規則)」"""
    with pytest.raises(IllegalAction, match="Dragon's Fireball"):
        fresh(3, advanced_r2="dragons_fireball", advanced_r3="candy_corn")
    with pytest.raises(IllegalAction, match="Dragon's Fireball"):
        GAME.check_options({"advanced_r1": "dragons_fireball"})  # the other rounds are still none
    with pytest.raises(IllegalAction, match="two rounds"):
        fresh(3, advanced_r2="candy_corn", advanced_r3="candy_corn")
    for seed in range(30):  # drawn at random for two rounds: never the Fireball, never a named card
        adv = fresh(3, seed, advanced_r2="candy_fairy", advanced_r3="random")["adv"]
        assert adv[0] is None and adv[1] == "candy_fairy" and adv[2] not in (None, "candy_fairy", "dragons_fireball")


def test_the_old_single_advanced_option_still_loads_and_draws_the_same_cards() -> None:
    """Tables made before the per-round options carry `advanced=off|rounds23|every`: they still load,
    and a replay from the seed draws exactly the cards the old code drew."""
    from bot.rules.rng import Rng

    def old_draw(mode: str, seed: int) -> list[str | None]:
        rng = Rng.from_seed(seed)
        rng.shuffled(list(D.BASE_DECK))
        if mode == "rounds23":
            return [None, *rng.shuffled([a for a in D.ADVANCED_IDS if a != "dragons_fireball"])[:2]]
        if mode == "every":
            return list(rng.shuffled(list(D.ADVANCED_IDS))[:3])
        return [None, None, None]

    seen: set[str] = set()
    for seed in range(40):
        for mode in ("off", "rounds23", "every"):
            s = fresh(3, seed, advanced=mode)
            assert s["adv"] == old_draw(mode, seed)
            seen.update(a for a in s["adv"] if a)
        assert "advanced" not in GAME.check_options({"advanced": "every"})
    assert seen == set(D.ADVANCED_IDS)
    assert GAME.check_options({"advanced": "rounds23", "advanced_r2": "candy_corn"})["advanced_r2"] == "candy_corn"
    with pytest.raises(IllegalAction):
        GAME.check_options({"advanced": "sometimes"})


def test_a_game_stored_with_the_old_advanced_option_keeps_loading_and_playing() -> None:
    s = fresh(3, 7, advanced="every")
    old = json.loads(json.dumps(GAME.dump_state(s)))
    old["opts"] = {"advanced": "every", "refill": "up-to-3"}  # what the old code stored in the state
    s = GAME.load_state(old)
    rng = Rng.from_seed(1)
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
    assert s["adv"] == old["adv"] and len(s["history"]) == 3


def _round1_with(advanced: str, n: int = 2) -> dict[str, Any]:
    s = fresh(n)
    s["adv"][0] = advanced
    for p in s["players"]:
        p["deck"] = p["deck"] + p["hand"]
        p["hand"] = []
    start_round(s, 1)
    return s


def test_candy_corn_pre_fills_a_tower_in_the_bottom_middle() -> None:
    s = _round1_with("candy_corn")
    assert s["players"][0]["grid"][5:] == ["...#...", "...#...", "..###.."]


def test_rare_candy_pre_fills_a_floor_block_and_two_wall_blocks() -> None:
    s = _round1_with("rare_candy")
    assert s["players"][1]["grid"][5:] == ["#.....#", ".......", "...#..."]


def test_gummy_python_keeps_the_first_candy_off_the_pictured_cells_then_frees_them() -> None:
    s = _round1_with("gummy_python")
    receiving(s, 0, "B-S01", 1)
    places = {a for a in notations(s, 0) if a.startswith("place")}
    assert places == {"place r2 c1", "place r2 c2", "place r2 c3", "place r2 c4", "place r2 c5",
                      "place r2 c6"}
    s, _ = GAME.apply(s, 0, GAME.parse_action("place r2 c4"))
    p = s["players"][0]
    assert not p["python"] and p["grid"][7] == "......."
    receiving(s, 0, "B-S02", 1)
    assert "place r1 c1" in notations(s, 0)  # the python is gone: row 1 is open again


def test_gummy_python_does_not_apply_to_crown_cards_and_waits_for_the_first_normal_card() -> None:
    s = _round1_with("gummy_python")
    receiving(s, 0, "C-Y", 1)
    assert "place r1 c1" in notations(s, 0)
    s, _ = GAME.apply(s, 0, GAME.parse_action("place r1 c1"))
    assert s["players"][0]["python"]


def test_witchs_cauldron_doubles_the_candle_bonus() -> None:
    s = _round1_with("witchs_cauldron")
    s["players"][0].update(pile=["B-S04", "B-S08"], candles=2)
    assert round_scores(s)[0]["candle"] == 8


def test_candy_fairy_doubles_the_favourite_bonus() -> None:
    s = _round1_with("candy_fairy")
    s["players"][0].update(pile=["R-S11", "R-S14"])
    s["players"][0]["ticks"][3] = True
    assert round_scores(s)[0]["favourite"] == 4


def test_seven_flavor_beans_deals_hands_of_seven() -> None:
    s = _round1_with("seven_flavor_beans", 3)
    assert [len(p["hand"]) for p in s["players"]] == [7, 7, 7]


def test_dragons_fireball_deals_four_plus_a_crown_card_that_stays_for_later_rounds() -> None:
    s = _round1_with("dragons_fireball", 3)
    crowns = [c for p in s["players"] for c in p["hand"] if c in D.CROWNS]
    assert len(crowns) == 3 and len(set(crowns)) == 3
    for p in s["players"]:
        assert len(p["hand"]) == 5 and sum(c in D.CROWNS for c in p["hand"]) == 1
        assert owned(p) == 17
    from bot.rules.sweets_stack.game import _score_round

    _score_round(s)
    assert s["round"] == 2
    for p in s["players"]:
        assert owned(p) == 17 and len(p["hand"]) == 5


def test_sugar_goblin_subtracts_the_left_neighbours_favourite_bonus_right_in_round_3() -> None:
    s = _round1_with("sugar_goblin", 3)
    s["players"][1].update(pile=["R-S11", "R-S14"])
    s["players"][1]["ticks"][3] = True  # seat 2 has a favourite bonus of 2
    sc = round_scores(s)
    assert sc[0]["goblin"] == -2 and sc[0]["total"] == -2 and sc[1]["goblin"] == 0
    s["round"] = 3
    s["adv"][2] = "sugar_goblin"
    sc = round_scores(s)
    assert sc[2]["goblin"] == -2 and sc[0]["goblin"] == 0


def test_the_public_view_announces_the_rounds_advanced_card() -> None:
    s = _round1_with("candy_fairy")
    v = GAME.view(s, None)
    assert v["advanced_now"]["name"] == "Candy Fairy" and "Candy Fairy" in v["status"]


def test_the_rules_core_imports_no_discord_pil_sqlite_asyncio_or_random() -> None:
    import subprocess
    import sys

    code = ("import sys, bot.rules.sweets_stack; bad = [m for m in ('discord', 'PIL', 'aiosqlite', "
            "'sqlite3', 'asyncio', 'random') if m in sys.modules]; print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_game_is_registered_with_its_metadata() -> None:
    from bot.rules import get_game

    g = get_game("sweets_stack")
    assert g is GAME and g.has_private_info and (g.min_players, g.max_players) == (2, 4)
    assert {o.name for o in g.options} == {"advanced_r1", "advanced_r2", "advanced_r3", "refill"}


def test_the_view_names_a_swap_plus_rotation_that_would_save_a_player() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, [".BBBBBB"] * 8)
    s["players"][0].update(pumpkins=5, hand=["G-S01"], pile=["Y-S01"])
    fit = GAME.view(s, 0)["you"]["fit"]
    assert fit["swap_cards_that_fit_rotated"] == ["G-S01"]
    assert "swap with G-S01 and rotate it (pay 5 pumpkins)" in fit["saves"]


def test_the_bot_beats_two_random_players() -> None:
    from bot.rules import RandomPolicy, Rng

    wins = 0
    for g in range(6):
        s = GAME.new(3, 500 + g)
        bot, rand, rng = GAME.bot_policy(), RandomPolicy(), Rng.from_seed(g)
        me = g % 3
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            legal = GAME.legal_actions(s, seat)
            pol = bot if seat == me else rand
            s, _ = GAME.apply(s, seat, pol.choose(GAME.view(s, seat), legal, {}, rng))
        o = GAME.outcome(s)
        assert o is not None
        wins += me in o.winners
    assert wins >= 5


def test_a_passer_eliminated_in_the_same_step_still_gains_the_candle_and_the_round_goes_on() -> None:
    s = fresh(4)
    for seat in (1, 2):
        s["players"][seat].update(grid=NEARLY_FULL, pumpkins=0)
    # the cards seat 0 -> seat 1 and seat 1 -> seat 2 are fatal: seat 1 passes a fatal card and is out too
    s, _ = pick_all(s, {0: "R-S01", 1: "B-S01", 2: "G-S07", 3: "Y-S02"})
    p = s["players"]
    assert not p[1]["active"] and not p[2]["active"]
    assert p[0]["candles"] == 1 and p[1]["candles"] == 1
    assert GAME.to_act(s) == {0, 3}  # seat 3 receives from seat 2, seat 0 from seat 3
    for seat in (0, 3):
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s["phase"] == "pick" and GAME.to_act(s) == {0, 3}
    s, _ = pick_all(s, {0: s["players"][0]["hand"][0], 3: s["players"][3]["hand"][0]})
    assert s["players"][3]["giver"] == 0 and s["players"][0]["giver"] == 3  # eliminated seats skipped


# -- what the Discord presentation relies on ----------------------------------------------------------


def test_the_status_names_players_and_keeps_the_reveal_while_candies_are_placed() -> None:
    s = fresh(3)
    hands = {i: s["players"][i]["hand"][0] for i in range(3)}
    s, _ = pick_all(s, hands)
    view = GAME.view(s, None)
    assert [(r["from"], r["to"], r["card"]) for r in view["revealed"]] == [(0, 1, hands[0]), (1, 2, hands[1]),
                                                                           (2, 0, hands[2])]
    view["names"] = ["Ann", "Bo", "Cy"]
    status = GAME.status(view)
    assert f"Revealed: Ann → Bo: {hands[0]}" in status and "Totals: Ann 0, Bo 0, Cy 0" in status
    assert "seat" not in status.lower()
    # one receiver places: the reveal stays in the status for the others
    s, _ = GAME.apply(s, 1, next(a for a in GAME.legal_actions(s, 1) if a.verb == "place"))
    assert hands[0] in GAME.view(s, None)["status"]
    assert "status_line" in view and "Revealed" not in view["status_line"]


def test_a_candy_swapped_into_a_hand_is_not_repeated_in_the_revealed_list() -> None:
    s = fresh(2)
    s, _ = pick_all(s, {0: s["players"][0]["hand"][0], 1: s["players"][1]["hand"][0]})
    s["players"][1]["pumpkins"] = 3
    passed = s["players"][1]["incoming"]
    swap = next(a for a in GAME.legal_actions(s, 1) if a.verb == "swap")
    s, _ = GAME.apply(s, 1, swap)
    for seat in (None, 0):
        view = GAME.view(s, seat)
        assert next(r for r in view["revealed"] if r["to"] == 1)["card"] is None
        assert f'"{passed}"' not in json.dumps(view)


def test_a_seat_status_says_whether_its_candy_fits() -> None:
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, [".BBBBBB"] * 8)
    s["players"][0]["pumpkins"] = 2
    status = GAME.status(GAME.view(s, 0))
    assert "⚠️ Your candy does NOT fit upright" in status and "rotate (pay 2 pumpkins)" in status
    assert "fit" not in GAME.status(GAME.view(s, None)).lower()


def test_the_first_step_of_a_round_shows_the_last_round_scores_and_the_result_reads_well() -> None:
    s = fresh(2)
    for _ in range(3000):
        if s["round"] == 2:
            break
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    view = GAME.view(s, None)
    assert view["step"] == 1 and "Round 1 scored — seat 1: " in view["status"]
    for _ in range(3000):
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    out = GAME.outcome(s)
    assert out is not None
    assert len(out.details["rounds"]) == 3 and all(len(r) == 2 for r in out.details["rounds"])
    assert ("tie_break" in out.details) == (out.scores[0] == out.scores[1] and len(out.ranking) == 2)
    lines = GAME.outcome_lines(out, ["Ann", "Bo"])
    assert sum(1 for line in lines if line.strip().startswith("Round 3: ")) == 2


def test_event_lines_get_the_players_names() -> None:
    text = "Revealed: Seat 1 passes R-S05 red L4 to seat 2; Seat 2 passes B-S11 blue T4 to seat 1."
    named = GAME.event_text(text, ["Ann", "Bo"])
    assert named == "Revealed: Ann passes R-S05 red L4 to Bo; Bo passes B-S11 blue T4 to Ann."
    assert GAME.event_text("Final totals: seat 1 12, seat 2 9.", ["Ann", "Bo"]) == "Final totals: Ann 12, Bo 9."
    # the platform shows lines as whole sentences: the actor stays named
    stacked = GAME.event_text("Seat 2 stacks R-S05 red L4 in row 1, columns 1–2.", ["Ann", "Bo"])
    assert stacked.startswith("Bo stacks R-S05")
    assert GAME.event_text("Seat 1 has chosen a card.", ["Ann", "Bo"]) == "Ann has chosen a card."
    assert GAME.event_text("Seat 2 has no card left to play: the round ends.", ["Ann", "Bo"]).startswith("Bo has no")


# -- confirmation of a one-tap choice that wastes something (issue #11) ----------------------------


def test_giving_up_asks_first_when_a_rotation_would_still_save_the_candy() -> None:
    s = fresh(3)
    receiving(s, 0, "B-S07", 1, ["......."] * 8)
    s["players"][0]["grid"] = [".BBBBBB"] * 8  # only column 1 free: I4h fits only rotated
    s["players"][0]["pumpkins"] = 2
    text = GAME.confirm(s, 0, Action("overflow"))
    assert text == "Give up this round? You could still rotate (pay 2 pumpkins)."
    assert GAME.confirm(s, 0, Action("place", "", 1, 1, 1)) is None  # placing never asks


def test_giving_up_does_not_ask_when_nothing_can_save_the_candy_or_it_fits() -> None:
    s = fresh(3)
    receiving(s, 0, "B-S07", 1, ["......."] * 8)
    s["players"][0]["grid"] = [".BBBBBB"] * 8
    s["players"][0]["pumpkins"] = 0  # the rotation would fit, but it cannot be paid
    assert GAME.confirm(s, 0, Action("overflow")) is None
    s = fresh(2)
    receiving(s, 0, "B-S01", 1, EMPTY)  # fits upright: overflow is not legal, apply explains why
    assert GAME.confirm(s, 0, Action("overflow")) is None
