"""Scenario tests for Dawn Under: one per rule sentence of the seed and per reading in the rules doc."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from bot.rules import GAMES, IllegalAction, InvalidInput, NotYourTurn
from bot.rules.dawn_under import GAME, Action
from bot.rules.dawn_under.data import BOARD, COMPONENTS
from tests.rules.playout import assert_illegal

GRAVE_ID = re.compile(r"\b[A-H][1-8]\b")


# -- helpers ---------------------------------------------------------------------------------------
def fresh(n: int = 3, seed: int = 1, **opts: str) -> dict[str, Any]:
    """A new game with every grave emptied to plain lids we control, seat 0 to play."""
    s = GAME.new(n, seed, opts or None)
    s["turn"] = s["actor"] = 0
    return s


def lid(s: dict[str, Any], g: str, colour: str, content: str | None = None) -> None:
    s["lid"][g] = colour
    s["content"][g] = content


def row(s: dict[str, Any], seat: int, text: str) -> None:
    """Uppercase letters are face-up vampires, lowercase face-down."""
    s["rows"][seat] = list(text)


def act(s: dict[str, Any], seat: int, text: str) -> tuple[dict[str, Any], list[Any]]:
    return GAME.apply(s, seat, GAME.parse_action(text))


def closed_everything_else(s: dict[str, Any], colour: str = "W") -> None:
    """Make every grave an empty lid of `colour` so nothing surprising lies anywhere."""
    for g in s["lid"]:
        lid(s, g, colour)


# -- data ------------------------------------------------------------------------------------------
def test_registered_and_flagged_as_a_live_board_memory_game() -> None:
    assert GAMES["dawn_under"] is GAME
    assert GAME.live_board is True and GAME.has_private_info is False  # no DMs: they would keep reveals
    assert (GAME.min_players, GAME.max_players) == (2, 6)


def test_board_data_has_60_graves_in_four_quarters_and_king_move_adjacency_within_a_quarter() -> None:
    assert len(BOARD.graves) == 60
    assert Counter(BOARD.quadrant.values()) == {0: 15, 1: 15, 2: 15, 3: 15}
    for g, (c, r) in BOARD.position.items():
        expected = {
            h
            for h, (c2, r2) in BOARD.position.items()
            if h != g and abs(c - c2) <= 1 and abs(r - r2) <= 1 and BOARD.quadrant[h] == BOARD.quadrant[g]
        }
        assert set(BOARD.adjacent[g]) == expected, g
    assert set(BOARD.adjacent["B2"]) == {"A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"}
    assert set(BOARD.adjacent["D3"]) == {"C2", "C3", "C4", "D2"}  # the path cuts off E2..E4
    assert set(BOARD.adjacent["A1"]) == {"A2", "B1", "B2"}


def test_component_counts_match_the_sources() -> None:
    assert len(COMPONENTS.colours) == 6 and COMPONENTS.vampires_per_colour == 10
    assert COMPONENTS.lids_per_colour == 10 and COMPONENTS.rat_lids == 6 and COMPONENTS.reserve_lids == 6
    assert COMPONENTS.garlic_per_player == 3 and COMPONENTS.stakes == 13
    assert COMPONENTS.stakes_for_penalty == 3


# -- setup -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,each", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_setup_three_to_six_players(n: int, each: int) -> None:
    s = GAME.new(n, 7)
    lids = Counter(s["lid"].values())
    assert len(s["lid"]) == 60 and lids["rat"] == 6
    assert len(s["reserve"]) == 6
    total = lids + Counter(s["reserve"])
    assert all(total[c] == 10 for c in COMPONENTS.colours)
    assert all(v is None for v in s["content"].values())
    assert [len(r) for r in s["rows"]] == [each] * n
    assert Counter(c.upper() for r in s["rows"] for c in r) == {c: 10 for c in COMPONENTS.colours}
    for r in s["rows"]:
        up = [c.isupper() for c in r]
        assert up[:2] == [True, True] and up[-2:] == [True, True] and not any(up[2:-2])
    assert s["garlic"] == [3] * n and s["stakes"] == [0] * n
    assert GAME.view(s, None)["stakes_on_path"] == 13


def test_setup_two_players_uses_four_colours_forty_lids_ten_per_quarter() -> None:
    s = GAME.new(2, 3)
    assert len(s["colours"]) == 4
    assert len(s["lid"]) == 40 and Counter(s["lid"].values())["rat"] == 4
    assert Counter(BOARD.quadrant[g] for g in s["lid"]) == {0: 10, 1: 10, 2: 10, 3: 10}
    assert len(s["reserve"]) == 4
    assert [len(r) for r in s["rows"]] == [20, 20]
    assert set(c.upper() for r in s["rows"] for c in r) == set(s["colours"])
    assert s["garlic"] == [3, 3]
    bare = [g for g in GAME.view(s, None)["graves"] if g["state"] == "none"]
    assert len(bare) == 20


def test_same_seed_same_game_and_start_player_is_drawn_from_the_seed() -> None:
    assert GAME.new(4, 99) == GAME.new(4, 99)
    starts = {GAME.new(4, seed)["turn"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}


# -- the turn --------------------------------------------------------------------------------------
def test_matching_empty_grave_puts_the_outer_vampire_to_sleep_reveals_the_next_and_continues() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RBgkYY")
    lid(s, "C3", "R")
    s2, _ = act(s, 0, "flip C3")
    assert s2["content"]["C3"] == "v:R"
    assert s2["rows"][0] == ["B", "G", "k", "Y", "Y"]  # the next hidden one on the left is turned up
    assert "C3" not in s2["open"] and "C3" in s2["ajar"]  # closed, shown until the next action
    assert GAME.to_act(s2) == {0} and s2["phase"] == "flip" and s2["chained"]
    assert Action("stop") in GAME.legal_actions(s2, 0)


def test_only_the_single_outermost_vampire_at_each_end_may_sleep() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "YRggBY")  # red is face up but second from the left
    lid(s, "C3", "R")
    s2, _ = act(s, 0, "flip C3")
    assert s2["content"]["C3"] is None and s2["phase"] == "garlic"


def test_both_ends_matching_lets_the_player_choose_which_sleeps() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RBkyGR")
    lid(s, "C3", "R")
    s2, _ = act(s, 0, "flip C3")
    assert s2["phase"] == "sleep" and "C3" in s2["open"]
    assert GAME.legal_actions(s2, 0) == [Action("sleep", side="left"), Action("sleep", side="right")]
    s3, _ = act(s2, 0, "sleep right")
    assert s3["rows"][0] == ["R", "B", "k", "Y", "G"]
    assert s3["content"]["C3"] == "v:R" and s3["phase"] == "flip"


def test_a_grave_with_a_vampire_is_never_a_match_even_if_the_lid_colour_matches() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RByyGR")
    lid(s, "C3", "R", "v:R")
    s2, _ = act(s, 0, "flip C3")
    assert s2["stakes"][0] == 1 and s2["turn"] == 1


def test_you_may_stop_only_after_a_successful_match() -> None:
    s = fresh()
    assert Action("stop") not in GAME.legal_actions(s, 0)
    err = assert_illegal(GAME, s, 0, Action("stop"))
    assert "only after putting a vampire to sleep" in err.message
    closed_everything_else(s)
    row(s, 0, "RBgkYY")
    lid(s, "C3", "R")
    s2, _ = act(s, 0, "flip C3")
    s3, _ = act(s2, 0, "stop")
    assert s3["turn"] == 1 and s3["actor"] == 1 and not s3["chained"]


def test_option_must_continue_forbids_stopping_after_a_match() -> None:
    s = fresh(chain="must_continue")
    closed_everything_else(s)
    row(s, 0, "RBgkYY")
    lid(s, "C3", "R")
    s2, _ = act(s, 0, "flip C3")
    assert Action("stop") not in GAME.legal_actions(s2, 0)
    assert "keep flipping" in assert_illegal(GAME, s2, 0, Action("stop")).message


def test_no_match_then_hide_garlic_ends_the_turn_and_only_the_owner_is_told_where() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RBgkYY")
    s2, _ = act(s, 0, "flip C3")
    assert s2["phase"] == "garlic" and GAME.legal_actions(s2, 0) == [
        Action("garlic", "C3"),
        Action("close", "C3"),
    ]
    s3, events = act(s2, 0, "garlic C3")
    assert s3["content"]["C3"] == "g:0" and s3["garlic"][0] == 2 and s3["turn"] == 1
    assert not any(e.private for e in events)  # by default nobody is told where it lies
    s4, _ = act(s3, 1, "flip A1")  # the next action closes C3 for good
    assert all("my_garlic" not in GAME.view(s4, seat) for seat in (0, 1, None))
    assert "C3" not in GAME.status(GAME.view(s4, 0))
    assert GAME.view(s4, None)["graves"][18] == {"id": "C3", "state": "closed"}
    assert "garlic" not in json.dumps(GAME.view(s4, 0)["graves"])
    assert "C3" not in GAME.describe_action(Action("garlic", "C3"))  # the mover's echo names no grave


def test_your_garlic_is_yours_to_remember_unless_the_table_lists_it() -> None:
    """「一人拿三個大蒜…要牢記你的大蒜顏色」: the seed asks players to remember; finding your own
    garlic is the trap it punishes (「若是得到三個木樁或翻到自己的大蒜，對手給你四個吸血鬼」). By
    default no view lists where a seat's garlic lies; the option list_garlic=yes lists it to its
    owner only."""
    for opts, listed in (({}, False), ({"list_garlic": "yes"}, True)):
        s = fresh(**opts)
        closed_everything_else(s)
        row(s, 0, "RBgkYY")
        s2, _ = act(s, 0, "flip C3")
        s3, events = act(s2, 0, "garlic C3")
        s4, _ = act(s3, 1, "flip A1")
        assert ("my_garlic" in GAME.view(s4, 0)) is listed
        assert any(e.private.get(0) == "Your garlic lies in C3." for e in events) is listed
        if listed:
            assert GAME.view(s4, 0)["my_garlic"] == ["C3"] and GAME.view(s4, 1)["my_garlic"] == []
            assert "Your garlic lies in: C3" in GAME.status(GAME.view(s4, 0))
            assert "my_garlic" not in GAME.view(s4, None)


def test_games_stored_before_the_list_garlic_option_keep_listing_it() -> None:
    s = fresh()
    del s["opts"]["list_garlic"]
    s["content"]["C3"] = "g:0"
    assert GAME.view(s, 0)["my_garlic"] == ["C3"]


def test_no_match_then_close_without_garlic() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RBgkYY")
    s2, _ = act(s, 0, "flip C3")
    s3, _ = act(s2, 0, "close C3")
    assert s3["content"]["C3"] is None and s3["garlic"][0] == 3 and s3["turn"] == 1


def test_no_match_without_garlic_in_hand_closes_at_once() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RBgkYY")
    s["garlic"][0] = 0
    s2, _ = act(s, 0, "flip C3")
    assert s2["turn"] == 1 and s2["phase"] == "flip"


def test_finding_a_vampire_gives_a_stake_and_ends_the_turn() -> None:
    s = fresh()
    closed_everything_else(s)
    lid(s, "C3", "B", "v:B")
    s2, _ = act(s, 0, "flip C3")
    assert s2["stakes"] == [1, 0, 0] and s2["turn"] == 1
    assert GAME.view(s2, None)["stakes_on_path"] == 12


def test_third_stake_every_other_player_gives_one_vampire_simultaneously_and_stakes_return() -> None:
    s = fresh(4)
    closed_everything_else(s)
    s["stakes"][0] = 2
    lid(s, "C3", "B", "v:B")
    row(s, 1, "RGbbYK")
    row(s, 2, "GGrrWW")
    row(s, 3, "KYbbRR")
    s2, _ = act(s, 0, "flip C3")
    assert s2["stakes"][0] == 0 and GAME.view(s2, None)["stakes_on_path"] == 13
    assert GAME.to_act(s2) == {1, 2, 3}
    s3, ev = act(s2, 2, "give right")
    pub = GAME.view(s3, None)
    assert pub["gift"]["decided"] == [2] and "my_choice" not in pub
    assert "right" not in " ".join(e.text for e in ev)
    assert s3["rows"][2] == ["G", "G", "r", "r", "W", "W"]  # nothing moves before everyone chose
    assert GAME.view(s3, 2)["my_choice"] == "right"
    assert isinstance(assert_illegal(GAME, s3, 2, Action("give", side="left")), NotYourTurn)
    s4, _ = act(s3, 1, "give left")
    s5, _ = act(s4, 3, "give left")
    assert s5["rows"][1] == ["G", "B", "b", "Y", "K"]  # the giver turns up the next one in order
    assert s5["rows"][2] == ["G", "G", "r", "R", "W"]
    assert sorted(s5["gift"]["pending"]) == ["K", "R", "W"]
    assert s5["phase"] == "place" and GAME.to_act(s5) == {0}
    row0 = list(s5["rows"][0])
    s6, _ = act(s5, 0, "put W left")
    s7, _ = act(s6, 0, "put K right")
    s8, _ = act(s7, 0, "put R right")
    assert s8["rows"][0] == ["W", *row0, "K", "R"]
    assert s8["turn"] == 1 and s8["gift"] is None


def test_another_players_garlic_its_owner_gives_you_a_vampire_and_takes_the_garlic_back() -> None:
    s = fresh()
    closed_everything_else(s)
    lid(s, "C3", "R", "g:2")
    s["garlic"][2] = 2
    row(s, 2, "RGbbYK")
    row(s, 0, "RGY")  # the lid matches, but the grave is not empty
    s2, _ = act(s, 0, "flip C3")
    assert s2["content"]["C3"] is None and s2["garlic"][2] == 3
    assert GAME.to_act(s2) == {2} and s2["gift"]["owed"] == [0, 0, 1]
    assert GAME.view(s2, None)["graves"][18]["found"] == {"garlic": 2}
    s3, _ = act(s2, 2, "give right")
    s4, _ = act(s3, 0, "put K left")
    assert s4["rows"][0] == ["K", "R", "G", "Y"] and s4["rows"][2] == ["R", "G", "b", "B", "Y"]
    assert s4["turn"] == 1 and s4["content"]["C3"] is None


def test_own_garlic_with_three_players_every_other_player_gives_one() -> None:
    s = fresh()
    closed_everything_else(s)
    lid(s, "C3", "R", "g:0")
    s["garlic"][0] = 2
    s2, _ = act(s, 0, "flip C3")
    assert s2["garlic"][0] == 3 and s2["gift"]["owed"] == [0, 1, 1]
    assert GAME.to_act(s2) == {1, 2}


def test_giving_away_the_last_vampire_wins_and_simultaneous_last_gifts_share_the_win() -> None:
    s = fresh(4)
    closed_everything_else(s)
    s["stakes"][0] = 2
    lid(s, "C3", "B", "v:B")
    row(s, 1, "R")
    row(s, 2, "G")
    row(s, 3, "KYB")
    s2, _ = act(s, 0, "flip C3")
    assert GAME.legal_actions(s2, 1) == [Action("give", side="left")]  # one vampire: one choice
    s3, _ = act(s2, 1, "give left")
    s3, _ = act(s3, 2, "give left")
    s3, _ = act(s3, 3, "give right")
    out = GAME.outcome(s3)
    assert out is not None and out.winners == {1, 2}
    assert out.ranking[0] == (1, 2) and GAME.to_act(s3) == frozenset()


def test_putting_the_last_vampire_to_sleep_wins() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "R")
    lid(s, "C3", "R")
    s2, ev = act(s, 0, "flip C3")
    out = GAME.outcome(s2)
    assert out is not None and out.winners == {0} and out.ranking[0] == (0,)
    assert any(e.kind == "end" for e in ev)


def test_rows_of_four_or_fewer_are_all_face_up() -> None:
    s = fresh()
    closed_everything_else(s)
    row(s, 0, "RGyyB")
    lid(s, "C3", "R")
    s2, _ = act(s, 0, "flip C3")
    assert s2["rows"][0] == ["G", "Y", "Y", "B"]


# -- the plague ------------------------------------------------------------------------------------
def plague_state(n: int = 3, **opts: str) -> dict[str, Any]:
    s = fresh(n, **opts)
    closed_everything_else(s)
    lid(s, "B2", "rat")
    row(s, 0, "RGbbYK")
    row(s, 1, "YKrrGB")
    row(s, 2, "WWrrKK")
    return s


def test_rat_starts_a_plague_for_its_finder_over_the_surrounding_graves_only() -> None:
    s = plague_state()
    s2, _ = act(s, 0, "flip B2")
    v = GAME.view(s2, None)
    assert v["plague"]["center"] == "B2" and v["plague"]["finder"] == 0
    assert sorted(GAME.flippable(s2, 0)) == ["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"]
    assert Action("stop") in GAME.legal_actions(s2, 0)  # opening is optional
    err = assert_illegal(GAME, s2, 0, Action("flip", "E2"))
    assert "around the rat at B2" in err.message


def test_graves_beyond_the_path_do_not_surround_a_rat() -> None:
    s = plague_state()
    lid(s, "D3", "rat")
    s2, _ = act(s, 0, "flip D3")
    assert sorted(GAME.flippable(s2, 0)) == ["C2", "C3", "C4", "D2"]


def test_plague_lids_stay_open_a_match_sleeps_at_opening_and_the_flipper_goes_on() -> None:
    s = plague_state()
    lid(s, "A1", "K")
    lid(s, "A2", "W")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    assert s3["content"]["A1"] == "v:K" and "A1" in s3["open"] and s3["rows"][0][-1] == "Y"
    s4, _ = act(s3, 0, "flip A2")
    assert "A2" in s4["open"] and s4["actor"] == 0 and s4["phase"] == "flip"  # no garlic in a plague
    assert Action("garlic", "A2") not in GAME.legal_actions(s4, 0)


def test_plague_passes_left_once_around_then_closes_everything_and_replaces_the_rat_lid() -> None:
    s = plague_state()
    reserve_top = s["reserve"][0]
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A2")
    s4, _ = act(s3, 0, "stop")
    assert s4["actor"] == 1 and s4["plague"] is not None
    s5, _ = act(s4, 1, "flip A3")
    s6, _ = act(s5, 1, "stop")
    assert s6["actor"] == 2
    s7, _ = act(s6, 2, "stop")
    assert s7["plague"] is None and s7["open"] == []
    assert s7["lid"]["B2"] == reserve_top and len(s7["reserve"]) == 5
    assert s7["turn"] == 1 and s7["actor"] == 1  # the player after the finder
    assert GAME.view(s7, None)["rats_found"] == 1
    assert all(g["state"] in ("closed", "ajar") for g in GAME.view(s7, None)["graves"])


def test_a_grave_opened_earlier_in_the_plague_can_never_take_a_vampire_later() -> None:
    s = plague_state()
    lid(s, "A2", "R")  # red: no match for seat 0 (ends R? no: seat 0 has R on the left!)
    row(s, 0, "GYbbYK")
    row(s, 1, "RKrrGB")  # seat 1 has red outermost
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A2")
    s4, _ = act(s3, 0, "stop")
    assert s4["actor"] == 1
    assert "A2" not in GAME.flippable(s4, 1)
    assert "already open" in assert_illegal(GAME, s4, 1, Action("flip", "A2")).message


def test_a_vampire_turned_up_during_a_plague_cannot_use_a_grave_opened_before() -> None:
    s = plague_state()
    lid(s, "A1", "G")
    lid(s, "A2", "B")
    row(s, 0, "GBrrYK")  # after G sleeps, B is outermost on the left
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A2")  # blue lid: no match yet (left end is G)
    s4, _ = act(s3, 0, "flip A1")  # green: G sleeps, B is now outermost
    assert s4["rows"][0][0] == "B" and s4["content"]["A2"] is None
    assert "A2" not in GAME.flippable(s4, 0)


def test_a_vampire_found_in_a_plague_gives_a_stake_and_the_flipper_goes_on() -> None:
    """「若是翻到其他吸血鬼或大蒜，處罰方式照常」: a stake, as usual; the plague part goes on."""
    s = plague_state()
    assert s["opts"]["plague_penalty"] == "go_on"
    lid(s, "A1", "K", "v:R")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    assert s3["stakes"][0] == 1 and s3["actor"] == 0 and s3["phase"] == "flip" and "A1" in s3["open"]
    assert Action("stop") in GAME.legal_actions(s3, 0)


def test_a_vampire_moved_to_you_in_a_plague_cannot_sleep_in_a_lid_opened_before() -> None:
    """「注意：翻開棺材的當下就得放吸血鬼進去，若是之前翻開的，此時有吸血鬼被移動到我這裡，就算顏色符合，也不能放進去。」

    The finder opens an empty blue lid (no match), then finds seat 1's garlic: seat 1 gives a blue
    vampire, which the finder puts at an end. The finder goes on flipping (the default
    plague_penalty=go_on), and the blue lid opened before cannot take the blue vampire."""
    s = plague_state()
    lid(s, "A2", "B")
    lid(s, "A1", "W", "g:1")
    row(s, 1, "BKrrGY")  # seat 1 gives its blue left end
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A2")  # blue lid, empty: no match for R...K
    assert s3["content"]["A2"] is None and s3["actor"] == 0
    s4, _ = act(s3, 0, "flip A1")  # seat 1's garlic
    assert GAME.to_act(s4) == {1}
    s5, _ = act(s4, 1, "give left")
    s6, _ = act(s5, 0, "put B left")
    assert s6["rows"][0][0] == "B" and s6["actor"] == 0 and s6["phase"] == "flip" and s6["plague"] is not None
    assert "A2" in s6["open"] and "A2" not in GAME.flippable(s6, 0)
    assert all(a.verb in ("flip", "stop") for a in GAME.legal_actions(s6, 0))
    s7, _ = act(s6, 0, "flip A3")  # a grave opened now may still take a matching vampire
    assert s7["content"]["A2"] is None and s7["content"]["A3"] is None


def test_option_plague_penalty_ends_part_a_vampire_ends_that_players_part() -> None:
    s = plague_state(plague_penalty="ends_part")
    lid(s, "A1", "K", "v:R")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    assert s3["stakes"][0] == 1 and s3["actor"] == 1 and "A1" in s3["open"]


def test_option_plague_penalty_ends_part_garlic_is_punished_then_the_part_ends() -> None:
    s = plague_state(plague_penalty="ends_part")
    lid(s, "A1", "K", "g:1")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    assert GAME.to_act(s3) == {1}
    s4, _ = act(s3, 1, "give right")
    s5, _ = act(s4, 0, "put B right")
    assert s5["actor"] == 1 and s5["plague"] is not None and s5["rows"][0][-1] == "B"


def test_games_stored_before_the_plague_penalty_option_end_the_part() -> None:
    s = plague_state()
    del s["opts"]["plague_penalty"]
    lid(s, "A1", "K", "v:R")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    assert s3["actor"] == 1


def test_a_penalty_on_the_last_closed_grave_ends_the_plague() -> None:
    s = plague_state()
    lid(s, "D3", "rat")
    for g in ("C2", "C3", "C4"):
        lid(s, g, "W")
    lid(s, "D2", "K", "v:R")
    s2, _ = act(s, 0, "flip D3")
    for g in ("C2", "C3", "C4"):
        s2, _ = act(s2, 0, f"flip {g}")
    s3, _ = act(s2, 0, "flip D2")
    assert s3["plague"] is None and s3["turn"] == 1 and s3["stakes"][0] == 1


def test_new_rat_ends_the_old_plague_and_starts_a_new_one_for_its_finder() -> None:
    s = plague_state()
    lid(s, "A2", "rat")
    lid(s, "A1", "W")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    s4, _ = act(s3, 0, "stop")
    s5, _ = act(s4, 1, "flip A2")  # seat 1 finds the new rat
    assert s5["plague"]["center"] == "A2" and s5["plague"]["finder"] == 1 and s5["actor"] == 1
    assert s5["lid"]["B2"] != "rat" and s5["open"] == ["A2"]
    assert s5["rats_out"] == 1 and len(s5["reserve"]) == 5
    assert sorted(GAME.flippable(s5, 1)) == ["A1", "A3", "B1", "B2", "B3"]
    for seat in (1, 2, 0):
        s5, _ = act(s5, seat, "stop")
    assert s5["plague"] is None and s5["turn"] == 1  # after the original turn owner (seat 0)


def test_old_plague_finder_finding_a_new_rat_hands_the_new_plague_to_the_left() -> None:
    s = plague_state()
    lid(s, "A2", "rat")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A2")
    assert s3["plague"]["center"] == "A2" and s3["plague"]["finder"] == 1 and s3["actor"] == 1


def test_plague_with_nothing_closed_around_ends_at_once() -> None:
    s = GAME.new(2, 5)
    s["turn"] = s["actor"] = 0
    for g in s["lid"]:
        lid(s, g, "W")
    lid(s, "A1", "rat")
    for g in ("A2", "B1", "B2"):
        s["lid"].pop(g, None)
        s["content"].pop(g, None)
    s2, _ = act(s, 0, "flip A1")
    assert s2["plague"] is None and s2["turn"] == 1 and s2["rats_out"] == 1


# -- two players -----------------------------------------------------------------------------------
def duel(**opts: str) -> dict[str, Any]:
    s = fresh(2, **opts)
    closed_everything_else(s)
    row(s, 0, "RGbbbbYK")
    row(s, 1, "YKrrrrGB")
    return s


def test_duel_opponents_garlic_costs_two_vampires() -> None:
    s = duel()
    g = next(iter(s["lid"]))
    lid(s, g, "W", "g:1")
    s2, _ = act(s, 0, f"flip {g}")
    assert s2["gift"]["owed"] == [0, 2]
    s3, _ = act(s2, 1, "give left")
    assert GAME.to_act(s3) == {1}  # the second gift is decided after seeing the first go
    s4, _ = act(s3, 1, "give left")
    assert sorted(s4["gift"]["pending"]) == ["K", "Y"] and GAME.to_act(s4) == {0}


def test_duel_third_stake_or_own_garlic_costs_four_vampires() -> None:
    s = duel()
    graves = list(s["lid"])
    lid(s, graves[0], "W", "v:W")
    s["stakes"][0] = 2
    s2, _ = act(s, 0, f"flip {graves[0]}")
    assert s2["gift"]["owed"] == [0, 4]
    s = duel()
    lid(s, graves[0], "W", "g:0")
    s2, _ = act(s, 0, f"flip {graves[0]}")
    assert s2["gift"]["owed"] == [0, 4]


def test_duel_literal_option_a_found_vampire_gives_a_stake_and_two_vampires() -> None:
    s = duel(duel_rule_1="vampire")
    g = next(iter(s["lid"]))
    lid(s, g, "W", "v:W")
    s2, _ = act(s, 0, f"flip {g}")
    assert s2["stakes"][0] == 1 and s2["gift"]["owed"] == [0, 2]
    s = duel(duel_rule_1="vampire")
    lid(s, g, "W", "g:1")
    s2, _ = act(s, 0, f"flip {g}")
    assert s2["gift"]["owed"] == [0, 1]


def test_duel_graves_the_opponent_opened_last_turn_are_blocked() -> None:
    s = duel()
    graves = list(s["lid"])
    a, b = graves[0], graves[1]
    s2, _ = act(s, 0, f"flip {a}")
    s3, _ = act(s2, 0, f"close {a}")
    assert s3["blocked"] == [a] and a not in GAME.flippable(s3, 1)
    err = assert_illegal(GAME, s3, 1, Action("flip", a))
    assert "last turn" in err.message
    assert GAME.view(s3, None)["blocked"] == [a]
    s4, _ = act(s3, 1, f"flip {b}")
    s5, _ = act(s4, 1, f"close {b}")
    assert s5["blocked"] == [b] and a in GAME.flippable(s5, 0)


def test_duel_rat_shows_face_up_on_its_grave_during_the_plague() -> None:
    s = duel()
    lid(s, next(iter(s["lid"])), "rat")
    g = next(iter(s["lid"]))
    s2, _ = act(s, 0, f"flip {g}")
    cell = next(c for c in GAME.view(s2, None)["graves"] if c["id"] == g)
    assert cell["state"] == "open" and cell["lid"] == "rat"


def test_duel_same_finder_new_rat_goes_to_the_opponent() -> None:
    s = duel()
    lid(s, "B2", "rat")
    s["lid"].setdefault("A2", "rat")
    s["content"].setdefault("A2", None)
    lid(s, "A2", "rat")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A2")
    assert s3["plague"]["finder"] == 1 and s3["actor"] == 1


# -- memory and notation ---------------------------------------------------------------------------
def test_closed_lids_show_nothing_and_a_reveal_lasts_until_the_next_action() -> None:
    s = fresh()
    closed_everything_else(s)
    lid(s, "C3", "B", "v:B")
    v = GAME.view(s, None)
    assert all(set(c) == {"id", "state"} for c in v["graves"])
    s2, _ = act(s, 0, "flip C3")
    cell = GAME.view(s2, None)["graves"][18]
    assert cell == {"id": "C3", "state": "ajar", "lid": "B", "holds": {"vampire": "B"}}
    s3, _ = act(s2, 1, "flip A1")
    assert GAME.view(s3, None)["graves"][18] == {"id": "C3", "state": "closed"}


def test_event_text_naming_a_grave_is_always_transient() -> None:
    s = plague_state()
    lid(s, "A1", "K", "v:R")
    lid(s, "A2", "W", "g:2")
    seen = []
    for seat, text in [
        (0, "flip B2"),
        (0, "flip A3"),
        (0, "flip A1"),
        (0, "flip A2"),
        (2, "give left"),
        (0, "put W left"),
        (0, "stop"),
        (1, "stop"),
        (2, "stop"),
    ]:
        s, events = act(s, seat, text)
        seen.extend(events)
    assert any(e.transient for e in seen) and s["plague"] is None
    for e in seen:
        if not e.transient:
            assert not GRAVE_ID.search(e.text), e.text


def test_notation_round_trips_and_is_tolerant() -> None:
    for text, action in [
        ("flip C4", Action("flip", "C4")),
        ("  FLIP   c4 ", Action("flip", "C4")),
        ("flipc4", Action("flip", "C4")),
        ("stop", Action("stop")),
        ("sleep Left", Action("sleep", side="left")),
        ("garlic h8", Action("garlic", "H8")),
        ("close a1", Action("close", "A1")),
        ("give r", Action("give", side="right")),
        ("put red left", Action("put", side="left", colour="R")),
        ("put k right", Action("put", side="right", colour="K")),
    ]:
        assert GAME.parse_action(text) == action
        assert GAME.parse_action(GAME.format_action(action)) == action
        assert len(GAME.describe_action(action)) <= 80


@pytest.mark.parametrize(
    "text", ["", "jump", "flip Z9", "flip D4", "flip", "give up", "put purple left", "stop now"]
)
def test_unreadable_notation_raises_invalid_input_naming_it(text: str) -> None:
    with pytest.raises(InvalidInput):
        GAME.parse_action(text)


def test_wrong_phase_actions_say_what_is_expected() -> None:
    s = fresh()
    err = assert_illegal(GAME, s, 0, Action("give", side="left"))
    assert isinstance(err, IllegalAction) and "flip a grave" in err.message
    assert isinstance(assert_illegal(GAME, s, 1, Action("flip", "A1")), NotYourTurn)


def test_options_are_checked() -> None:
    with pytest.raises(IllegalAction):
        GAME.new(3, 1, {"chain": "sometimes"})
    with pytest.raises(IllegalAction):
        GAME.new(7, 1)


def test_status_uses_player_names_when_the_platform_adds_them() -> None:
    v = GAME.view(fresh(), None)
    assert v["status"].startswith("Seat 1's turn")
    v["names"] = ["Ann", "Bob", "Cy"]
    assert GAME.status(v).startswith("Ann's turn")


def test_duel_plague_flips_of_the_turn_owner_are_blocked_next_turn_too() -> None:
    s = duel()
    for g in ("B2", "A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"):
        s["lid"][g], s["content"][g] = "W", None
    lid(s, "B2", "rat")
    s2, _ = act(s, 0, "flip B2")
    s3, _ = act(s2, 0, "flip A1")
    s4, _ = act(s3, 0, "stop")
    assert s4["actor"] == 1
    s5, _ = act(s4, 1, "flip A2")  # the opponent's part of the plague, in seat 0's turn
    s6, _ = act(s5, 1, "stop")
    assert s6["plague"] is None and s6["turn"] == 1
    assert set(s6["blocked"]) == {"B2", "A1"}
    assert "A1" not in GAME.flippable(s6, 1) and "A2" in GAME.flippable(s6, 1)


def test_event_text_names_the_players_when_names_are_known() -> None:
    text = GAME.event_text("Seat 2 gives Seat 1 the red (R) vampire.", ["Ann", "Bob"])
    assert text == "Bob gives Ann the red (R) vampire."
    assert GAME.event_text("Seat 3 stops flipping.", []) == "Seat 3 stops flipping."
