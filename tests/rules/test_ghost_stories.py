"""Scenario tests: one behaviour of the Ghost Stories rules per test (see docs/rules/ghost_stories.md)."""

from __future__ import annotations

import pytest

from bot.rules.errors import IllegalAction
from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.data import FRONT, LINES, space_index, tile_name
from bot.rules.ghost_stories.game import payment_text
from tests.rules.playout import assert_illegal
from tests.rules.test_ghost_stories_helpers import (
    act,
    blank,
    fix_rolls,
    gid,
    legal,
    put,
    stand_facing,
    texts,
    tile,
    tname,
    yin,
)

# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("diff", core.DIFFICULTIES)
def test_setup_resources_per_level_and_player_count(players: int, diff: str) -> None:
    s = GAME.new(players, 3, {"difficulty": diff})
    seats = [bd for bd in s["boards"] if bd["seat"] is not None]
    neutral = [bd for bd in s["boards"] if bd["seat"] is None]
    assert len(seats) == players and len(neutral) == 4 - players
    for bd in neutral:
        assert bd["qi"] == 3 and sum(bd["tao"].values()) == 0 and not bd["yy"] and bd["tokens"] == 0
    for bd in seats:
        assert bd["qi"] == (4 if diff == "initiation" else 3)
        assert bd["yy"] == (diff != "hell")
        if players == 1:
            assert bd["tao"] == {"red": 1, "yellow": 1, "green": 1, "blue": 1, "black": 0}
            assert bd["tokens"] == 3
        else:
            assert bd["tao"][bd["colour"]] == 1
            assert bd["tao"]["black"] == 0  # the black token is an option (black_token=yes)
            assert bd["tokens"] == (1 if players < 4 else 0)
    assert s["temple"] == 2


def test_two_players_sit_opposite() -> None:
    s = GAME.new(2, 1, {})
    assert [bd["seat"] for bd in s["boards"]] == [0, None, 1, None]


def test_each_taoist_starts_with_one_token_of_their_own_colour() -> None:
    """「各玩家分發4個真氣標記、1個太極標記及1個代表自家顏色的法器標記置於自家圖板下方」

    One Tao token, of the Taoist's own colour: no black token by default, at Initiation either."""
    s = GAME.new(3, 1, {"difficulty": "initiation"})
    assert s["options"]["black_token"] == "no"
    for bd in s["boards"]:
        if bd["seat"] is not None:
            assert bd["tao"] == {c: int(c == bd["colour"]) for c in bd["tao"]}
    assert s["supply"]["black"] == 4


def test_black_token_option_at_initiation() -> None:
    s = GAME.new(3, 1, {"difficulty": "initiation", "black_token": "yes"})
    assert [bd["tao"]["black"] for bd in s["boards"]] == [1, 1, 1, 0]
    s = GAME.new(3, 1, {"difficulty": "normal", "black_token": "yes"})
    assert all(bd["tao"]["black"] == 0 for bd in s["boards"])


def test_solo_red_board_shows_dance_of_the_peaks() -> None:
    for seed in range(6):
        s = GAME.new(1, seed, {"power_sides": "first"})
        assert s["boards"][0]["power"] == "peaks"


def test_each_player_chooses_the_side_of_their_own_board() -> None:
    """「4位玩家選一代表色，並將代表自家色的玩家圖板任選一面為正面」

    By default (power_sides=choose) each player picks their board's side before the first Yin
    phase, in seat order; neutral boards show a random side."""
    s = GAME.new(3, 4, {})
    assert s["options"]["power_sides"] == "choose"
    assert s["pending"]["kind"] == "side" and GAME.to_act(s) == {0}
    assert legal(s) == ["side twin_winds", "side peaks"]
    assert "must choose which side of their board to play" in GAME.view(s, None)["status"]
    assert s["spaces"] == [None] * 12 and len(s["deck"]) == 51  # nothing happened yet
    s, ev = act(s, "side peaks")
    assert s["boards"][0]["power"] == "peaks" and GAME.to_act(s) == {1}
    assert "The Red Taoist plays the side of Dance of the Peaks." in texts(ev)
    assert legal(s) == ["side mantra", "side pockets"]
    s, _ = act(s, "side mantra")
    s, ev = act(s, "side favorite")
    assert [bd["power"] for bd in s["boards"][:3]] == ["peaks", "mantra", "favorite"]
    assert s["mantra"] == "home"
    assert "Yin phase of the Red board" in texts(ev) and len(s["deck"]) == 50  # Red's first ghost
    assert s["boards"][3]["power"] in ("second_wind", "gust")


def test_solo_chooses_nothing_the_red_board_is_fixed() -> None:
    s = GAME.new(1, 4, {})
    assert s["pending"] is None or s["pending"]["kind"] != "side"
    assert s["boards"][0]["power"] == "peaks"


def test_power_sides_option() -> None:
    s = GAME.new(4, 1, {"power_sides": "first"})
    assert [bd["power"] for bd in s["boards"]] == ["twin_winds", "mantra", "mountain", "second_wind"]
    s = GAME.new(4, 1, {"power_sides": "second"})
    assert [bd["power"] for bd in s["boards"]] == ["peaks", "pockets", "favorite", "gust"]


def test_taoists_start_on_centre_and_first_turn_draws_a_ghost() -> None:
    s = GAME.new(4, 5, {"power_sides": "random"})
    assert all(bd["pos"] == 4 for bd in s["boards"])
    in_play = sum(1 for g in s["spaces"] if g is not None)
    pending = s["pending"] is not None and s["pending"]["kind"] == "place"
    assert in_play == 1 or pending


def test_unknown_option_is_refused() -> None:
    with pytest.raises(IllegalAction):
        GAME.new(2, 1, {"difficulty": "easy"})


# ----------------------------------------------------------------------------- Yin phase


def test_haunter_advances_then_haunts_first_active_tile_and_returns_to_card() -> None:
    # 「…置於鬼怪牌前方玩家圖板的「出沒」標誌上」「…再往前移動置於玩家圖板最前方的「出沒村莊」標誌上」
    # 「若玩家圖板最前方的「出沒村莊」標誌處已放有鬼怪，則須將此鬼怪指示物前方的村莊板塊進行翻面」:
    # card → the board's haunt icon → its haunt-village icon → the tile is haunted (the third Yin phase)
    s = blank()
    k = put(s, "red2", "Ghoul")
    assert GAME.view(s, None)["spaces"][k]["ghost"]["haunts_in"] == 3
    for step in (1, 2):
        s["queue"] = []
        ev = yin(s, 0)
        assert s["spaces"][k]["haunt"] == step and not any(t["haunted"] for t in s["tiles"])
        assert GAME.view(s, None)["spaces"][k]["ghost"]["haunts_in"] == 3 - step
    assert "advances to the edge of the village" in texts(ev)
    s["queue"] = []
    yin(s, 0)
    assert s["spaces"][k]["haunt"] == 0
    assert s["tiles"][FRONT[k]]["haunted"]


def test_option_two_haunting_steps_haunts_every_second_yin_phase() -> None:
    s = blank(haunting="two")
    k = put(s, "red2", "Ghoul")
    yin(s, 0)
    assert s["spaces"][k]["haunt"] == 1 and not any(t["haunted"] for t in s["tiles"])
    assert GAME.view(s, None)["spaces"][k]["ghost"]["haunts_in"] == 1
    s["queue"] = []
    yin(s, 0)
    assert s["spaces"][k]["haunt"] == 0 and s["tiles"][FRONT[k]]["haunted"]


def test_games_stored_before_the_haunting_option_keep_two_steps() -> None:
    s = blank()
    del s["options"]["haunting"]
    k = put(s, "red2", "Ghoul", haunt=1)
    yin(s, 0)
    assert s["tiles"][FRONT[k]]["haunted"]


def test_haunting_skips_haunted_tiles_along_the_line() -> None:
    s = blank()
    k = put(s, "yellow1", "Ghoul", haunt=2)
    s["tiles"][LINES[k][0]]["haunted"] = True
    yin(s, 1)
    assert s["tiles"][LINES[k][1]]["haunted"]


def test_fast_haunter_starts_on_the_board_step() -> None:
    s = blank()
    s["deck"] = [gid("Dark Wraith")]
    s["turn"] = 0
    s["phase"] = "yin"
    ev: list = []
    core.draw(s, 0, ev)
    if s["pending"]:
        s, _ = act(s, "place red1")
    g = next(g for g in s["spaces"] if g is not None)
    assert g["haunt"] == 1


def test_tormentor_rolls_curse_die_in_its_yin_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank()
    put(s, "red1", "Lich")
    fix_rolls(monkeypatch, ["qi"])
    ev = yin(s, 0)
    assert s["boards"][0]["qi"] == 2
    assert "curse die" in texts(ev)


def test_curse_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank()
    k = put(s, "red1", "Lich")
    s["boards"][0]["tao"]["red"] = 2
    fix_rolls(monkeypatch, ["tao"])
    yin(s, 0)
    assert sum(s["boards"][0]["tao"].values()) == 0
    s2 = blank()
    put(s2, "red1", "Lich")
    fix_rolls(monkeypatch, ["haunt"])
    yin(s2, 0)
    assert s2["tiles"][FRONT[k]]["haunted"]
    s3 = blank()
    put(s3, "red1", "Lich")
    s3["deck"] = [gid("Hound of Depth"), gid("Ghoul")]
    fix_rolls(monkeypatch, ["ghost"])
    yin(s3, 0)
    assert s3["pending"]["kind"] == "place" and s3["pending"]["card"] == gid("Ghoul")
    s3, _ = act(s3, "place yellow2")
    names = {core.card(g)["name"] for g in s3["spaces"] if g is not None}
    assert names == {"Lich", "Ghoul"}  # the curse ghost; then the normal arrival awaits placement
    assert s3["pending"]["card"] == gid("Hound of Depth")
    s4 = blank()
    put(s4, "red1", "Lich")
    fix_rolls(monkeypatch, ["blank"])
    yin(s4, 0)
    assert s4["boards"][0]["qi"] == 3 and not any(t["haunted"] for t in s4["tiles"])


def test_board_overrun_costs_one_qi_and_skips_arrival() -> None:
    s = blank()
    for sp in ("red1", "red2", "red3"):
        put(s, sp, "Zombie")
    deck = len(s["deck"])
    yin(s, 0)
    assert s["boards"][0]["qi"] == 2
    assert len(s["deck"]) == deck


def test_ghost_arrival_goes_to_its_colour_board() -> None:
    s = blank()
    s["deck"] = [gid("Drowned Maiden")]
    yin(s, 0)
    assert s["pending"]["kind"] == "place"
    assert [core.space_name(k) for k in s["pending"]["spaces"]] == ["blue1", "blue2", "blue3"]


def test_black_ghost_goes_to_the_active_players_board() -> None:
    s = blank()
    s["deck"] = [gid("Gloomy Minion")]
    yin(s, 1)
    assert [core.space_name(k) for k in s["pending"]["spaces"]] == ["yellow1", "yellow2", "yellow3"]


def test_full_colour_board_lets_the_player_choose_any_free_space() -> None:
    s = blank()
    for sp in ("blue1", "blue2", "blue3"):
        put(s, sp, "Zombie")
    s["deck"] += [gid("Drowned Maiden")]
    yin(s, 0)
    assert len(s["pending"]["spaces"]) == 9
    s, _ = act(s, "place green2")
    assert core.card(s["spaces"][space_index("green2")])["name"] == "Drowned Maiden"
    assert s["phase"] == "yang"


def test_full_village_on_draw_costs_the_drawer_one_qi() -> None:
    s = blank()
    for k in range(12):
        s["spaces"][k] = {"id": gid("Zombie"), "haunt": None, "captured": False, "vulnerable": False}
    ev: list = []
    core.draw(s, 0, ev)
    assert s["boards"][0]["qi"] == 2


def test_ghost_landing_on_a_buddha_is_destroyed_and_buddha_returns() -> None:
    s = blank()
    s["buddha_on"][space_index("blue1")] = True
    s["temple"] = 1
    s["deck"] = [gid("Drowned Maiden")]
    yin(s, 0)
    s, _ = act(s, "place blue1")
    assert s["spaces"][space_index("blue1")] is None
    assert s["temple"] == 2 and gid("Drowned Maiden") in s["discard"]


def test_summoner_brings_another_ghost() -> None:
    s = blank()
    s["deck"] = [gid("Ghoul"), gid("Coffin Breakers")]
    yin(s, 0)
    while s["pending"]:
        s, _ = act(s, legal(s)[0])
    names = sorted(core.card(g)["name"] for g in s["spaces"] if g is not None)
    assert names == ["Coffin Breakers", "Ghoul"]


def test_haunt_now_arrival_haunts_immediately() -> None:
    s = blank()
    s["deck"] = [gid("Shapeless Evil")]
    yin(s, 0)
    s, _ = act(s, "place red3")
    assert s["tiles"][FRONT[space_index("red3")]]["haunted"]


def test_lose_qi_arrival_hits_the_drawer() -> None:
    s = blank()
    s["deck"] = [gid("Grave Walker")]
    yin(s, 0)
    s, _ = act(s, "place red1")
    assert s["boards"][0]["qi"] == 2


def test_group_tao_loss_asks_each_taoist_with_a_choice() -> None:
    s = blank()
    s["boards"][0]["tao"] = {"red": 1, "yellow": 0, "green": 0, "blue": 1, "black": 0}
    s["boards"][1]["tao"] = {"red": 0, "yellow": 1, "green": 0, "blue": 0, "black": 0}
    s["deck"] = [gid("Soul Eater")]
    yin(s, 0)
    s, _ = act(s, "place red1")
    assert s["boards"][1]["tao"]["yellow"] == 0 or s["pending"]["kind"] == "discard"
    assert s["pending"]["kind"] == "discard" and s["pending"]["seat"] == 0
    s, _ = act(s, "discard blue")
    assert s["boards"][0]["tao"] == {"red": 1, "yellow": 0, "green": 0, "blue": 0, "black": 0}
    assert s["boards"][1]["tao"]["yellow"] == 0


def test_ghosts_act_left_to_right() -> None:
    s = blank()
    put(s, "red1", "Ghoul", haunt=1)
    put(s, "red2", "Ghoul", haunt=1)
    ev = yin(s, 0)
    t = texts(ev)
    assert t.index("Red 1") < t.index("Red 2")


# ----------------------------------------------------------------------------- Yang phase


def test_move_is_to_an_adjacent_tile_including_diagonals() -> None:
    s = blank(power_sides="first")
    moves = sorted(a for a in legal(s) if a.startswith("move"))
    assert moves == sorted(f"move {tile_name(x)}" for x in range(9) if x != 4)
    s["boards"][0]["pos"] = 0
    moves = sorted(a.split()[1] for a in legal(s) if a.startswith("move"))
    assert moves == ["a2", "b1", "b2"]


def test_no_move_after_help_or_exorcism() -> None:
    s = blank(power_sides="first")
    s["boards"][0]["pos"] = tile(s, "temple")
    s, _ = act(s, "help")
    assert not any(a.startswith("move") for a in legal(s))
    assert legal(s) == ["end"] or "end" in legal(s)


def test_single_exorcism_success_needs_matching_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Bleeding Eyes")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["red", "white", "green"])
    s, ev = act(s, "exorcise red2")
    assert s["spaces"][k] is None and "exorcised" in texts(ev)


def test_exorcism_failure_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["boards"][0]["tao"] = {c: 0 for c in s["boards"][0]["tao"]}
    k = put(s, "red2", "Bleeding Eyes")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["red", "blue", "green"])
    s, ev = act(s, "exorcise red2")
    assert s["spaces"][k] is not None and "fails" in texts(ev)


def test_tao_tokens_complete_an_exorcism_including_a_neighbours(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Scarlet Evildoer")
    stand_facing(s, 0, "red2")
    s["boards"][1]["pos"] = s["boards"][0]["pos"]
    s["boards"][0]["tao"]["red"] = 1
    s["boards"][1]["tao"]["red"] = 1
    fix_rolls(monkeypatch, ["red", "blue", "green"])
    s, _ = act(s, "exorcise red2")
    assert "banish red2" in legal(s) and "banish none" in legal(s)
    s, _ = act(s, "banish red2")
    assert s["spaces"][k] is None
    assert s["boards"][0]["tao"]["red"] == 0 and s["boards"][1]["tao"]["red"] == 0


def test_corner_exorcism_against_two_ghosts_splits_the_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["boards"][0]["tao"] = {c: 0 for c in s["boards"][0]["tao"]}
    k1 = put(s, "red1", "Zombie")  # yellow 2
    corner = FRONT[k1]
    other = next(k for k in range(12) if FRONT[k] == corner and k != k1)
    s["spaces"][other] = {"id": gid("Skinner"), "haunt": 0, "captured": False, "vulnerable": False}  # red 1
    s["boards"][0]["pos"] = corner
    fix_rolls(monkeypatch, ["yellow", "white", "red", "blank", "blank"])
    s, _ = act(s, f"exorcise {core.space_name(min(k1, other))} {core.space_name(max(k1, other))}")
    assert s["spaces"][k1] is None and s["spaces"][other] is None


def test_corner_exorcism_may_succeed_on_one_ghost_only(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["boards"][0]["tao"] = {c: 0 for c in s["boards"][0]["tao"]}
    k1 = put(s, "red1", "Hopping Vampire")  # yellow 3
    corner = FRONT[k1]
    other = next(k for k in range(12) if FRONT[k] == corner and k != k1)
    s["spaces"][other] = {"id": gid("Skinner"), "haunt": 0, "captured": False, "vulnerable": False}
    s["boards"][0]["pos"] = corner
    fix_rolls(monkeypatch, ["yellow", "green", "red"])
    s, _ = act(s, f"exorcise {core.space_name(min(k1, other))} {core.space_name(max(k1, other))}")
    assert s["spaces"][k1] is not None and s["spaces"][other] is None


def test_centre_tile_cannot_exorcise() -> None:
    s = blank()
    put(s, "red2", "Zombie")
    assert not any(a.startswith("exorcise") for a in legal(s))


def test_yin_yang_help_of_a_distant_tile_then_token_is_spent() -> None:
    s = blank(power_sides="first")
    t = tname(s, "temple")
    s, _ = act(s, f"yinyang {t}")
    assert s["boards"][0]["buddhas"] == 1 and not s["boards"][0]["yy"]
    assert not any(a.startswith("yinyang") for a in legal(s))
    assert any(a.startswith("move") for a in legal(s))  # Yin-Yang is not the step-2 action


def test_yin_yang_restores_a_haunted_tile() -> None:
    s = blank()
    s["tiles"][2]["haunted"] = True
    s, _ = act(s, "yinyang restore c1")
    assert not s["tiles"][2]["haunted"]


def test_hell_has_no_yin_yang() -> None:
    s = blank(diff="hell")
    assert not any(a.startswith("yinyang") for a in legal(s))


def test_haunted_tile_gives_no_help_but_allows_exorcism(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Skinner")
    stand_facing(s, 0, "red2")
    s["tiles"][FRONT[k]]["haunted"] = True
    assert not any(a.startswith("help") for a in legal(s))
    assert "exorcise red2" in legal(s)


def test_buddha_taken_cannot_be_placed_the_same_turn_then_placed_later() -> None:
    s = blank(power_sides="first")
    s["boards"][0]["pos"] = tile(s, "temple")
    s, _ = act(s, "help")
    assert not any(a.startswith("buddha") for a in legal(s))
    s, _ = act(s, "end")
    s["turn"] = 0
    s["pending"] = None
    s["queue"] = []
    core.start_yang(s)
    stand_facing(s, 0, "red2")
    s, _ = act(s, "buddha red2")
    assert s["buddha_on"][space_index("red2")] and s["boards"][0]["buddhas"] == 0


def test_end_of_turn_passes_to_next_board() -> None:
    s = blank(players=2)
    s, ev = act(s, "end")
    assert "Yin phase of the Yellow board (neutral)" in texts(ev)
    assert s["turn"] == 2 or s["pending"] is not None


def test_not_your_turn_and_illegal_moves_are_refused() -> None:
    s = blank()
    assert_illegal(GAME, s, 1, GAME.parse_action("end"))
    assert_illegal(GAME, s, 0, GAME.parse_action("move b2"))
    assert_illegal(GAME, s, 0, GAME.parse_action("exorcise red1"))


def test_parse_and_format_notation() -> None:
    a = GAME.parse_action("  Move   B1 ")
    assert a.parts == ("move", "b1")
    assert GAME.format_action(a) == "move B1"
    with pytest.raises(Exception, match="Unknown action"):
        GAME.parse_action("dance")


def test_labels_describe_exorcism_need() -> None:
    s = blank(power_sides="first")
    put(s, "red2", "Scarlet Evildoer")
    stand_facing(s, 0, "red2")
    acts = GAME.legal_actions(s, 0)
    label = next(GAME.describe_action(a) for a in acts if a.parts == ("exorcise", "red2"))
    assert "needs 3 red" in label and len(label) <= 80


def test_exorcism_payment_label_names_whose_tokens_pay_own_first() -> None:
    s = blank(4)
    for b in range(4):
        s["boards"][b]["pos"] = 4
        s["boards"][b]["tao"] = {c: 0 for c in ("red", "yellow", "green", "blue", "black")}
    s["boards"][0]["tao"]["black"] = 1
    s["boards"][2]["tao"]["black"] = 2
    s["boards"][3]["tao"]["red"] = 1
    s["boards"][1]["pos"] = 0  # not on the tile: never pays
    s["boards"][1]["tao"]["red"] = 5
    ways = core.allocations(s, 0, {"black": 2, "red": 1})
    assert payment_text(s, 0, ways[0]) == "1 black (yours) + 1 black (Green's) + 1 red (Blue's)"
    assert [payment_text(s, 0, w) for w in ways[1:]] == ["2 black (Green's) + 1 red (Blue's)"]
    assert payment_text(s, 0, []) == "no tokens"


def test_the_exorcist_chooses_whose_tokens_pay_when_there_is_a_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    # 「若有其他道士與該道士處於同一村莊板塊內，亦可提供對應顏色的法器」: tokens of Taoists on the same
    # tile may pay; which ones is the exorcist's choice (agreed with the team)
    s = blank(4)
    for b in range(4):
        s["boards"][b]["tao"] = {c: 0 for c in ("red", "yellow", "green", "blue", "black")}
    s["boards"][0]["tao"]["yellow"] = 1
    s["boards"][2]["tao"]["yellow"] = 1
    put(s, "red2", "Ghoul")  # a yellow ghost of resistance 1
    stand_facing(s, 0, "red2")
    s["boards"][2]["pos"] = s["boards"][0]["pos"]
    fix_rolls(monkeypatch, ["black", "black", "black"])
    s, _ = act(s, "exorcise red2")
    labels = [a.label for a in GAME.legal_actions(s, 0)]
    assert labels[0] == "Exorcise Ghoul on Red 2, paying 1 yellow (yours), or choose how"
    s, _ = act(s, "banish red2")
    assert s["pending"]["kind"] == "pay" and legal(s) == ["pay yellow-red", "pay yellow-green"]
    assert [a.label for a in GAME.legal_actions(s, 0)] == ["Pay 1 yellow (yours)", "Pay 1 yellow (Green's)"]
    assert_illegal(GAME, s, 0, GAME.parse_action("pay yellow-blue"))  # Blue is not on the tile
    assert_illegal(GAME, s, 2, GAME.parse_action("pay yellow-green"))  # only the exorcist answers
    s, ev = act(s, "pay yellow-green")
    assert s["boards"][2]["tao"]["yellow"] == 0 and s["boards"][0]["tao"]["yellow"] == 1
    assert s["spaces"][space_index("red2")] is None and "Pays 1 yellow Tao token (the Green Taoist's)." in texts(ev)


def test_a_single_way_to_pay_needs_no_second_question(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(4)
    s["boards"][0]["tao"] = {c: 0 for c in ("red", "yellow", "green", "blue", "black")}
    s["boards"][0]["tao"]["yellow"] = 1
    put(s, "red2", "Ghoul")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["black", "black", "black"])
    s, _ = act(s, "exorcise red2")
    s, _ = act(s, "banish red2")
    assert s["pending"] is None or s["pending"]["kind"] != "pay"
    assert s["boards"][0]["tao"]["yellow"] == 0 and s["spaces"][space_index("red2")] is None


def test_status_names_the_awaited_taoist_by_colour_and_shows_the_roll() -> None:
    s = blank(4)
    s["last_roll"] = {"kind": "tao", "faces": ["red", "white", "black"], "by": "red", "why": "exorcism"}
    s["pending"] = {"kind": "exorcism", "seat": 0, "t": 0, "targets": [0], "dice": ["red", "white", "black"]}
    status = GAME.view(s, None)["status"]
    assert "the Red Taoist (seat 1) must finish the exorcism (rolled red, white, black)" in status


def test_typed_actions_read_as_sentences_in_confirmations() -> None:
    typed = (
        "move b2",
        "end",
        "help red",
        "banish none",
        "exorcise red3 blue1",
        "side peaks",
        "reward yinyang",
        "pay black-green",
    )
    said = {t: GAME.describe_action(GAME.parse_action(t)) for t in typed}
    # the notation a player typed reads in words (a space, a power, a reward), in every language
    assert said == {
        "move b2": "Move to B2",
        "end": "End your turn",
        "help red": "Ask the villager for help: Red",
        "banish none": "Give up the exorcism",
        "exorcise red3 blue1": "Exorcise the ghost on Red 3, Blue 1",
        "side peaks": "Play the board side: Dance of the Peaks",
        "reward yinyang": "Reward: your Yin-Yang token",
        "pay black-green": "Pay with: 1 black (Green's)",
    }
    from bot.i18n import tr

    assert tr("zh-TW", said["exorcise red3 blue1"]) == "對以下位置的鬼怪降妖除魔：紅 3, 藍 1"


def test_spending_the_yin_yang_asks_first_and_other_actions_do_not() -> None:
    s = blank(power_sides="first")
    t = tname(s, "temple")
    text = GAME.confirm(s, 0, GAME.parse_action(f"yinyang {t}"))
    assert text is not None and text.startswith("Spend your Yin-Yang token") and text.endswith("?")
    s["tiles"][2]["haunted"] = True
    text = GAME.confirm(s, 0, GAME.parse_action("yinyang restore c1"))
    assert text is not None and "restore" in text
    for a in GAME.legal_actions(s, 0):
        if a.parts[0] != "yinyang":
            assert GAME.confirm(s, 0, a) is None, a
    assert GAME.confirm(s, 0, GAME.parse_action("yinyang z9")) is None  # not legal: apply says why


def _corner_two_skinners(monkeypatch: pytest.MonkeyPatch, **opts: str) -> tuple[dict, int, int]:
    """From A3 (Red 1 and Yellow 3) against two ghosts of red 1 each, rolling one red die and two blanks."""
    s = blank(power_sides="first", **opts)
    s["boards"][0]["tao"] = {c: 0 for c in s["boards"][0]["tao"]}
    k1, k2 = put(s, "red1", "Skinner"), put(s, "yellow3", "Skinner")
    s["boards"][0]["pos"] = FRONT[k1]
    fix_rolls(monkeypatch, ["red", "black", "black"])
    s, _ = act(s, "exorcise red1 yellow3")
    return s, k1, k2


def test_corner_dice_split_one_die_counts_for_one_ghost(monkeypatch: pytest.MonkeyPatch) -> None:
    s, k1, k2 = _corner_two_skinners(monkeypatch)
    assert s["spaces"][k1] is not None and s["spaces"][k2] is not None
    assert sorted(legal(s)) == ["banish none", "banish red1", "banish yellow3"]


def test_corner_dice_each_the_roll_counts_for_both_ghosts(monkeypatch: pytest.MonkeyPatch) -> None:
    # reading 16: 「若擲骰結果符合2張鬼怪牌的驅除條件，可同時將此2張鬼怪牌丟至棄牌區」
    s, k1, k2 = _corner_two_skinners(monkeypatch, corner_dice="each")
    assert s["spaces"][k1] is None and s["spaces"][k2] is None


def test_corner_dice_each_tokens_pay_each_ghosts_shortfall(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first", corner_dice="each")
    s["boards"][0]["tao"] = {c: 0 for c in s["boards"][0]["tao"]}
    s["boards"][0]["tao"]["red"] = 1
    k1 = put(s, "red1", "Bleeding Eyes")  # red 2, as the other
    put(s, "yellow3", "Bleeding Eyes")
    s["boards"][0]["pos"] = FRONT[k1]
    fix_rolls(monkeypatch, ["red", "black", "black"])
    s, _ = act(s, "exorcise red1 yellow3")
    assert sorted(legal(s)) == ["banish none", "banish red1", "banish yellow3"]  # one token, not two
