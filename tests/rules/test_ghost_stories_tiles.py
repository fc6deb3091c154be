"""Scenario tests: the nine village tiles, the eight Taoist powers, Power tokens and neutral boards."""

from __future__ import annotations

import pytest

from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.data import FRONT, space_index, tile_name
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
    yin,
)


def at(s: dict, key: str, b: int = 0) -> None:
    s["boards"][b]["pos"] = tile(s, key)


# ----------------------------------------------------------------------------- tiles


def test_tea_house_gives_token_and_qi_then_a_ghost_arrives() -> None:
    s = blank(power_sides="first")
    at(s, "tea_house")
    s["deck"] += [gid("Skinner")]
    s, _ = act(s, "help blue")
    bd = s["boards"][0]
    assert bd["tao"]["blue"] == 1 and bd["qi"] == 4
    assert s["pending"]["kind"] == "place" and s["pending"]["card"] == gid("Skinner")


def test_altar_restores_a_haunted_tile_then_a_ghost_arrives() -> None:
    s = blank(power_sides="first")
    at(s, "altar")
    x = (tile(s, "altar") + 1) % 9
    s["tiles"][x]["haunted"] = True
    s["deck"] += [gid("Skinner")]
    s, _ = act(s, f"help {tile_name(x)}")
    assert not s["tiles"][x]["haunted"] and s["pending"]["kind"] == "place"


def test_altar_unavailable_without_haunted_tile() -> None:
    s = blank(power_sides="first")
    at(s, "altar")
    assert not any(a.startswith("help") for a in legal(s))


def test_herbalist_gives_tokens_of_rolled_colours_white_is_a_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    at(s, "herbalist")
    fix_rolls(monkeypatch, ["black", "white"])
    s, _ = act(s, "help")
    assert s["boards"][0]["tao"]["black"] == 1
    assert s["pending"]["kind"] == "take"
    s, _ = act(s, "take green")
    assert s["boards"][0]["tao"]["green"] == 1


def test_herbalist_limited_by_supply(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    at(s, "herbalist")
    s["supply"]["red"] = 0
    fix_rolls(monkeypatch, ["red", "red"])
    s, _ = act(s, "help")
    assert s["boards"][0]["tao"]["red"] == 1  # own starting token only


def test_sorcerers_hut_removes_a_ghost_without_rewards_for_one_qi() -> None:
    s = blank(power_sides="first")
    at(s, "sorcerer")
    k = put(s, "blue2", "Liquid Horror")
    s, _ = act(s, "help blue2")
    assert s["spaces"][k] is None and s["boards"][0]["qi"] == 2
    assert sum(s["boards"][0]["tao"].values()) == 1 and s["pending"] is None


def test_sorcerers_hut_cannot_remove_an_incarnation() -> None:
    s = blank(power_sides="first")
    at(s, "sorcerer")
    put(s, "blue2", "Dark Mistress")
    assert not any(a.startswith("help") for a in legal(s))


def test_temple_gives_a_buddha_and_unavailable_when_empty() -> None:
    s = blank(power_sides="first")
    at(s, "temple")
    s, _ = act(s, "help")
    assert s["temple"] == 1 and s["boards"][0]["buddhas"] == 1
    s2 = blank(power_sides="first")
    at(s2, "temple")
    s2["temple"] = 0
    assert "help" not in legal(s2)


def test_night_watchman_sends_haunting_figures_home() -> None:
    s = blank(power_sides="first")
    at(s, "watchman")
    k1 = put(s, "green1", "Ghoul", haunt=1)
    k2 = put(s, "green3", "Dark Wraith", haunt=1)
    s, _ = act(s, "help green")
    assert s["spaces"][k1]["haunt"] == 0 and s["spaces"][k2]["haunt"] == 0


def test_circle_of_prayer_lowers_resistance_and_swaps(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    at(s, "circle")
    s, _ = act(s, "help red")
    assert s["circle"] == "red" and s["supply"]["red"] == 2
    req, _, _ = core.requirement(s, put(s, "red1", "Scarlet Evildoer"))
    assert req == {"red": 2}
    s2 = blank(power_sides="first")
    s2["circle"] = "red"
    s2["supply"]["red"] -= 1
    at(s2, "circle")
    s2, _ = act(s2, "help blue")
    assert s2["circle"] == "blue" and s2["supply"]["red"] == 3


def test_circle_token_stays_after_exorcism(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["circle"] = "red"
    put(s, "red2", "Bleeding Eyes")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["red", "blue", "blue"])
    s, _ = act(s, "exorcise red2")
    assert s["spaces"][space_index("red2")] is None and s["circle"] == "red"


def test_pavilion_moves_a_ghost_with_its_figure_and_mantra_then_a_taoist() -> None:
    s = blank(power_sides="first")
    at(s, "pavilion")
    k = put(s, "red1", "Ghoul", haunt=1)
    s["mantra"] = k
    s, _ = act(s, "help red1")
    assert s["pending"]["kind"] == "blow" and len(legal(s)) == 11
    s, _ = act(s, "blow blue3")
    j = space_index("blue3")
    assert s["spaces"][k] is None and s["spaces"][j]["haunt"] == 1 and s["mantra"] == j
    assert s["pending"]["kind"] == "pavilion"
    assert "pavilion red a1" not in legal(s)  # not your own Taoist (except solo)
    s, _ = act(s, "pavilion yellow a1")
    assert s["boards"][1]["pos"] == 0


def test_pavilion_onto_a_buddha_destroys_the_ghost() -> None:
    s = blank(power_sides="first")
    at(s, "pavilion")
    put(s, "red1", "Ghoul")
    s["buddha_on"][space_index("green2")] = True
    s["temple"] = 1
    s, _ = act(s, "help red1")
    s, _ = act(s, "blow green2")
    assert s["spaces"][space_index("green2")] is None and s["temple"] == 2


def test_cemetery_revives_a_dead_taoist_and_rolls_the_curse(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    at(s, "cemetery")
    dead = s["boards"][2]
    dead["alive"], dead["qi"] = False, 0
    s["qi_supply"] += 3
    fix_rolls(monkeypatch, ["haunt"])
    s, _ = act(s, "help green")
    assert s["boards"][2]["alive"] and s["boards"][2]["qi"] == 2
    assert s["tiles"][tile(s, "cemetery")]["haunted"]  # the Haunt face hits the Cemetery itself


def test_cemetery_disabled_in_solo() -> None:
    s = blank(players=1)
    at(s, "cemetery")
    assert not core.help_args(s, 0, tile(s, "cemetery"))


# ----------------------------------------------------------------------------- powers


def test_twin_winds_moves_another_taoist_before_or_after_own_move() -> None:
    s = blank(power_sides="first")
    assert "push yellow a1" in legal(s)
    s, _ = act(s, "move a1")
    s, _ = act(s, "push yellow a2")
    assert s["boards"][1]["pos"] == 3
    assert not any(a.startswith("push") for a in legal(s))


def test_dance_of_the_peaks_flies_anywhere() -> None:
    s = blank(power_sides="second")
    s["boards"][0]["pos"] = 0
    moves = {a.split()[1] for a in legal(s) if a.startswith("move")}
    assert moves == {tile_name(x) for x in range(1, 9)}


def test_mantra_lowers_resistance_and_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["turn"] = 1
    core.start_yang(s)
    k = put(s, "yellow2", "Restless Dead")  # yellow 2
    s, _ = act(s, "mantra yellow2")
    assert s["mantra"] == k
    assert not any(a.startswith("mantra") for a in legal(s))
    stand_facing(s, 1, "yellow2")
    s["boards"][1]["tao"] = {c: 0 for c in s["boards"][1]["tao"]}
    fix_rolls(monkeypatch, ["yellow", "blue", "blue"])
    s, _ = act(s, "exorcise yellow2")
    assert s["spaces"][k] is None and s["mantra"] == "home"


def test_mantra_is_removed_when_its_power_is_sealed_and_usable_again_once_the_seal_lifts() -> None:
    """「若道士技能被封印，符咒將被移除」 — removed from its ghost, not from the game (the seed says
    「移除遊戲」 when it means that): once the seal lifts the Yellow Taoist may place it again."""
    s = blank(power_sides="first")
    assert s["mantra"] == "home"
    target = put(s, "red2", "Restless Dead")
    s["mantra"] = target
    put(s, "yellow1", "Coffin Breakers")  # the copy with the power-block icon
    assert core.card(s["spaces"][3])["states"] == ["POWER_BLOCK"]
    ev = yin(s, 2)
    assert s["mantra"] == "home" and "Mantra is removed from its ghost" in texts(ev)
    assert GAME.view(s, None)["spaces"][target]["mantra"] is False
    s["turn"] = 1
    s["pending"] = None
    core.start_yang(s)
    assert not any(a.startswith("mantra") for a in legal(s))  # sealed: no Mantra
    s["spaces"][3] = None  # the sealing ghost leaves
    assert "mantra red2" in legal(s)


def test_games_that_lost_the_mantra_for_good_keep_it_lost() -> None:
    s = blank(power_sides="first")
    s["mantra"] = "gone"
    s["turn"] = 1
    core.start_yang(s)
    put(s, "red2", "Restless Dead")
    assert not any(a.startswith("mantra") for a in legal(s))


def test_bottomless_pockets_takes_a_token_before_moving() -> None:
    s = blank(power_sides="second")
    s["turn"] = 1
    core.start_yang(s)
    s, _ = act(s, "pocket black")
    assert s["boards"][1]["tao"]["black"] == 1
    assert not any(a.startswith("pocket") for a in legal(s))


def test_second_wind_allows_two_helps_not_help_and_exorcise() -> None:
    s = blank(power_sides="first")
    s["turn"] = 3
    core.start_yang(s)
    at(s, "temple", 3)
    s, _ = act(s, "help")
    assert "help" in legal(s)
    s, _ = act(s, "help")
    assert s["boards"][3]["buddhas"] == 2 and "help" not in legal(s)


def test_heavenly_gust_allows_help_and_exorcism(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="second")
    s["turn"] = 3
    core.start_yang(s)
    k = put(s, "red2", "Skinner")
    s["boards"][3]["pos"] = FRONT[k]
    key = s["tiles"][FRONT[k]]["key"]
    fix_rolls(monkeypatch, ["red", "red", "red", "blank", "blank", "blank"])
    s, _ = act(s, "exorcise red2")
    assert s["spaces"][k] is None
    helps = [a for a in legal(s) if a.startswith("help")]
    assert helps or key in ("altar", "sorcerer", "watchman", "cemetery")
    assert not any(a.startswith("exorcise") for a in legal(s))


def test_strength_of_a_mountain_rolls_four_dice_and_no_curse(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["turn"] = 2
    core.start_yang(s)
    assert core.dice_count(s, 2) == 4
    put(s, "green1", "Great Putrid")  # a tormentor
    fix_rolls(monkeypatch, [])
    ev = yin(s, 2)
    assert "does not roll the curse die" in texts(ev)


def test_gods_favorite_rerolls_chosen_dice_once(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="second")
    s["turn"] = 2
    core.start_yang(s)
    k = put(s, "green1", "Restless Spirit")  # green 2
    s["boards"][2]["pos"] = FRONT[k]
    s["boards"][2]["tao"] = {c: 0 for c in s["boards"][2]["tao"]}
    fix_rolls(monkeypatch, ["green", "red", "red", "green", "blue"])
    s, _ = act(s, "exorcise green1")
    assert "keep" in legal(s) and "reroll 23" in legal(s)
    s, _ = act(s, "reroll 23")
    assert s["spaces"][k] is None


def test_gods_favorite_rerolls_a_bad_curse(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="second")
    put(s, "green1", "Great Putrid")
    fix_rolls(monkeypatch, ["qi", "blank"])
    yin(s, 2)
    assert s["pending"]["kind"] == "curse_reroll"
    s, _ = act(s, "reroll")
    assert s["boards"][2]["qi"] == 3


def test_power_block_ghost_disables_the_board_power() -> None:
    s = blank(power_sides="first")
    assert any(a.startswith("push") for a in legal(s))
    put(s, "red3", "Sharp-Nailed Mistresses")
    assert "POWER_BLOCK" in core.card(s["spaces"][2])["states"]
    assert not any(a.startswith("push") for a in legal(s))
    s["spaces"][2] = None
    put(s, "blue3", "Forgotten Ones")
    assert not any(a.startswith("push") for a in legal(s))


def test_power_tokens_borrow_a_neutral_power_and_land_on_centre() -> None:
    s = blank(players=2, power_sides="first")  # neutral: yellow (mantra), blue (second wind)
    put(s, "red2", "Skinner")
    assert "power blue" in legal(s) and "power yellow" in legal(s)
    s, _ = act(s, "power yellow")
    assert s["centre_tokens"] == 1 and s["boards"][0]["tokens"] == 0
    assert "mantra red2" in legal(s)


def test_taoist_ending_on_centre_picks_up_power_tokens() -> None:
    s = blank(players=2)
    s["centre_tokens"] = 2
    s["boards"][0]["tokens"] = 0
    s, _ = act(s, "end")
    assert s["boards"][0]["tokens"] == 2 and s["centre_tokens"] == 0


def test_taoist_ending_on_centre_may_pick_up_only_some_power_tokens() -> None:
    """「當某道士在正中央的村莊板塊上結束回合時，可從正中央的村莊板塊上拿取全部或部分的中立技能標記」

    All or part: `end` takes them all, `end 1` one of them, `end 0` none."""
    s = blank(players=3)
    s["centre_tokens"] = 2
    s["boards"][0]["tokens"] = 0
    ends = [a for a in legal(s) if a.startswith("end")]
    assert ends == ["end", "end 1", "end 0"]
    labels = [a.label for a in GAME.legal_actions(s, 0) if a.parts[0] == "end"]
    assert labels[1] == "End your turn, picking up 1 of the 2 Power tokens"
    s2, ev = act(s, "end 1")
    assert s2["boards"][0]["tokens"] == 1 and s2["centre_tokens"] == 1
    assert "picks up 1 Power token(s) from the centre tile, leaving 1 there" in texts(ev)
    s3, _ = act(s, "end 0")
    assert s3["boards"][0]["tokens"] == 0 and s3["centre_tokens"] == 2
    s["boards"][0]["pos"] = 0
    assert [a for a in legal(s) if a.startswith("end")] == ["end"]  # away from the centre
    from tests.rules.playout import assert_illegal

    assert_illegal(GAME, s, 0, GAME.parse_action("end 1"))


def test_haunted_neutral_board_power_cannot_be_borrowed() -> None:
    s = blank(players=2, power_sides="first")
    s["boards"][1]["qi"] = 0
    assert "power yellow" not in legal(s)


# ----------------------------------------------------------------------------- neutral boards


def test_neutral_board_plays_yin_steps_one_and_two_only(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(players=2)
    for sp in ("yellow1", "yellow2", "yellow3"):
        put(s, sp, "Zombie")
    ev = yin(s, 1)
    assert s["boards"][1]["qi"] == 2
    own = texts(ev).split("Yin phase of the Green board")[0]
    assert "overrun" in own and "arrives" not in own  # no arrival, no Yang: on to the next board


def test_neutral_board_curse_hits_a_living_player_without_tao_loss(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(players=2)
    put(s, "yellow1", "Lich")
    s["boards"][0]["tao"]["red"] = 1
    fix_rolls(monkeypatch, ["tao"])
    yin(s, 1)
    s, ev = act(s, "suffer red")
    assert s["boards"][0]["tao"]["red"] == 1 and "no effect for a neutral board" in texts(ev)


def test_neutral_board_at_zero_qi_becomes_haunted() -> None:
    s = blank(players=2)
    s["boards"][1]["qi"] = 1
    for sp in ("yellow1", "yellow2", "yellow3"):
        put(s, sp, "Zombie")
    ev = yin(s, 1)
    assert core.board_haunted(s, 1) and "haunted board" in texts(ev)


def test_solo_pavilion_may_move_own_taoist() -> None:
    s = blank(players=1)
    at(s, "pavilion")
    put(s, "red1", "Ghoul")
    s, _ = act(s, "help red1")
    s, _ = act(s, "blow red2")
    assert any(a.startswith("pavilion red") for a in legal(s))


def test_game_registered_and_renders_rules_doc_path() -> None:
    from bot.rules import get_game

    assert get_game("ghost_stories") is GAME
    assert GAME.rules_doc == "docs/rules/ghost_stories.md"


def test_yin_yang_help_with_a_choice_asks_for_it_next() -> None:
    s = blank(power_sides="first")
    t = tile(s, "circle")
    s, _ = act(s, f"yinyang {tile_name(t)}")
    assert s["pending"]["kind"] == "yyhelp" and not s["boards"][0]["yy"]
    assert "help blue" in legal(s)
    s, _ = act(s, "help blue")
    assert s["circle"] == "blue" and s["pending"] is None
    assert any(a.startswith("move") for a in legal(s))


def test_no_action_menu_exceeds_25_choices_per_verb() -> None:
    from collections import Counter

    from bot.rules import Rng

    for seed in range(6):
        s = GAME.new(1 + seed % 4, seed, {"power_sides": "second" if seed % 2 else "first"})
        pick = Rng.from_seed(seed)
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            acts = GAME.legal_actions(s, seat)
            per_verb = Counter(a.parts[0] for a in acts)
            assert max(per_verb.values()) <= 25, per_verb
            assert all(0 < len(GAME.describe_action(a)) <= 80 for a in acts)
            s, _ = GAME.apply(s, seat, pick.choice(acts))
