"""Scenario tests: ghost abilities, the ten incarnations, death, the three losses, scoring, open questions."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules.errors import NotYourTurn
from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.data import FRONT, LINES, OPPOSITE, space_index
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
    yin,
)


def no_tokens(s: dict, b: int = 0) -> None:
    for c in s["boards"][b]["tao"]:
        s["supply"][c] += s["boards"][b]["tao"][c]
        s["boards"][b]["tao"][c] = 0


# ----------------------------------------------------------------------------- ghost abilities


def test_captured_die_reduces_exorcism_dice_until_the_captor_leaves() -> None:
    s = blank(power_sides="first")
    k = put(s, "blue1", "Severed Heads")
    assert core.dice_count(s, 0) == 2
    put(s, "blue2", "Severed Heads")
    assert core.dice_count(s, 0) == 1
    s["spaces"][k] = None
    assert core.dice_count(s, 0) == 2


def test_dice_immune_ghost_needs_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    no_tokens(s)
    k = put(s, "red2", "Reaper")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["red", "red", "white"])
    s, ev = act(s, "exorcise red2")
    assert s["spaces"][k] is not None and "fails" in texts(ev)
    s2 = blank(power_sides="first")
    k = put(s2, "red2", "Reaper")
    stand_facing(s2, 0, "red2")
    fix_rolls(monkeypatch, ["blue", "blue", "blue"])
    s2, _ = act(s2, "exorcise red2")
    s2, _ = act(s2, "banish red2")
    assert s2["spaces"][k] is None and s2["boards"][0]["tao"]["red"] == 0


def test_tao_lock_forbids_spending_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Skinner")
    put(s, "green1", "Black Widow")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["blue", "blue", "blue"])
    s, _ = act(s, "exorcise red2")
    assert s["spaces"][k] is not None and s["boards"][0]["tao"]["red"] == 1


def test_reward_two_tao_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    no_tokens(s)
    s["circle"] = "red"  # 4 red - 1 = 3
    k = put(s, "red2", "Flesh Devourer")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["red", "red", "white"])
    s, _ = act(s, "exorcise red2")
    assert s["spaces"][k] is None
    s, _ = act(s, "take black")  # reward choice only when ≥ 2 colours are available
    s, _ = act(s, "take green")
    assert s["boards"][0]["tao"]["black"] == 1 and s["boards"][0]["tao"]["green"] == 1


def test_reward_qi_or_yin_yang(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    s["boards"][0]["yy"] = False
    s["circle"] = "red"
    k = put(s, "red2", "Raging One")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["red", "red", "white", "blank"])
    s, _ = act(s, "exorcise red2")
    assert s["spaces"][k] is None
    assert sorted(legal(s)) == ["reward qi", "reward yinyang"]
    s, _ = act(s, "reward yinyang")
    assert s["boards"][0]["yy"]


def test_exit_curse_then_reward(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    no_tokens(s)
    s["boards"][0]["yy"] = True
    k = put(s, "red2", "Black Widow")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["black", "black", "red", "qi"])
    s, ev = act(s, "exorcise red2")
    assert s["spaces"][k] is None
    assert s["boards"][0]["qi"] == 3  # -1 from the curse, +1 reward (Yin-Yang already held)
    assert texts(ev).index("curse die") < texts(ev).index("gains 1 Qi")


def test_buddha_and_sorcerer_give_no_rewards_or_curses() -> None:
    s = blank(power_sides="first")
    s["deck"] += [gid("Blood Drinker")]
    s["buddha_on"][space_index("red1")] = True
    s["temple"] = 1
    yin(s, 0)
    s, ev = act(s, "place red1")
    assert "destroyed" in texts(ev) and s["pending"] is None


# ----------------------------------------------------------------------------- incarnations


def test_howling_nightmare_needs_the_opposite_space_empty_and_summons() -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Howling Nightmare")
    put(s, core.space_name(OPPOSITE[k]), "Zombie")
    stand_facing(s, 0, "red2")
    assert "exorcise red2" not in legal(s)
    s["spaces"][OPPOSITE[k]] = None
    assert "exorcise red2" in legal(s)
    assert "SUMMON" in core.CARDS[gid("Howling Nightmare")]["arrival"]


def test_uncatchable_only_on_a_buddha(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Uncatchable")
    stand_facing(s, 0, "red2")
    assert "exorcise red2" not in legal(s)
    s2 = blank(power_sides="first")
    s2["buddha_on"][space_index("red2")] = True
    s2["temple"] = 1
    s2["deck"] += [gid("Uncatchable")]
    fix_rolls(monkeypatch, ["blank"])
    yin(s2, 0)
    s2, ev = act(s2, "place red2")
    g = s2["spaces"][space_index("red2")]
    assert g is not None and g["vulnerable"] and s2["temple"] == 2
    assert "curse die" in texts(ev)  # its arrival effect
    stand_facing(s2, 0, "red2")
    assert "exorcise red2" in legal(s2)
    del k


def test_hope_killer_needs_two_of_each_colour_and_curses_on_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(diff="nightmare", power_sides="first")
    s["incarnations"] = 2
    k = put(s, "red2", "Hope Killer")
    stand_facing(s, 0, "red2")
    s["boards"][0]["tao"] = {"red": 2, "yellow": 2, "green": 2, "blue": 1, "black": 0}
    s["supply"]["blue"] -= 0
    fix_rolls(monkeypatch, ["blue", "black", "black", "blank"])
    s, _ = act(s, "exorcise red2")
    assert "banish red2" in legal(s)
    s, ev = act(s, "banish red2")
    assert s["spaces"][k] is None and "curse die" in texts(ev)
    assert s["banished_incarnations"] == 1 and s["result"] is None


def test_death_army_is_a_tormentor_with_exit_curse(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank()
    put(s, "red2", "Death Army")
    fix_rolls(monkeypatch, ["qi"])
    yin(s, 0)
    assert s["boards"][0]["qi"] == 2
    assert "CURSE" in core.CARDS[gid("Death Army")]["exit"]


def test_forgotten_ones_blocks_every_power_including_borrowed() -> None:
    s = blank(players=2, power_sides="first")
    put(s, "green2", "Forgotten Ones")
    assert not any(a.startswith(("push", "power")) for a in legal(s))


@pytest.mark.parametrize("scope,expected", [("all", 0), ("board", 1)])
def test_bone_cracker_yin_tao_loss_scope(scope: str, expected: int) -> None:
    s = blank(power_sides="first", bone_cracker=scope)
    put(s, "red2", "Bone Cracker")
    s["boards"][0]["tao"] = {"red": 1, "yellow": 0, "green": 0, "blue": 0, "black": 0}
    s["boards"][1]["tao"] = {"red": 0, "yellow": 1, "green": 0, "blue": 0, "black": 0}
    yin(s, 0)
    assert s["boards"][0]["tao"]["red"] == 0
    assert s["boards"][1]["tao"]["yellow"] == expected


def _tokens(s: dict[str, Any], *colours: str) -> None:
    for b, c in enumerate(colours):
        s["boards"][b]["tao"] = {x: int(x == c) for x in ("red", "yellow", "green", "blue", "black")}


def test_bone_cracker_arrival_hits_all_then_only_its_boards_player() -> None:
    """「進場時所有玩家須丟棄一個法器標記，每回合此一化身所擺置遊戲圖板的玩家須丟棄一個法器標記」

    On arrival every Taoist discards; in each of its board's Yin phases only that board's player.
    This is the default (option bone_cracker=board)."""
    s = blank(power_sides="first")
    assert s["options"]["bone_cracker"] == "board"
    _tokens(s, "red", "yellow", "green", "blue")
    s["deck"] = [gid("Zombie")] * 5 + [gid("Bone Cracker")]
    yin(s, 0)
    if s["pending"] is not None:
        s, _ = act(s, "place red2")
    assert all(sum(bd["tao"].values()) == 0 for bd in s["boards"])
    _tokens(s, "red", "yellow", "green", "blue")
    s["queue"] = []
    yin(s, 0)
    assert [sum(bd["tao"].values()) for bd in s["boards"]] == [0, 1, 1, 1]


def test_bone_cracker_on_a_neutral_board_the_team_names_who_discards() -> None:
    """「每回合此一化身所擺置遊戲圖板的玩家須丟棄一個法器標記，並適用於中立遊戲圖板」

    It applies to a neutral board too: a neutral board has no tokens, so one living Taoist, named
    by the team as for a neutral board's curse, discards."""
    s = blank(players=2, power_sides="first")  # Yellow and Blue are neutral
    put(s, "yellow2", "Bone Cracker")
    _tokens(s, "red", "yellow", "green", "blue")
    ev = yin(s, 1)
    assert s["pending"]["kind"] == "victim" and GAME.shared_decision(s)
    assert legal(s, 0) == ["suffer red", "suffer green"]
    assert "choose who discards a Tao token for Bone Cracker" in GAME.view(s, None)["status"]
    assert "cracks bones" in texts(ev)
    s, ev = act(s, "suffer green", seat=0)
    assert s["boards"][2]["tao"]["green"] == 0 and s["boards"][0]["tao"]["red"] == 1
    assert "The team chooses the Green Taoist to discard a Tao token for Bone Cracker." in texts(ev)


def test_dead_taoists_board_curse_hits_the_roller_with_every_face(monkeypatch: pytest.MonkeyPatch) -> None:
    """「(3)中立遊戲圖板…(ii)鬼怪折磨：由其中一生存玩家進行投擲詛咒骰並承受擲骰結果，但其中「失去法寶」的結果無效」

    The exception is stated for neutral boards: on a dead Taoist's haunted board
    (「其他生存的玩家須承受來自此遊戲圖板上鬼怪牌的效果及影響」) the Tao-loss face takes every
    Tao token of the Taoist who rolls."""
    s = blank(players=4)
    s["boards"][1]["alive"] = False
    s["boards"][1]["qi"] = 0
    s["boards"][0]["tao"] = {"red": 1, "yellow": 0, "green": 0, "blue": 0, "black": 1}
    put(s, "yellow1", "Lich")
    fix_rolls(monkeypatch, ["tao"])
    yin(s, 1)
    assert s["pending"]["kind"] == "victim" and GAME.view(s, None)["pending"]["neutral"] is False
    s, ev = act(s, "suffer red", seat=0)
    assert sum(s["boards"][0]["tao"].values()) == 0
    assert "no effect" not in texts(ev)


def test_dead_taoists_board_curse_spares_strength_of_a_mountain(monkeypatch: pytest.MonkeyPatch) -> None:
    """「此外，綠衣道士「可不擲詛咒骰」的功能在此失效」 is said of neutral boards only: on a dead
    Taoist's board the Green Taoist with Strength of a Mountain still does not roll."""
    s = blank(players=4, power_sides="first")  # Green: Strength of a Mountain
    s["boards"][1]["alive"] = False
    s["boards"][1]["qi"] = 0
    put(s, "yellow1", "Lich")
    fix_rolls(monkeypatch, ["qi"])
    yin(s, 1)
    s, ev = act(s, "suffer green", seat=0)
    assert s["boards"][2]["qi"] == 3 and "does not roll the curse die" in texts(ev)


def test_neutral_board_curse_mountain_rolls_and_tao_face_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """「綠衣道士「可不擲詛咒骰」的功能在此失效」「其中「失去法寶」的結果無效」: on a neutral board."""
    s = blank(players=2, power_sides="first")  # Yellow neutral; Green: Strength of a Mountain
    s["boards"][2]["tao"] = {"red": 0, "yellow": 0, "green": 1, "blue": 0, "black": 0}
    put(s, "yellow1", "Lich")
    fix_rolls(monkeypatch, ["tao"])
    yin(s, 1)
    assert GAME.view(s, None)["pending"]["neutral"] is True
    s, ev = act(s, "suffer green", seat=0)
    assert "rolls the curse die" in texts(ev) and "no effect for a neutral board" in texts(ev)
    assert s["boards"][2]["tao"]["green"] == 1


def test_dark_mistress_locks_tao_tokens() -> None:
    s = blank()
    put(s, "blue2", "Dark Mistress")
    assert core.tao_locked(s) and core.token_pool(s, 0) == {}


def test_creeping_horror_captures_a_die() -> None:
    s = blank()
    s["deck"] += [gid("Creeping Horror")]
    yin(s, 0)
    s, _ = act(s, "place green1")
    assert s["spaces"][space_index("green1")]["captured"] and core.dice_count(s, 0) == 2


def test_vampire_lord_is_a_haunter() -> None:
    s = blank()
    k = put(s, "yellow2", "Vampire Lord")
    assert s["spaces"][k]["haunt"] == 0
    yin(s, 1)
    assert s["spaces"][k]["haunt"] == 1
    s["spaces"][k]["haunt"] = 2  # at the edge of the village: it haunts at the next Yin phase
    yin(s, 1)
    assert s["tiles"][FRONT[k]]["haunted"]


def test_nameless_clears_circle_and_whites_stop_being_wild(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank()
    s["circle"] = "red"
    s["supply"]["red"] -= 1
    s["deck"] += [gid("Nameless")]
    yin(s, 0)
    s, _ = act(s, "place red1")
    assert s["circle"] is None and s["supply"]["red"] == 3
    assert not core.whites_wild(s)


def test_incarnations_ignore_buddha_and_sorcerer() -> None:
    s = blank()
    s["buddha_on"][space_index("blue2")] = True
    s["temple"] = 1
    s["deck"] += [gid("Dark Mistress")]
    yin(s, 0)
    s, _ = act(s, "place blue2")
    assert core.card(s["spaces"][space_index("blue2")])["name"] == "Dark Mistress" and s["temple"] == 2


def test_exorcising_the_incarnation_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    put(s, "red2", "Vampire Lord")  # yellow 4
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["yellow", "yellow", "white"])
    s["boards"][0]["tao"]["yellow"] = 1
    s, _ = act(s, "exorcise red2")
    s, _ = act(s, "banish red2")
    assert s["result"] == "win" and not GAME.to_act(s)
    out = GAME.outcome(s)
    assert out is not None and out.winners == frozenset({0, 1, 2, 3}) and out.cooperative


def test_nightmare_incarnation_reward_is_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(diff="nightmare", power_sides="first")
    s["boards"][0]["yy"] = False
    s["boards"][2]["yy"] = False
    s["circle"] = "yellow"
    put(s, "red2", "Vampire Lord")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["yellow", "yellow", "white", "white"])
    s, _ = act(s, "exorcise red2")
    # 「玩家們可共同決定如何分配此獎勵」: the team decides, so every living Taoist's seat may answer
    assert s["pending"]["kind"] == "share" and GAME.to_act(s) == {0, 1, 2, 3} and GAME.shared_decision(s)
    s, _ = act(s, "give yellow", seat=3)
    assert s["boards"][1]["qi"] == 4
    assert GAME.legal_actions(s, 1) == GAME.legal_actions(s, 2)  # the Yin-Yang: again anyone's call
    s, _ = act(s, "give green", seat=1)
    assert s["boards"][2]["yy"] and s["banished_incarnations"] == 1
    assert GAME.to_act(s) == {0} and not GAME.shared_decision(s)  # back to the exorcist's turn


# ----------------------------------------------------------------------------- death and losses


def test_death_returns_belongings_and_haunts_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(players=2)
    s["boards"][0]["qi"] = 1
    s["boards"][0]["buddhas"] = 1
    s["temple"] = 1
    s["boards"][0]["tokens"] = 1
    for sp in ("red1", "red2", "red3"):
        put(s, sp, "Zombie")
    ev = yin(s, 0)
    bd = s["boards"][0]
    assert not bd["alive"] and bd["qi"] == 0 and sum(bd["tao"].values()) == 0 and not bd["yy"]
    assert s["temple"] == 2 and s["centre_tokens"] == 1
    assert bd["pos"] == tile(s, "cemetery") and core.board_haunted(s, 0)
    assert "dies" in texts(ev)


def test_dead_taoists_board_still_takes_yin_and_hits_living_players(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(players=2, power_sides="second")  # Green: The Gods' Favorite (Mountain would spare it)
    s["boards"][0]["alive"] = False
    s["boards"][0]["qi"] = 0
    put(s, "red2", "Lich")
    fix_rolls(monkeypatch, ["qi"])
    yin(s, 0)
    if s["pending"] is not None and s["pending"]["kind"] == "curse_reroll":
        s, _ = act(s, "keep")
    assert s["boards"][2]["qi"] == 2


def test_all_taoists_dead_loses() -> None:
    s = blank(players=1)
    s["boards"][0]["qi"] = 1
    for sp in ("red1", "red2", "red3"):
        put(s, sp, "Zombie")
    yin(s, 0)
    assert s["result"] == "lose" and "dead" in s["reason"]


@pytest.mark.parametrize("diff,limit", [("initiation", 4), ("normal", 3), ("hell", 3)])
def test_too_many_haunted_tiles_loses(diff: str, limit: int) -> None:
    s = blank(diff=diff)
    for x in (0, 2, 6, 8)[: limit - 1]:
        s["tiles"][x]["haunted"] = True
    k = put(s, "red2", "Ghoul", haunt=2)
    yin(s, 0)
    assert s["result"] == "lose" and f"{limit} village tiles" in s["reason"]
    assert s["tiles"][LINES[k][0]]["haunted"]


def test_deck_running_out_loses() -> None:
    s = blank()
    s["deck"] = [gid("Skinner")]
    yin(s, 0)
    s, _ = act(s, "place red1")
    assert s["result"] == "lose" and "deck" in s["reason"]


def test_score_on_defeat_and_victory() -> None:
    s = blank(diff="normal")
    s["deck"] = [gid("Zombie")] * 5
    s["tiles"][0]["haunted"] = True
    s["boards"][3]["alive"] = False
    s["boards"][3]["qi"] = 0
    s["result"], s["reason"] = "lose", "test"
    d = dict(GAME.outcome(s).details)  # type: ignore[union-attr]
    assert d.pop("reason_msg") == {"m": "test", "p": {}}  # the reason's message id, for every language
    assert d == {"victory": 0, "deck": -5, "qi": 9, "dead": -3, "haunted": -4, "incarnations": 0, "reason": "test"}
    s["result"] = "win"
    s["difficulty"] = "hell"
    s["banished_incarnations"] = 3
    d = GAME.outcome(s).details  # type: ignore[union-attr]
    assert d["victory"] == 20 and d["deck"] == 5 and d["incarnations"] == 12
    assert GAME.outcome(s).scores[0] == 20 + 5 + 9 - 3 - 4 + 12  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- open questions


def test_qi_loss_ghost_on_a_neutral_board_takes_the_neutral_boards_qi() -> None:
    """「失去真氣標誌：玩家或中立遊戲圖板失去1點真氣」

    A Qi-loss ghost placed on a neutral board takes the Qi from that board, not from the player who
    drew it."""
    s = blank(players=2)  # Yellow and Blue are neutral, 3 Qi each
    for sp in ("red1", "red2", "red3"):  # Red's board is full: the black ghost may go anywhere
        put(s, sp, "Zombie")
    s["deck"] += [gid("Grave Walker")]
    s["queue"] = [{"op": "draw", "by": 0}]
    core.run(s, [])
    s, ev = act(s, "place yellow1")
    assert s["boards"][1]["qi"] == 2 and s["boards"][0]["qi"] == 3
    assert "the neutral Yellow board loses 1 Qi" in texts(ev)


def test_qi_loss_ghost_on_an_empty_neutral_board_takes_nothing() -> None:
    s = blank(players=2)
    s["boards"][1]["qi"] = 0
    for sp in ("red1", "red2", "red3"):
        put(s, sp, "Zombie")
    s["deck"] += [gid("Grave Walker")]
    s["queue"] = [{"op": "draw", "by": 0}]
    core.run(s, [])
    s, ev = act(s, "place yellow1")
    assert s["boards"][0]["qi"] == 3 and "has no Qi to lose" in texts(ev)


def test_reading_arrival_effects_hit_the_drawer_not_the_board_owner() -> None:
    s = blank()
    s["deck"] += [gid("Grave Walker")]
    yin(s, 1)  # black ghost drawn by yellow lands on yellow's board; the yellow Taoist loses Qi
    s, _ = act(s, "place yellow1")
    assert s["boards"][1]["qi"] == 2 and s["boards"][0]["qi"] == 3


def test_reading_ghost_on_buddha_has_no_arrival_effect() -> None:
    s = blank()
    s["buddha_on"][space_index("yellow1")] = True
    s["temple"] = 1
    s["deck"] += [gid("Grave Walker")]
    yin(s, 1)
    s, _ = act(s, "place yellow1")
    assert s["boards"][1]["qi"] == 3


def _full_line_haunting(**opts: str) -> dict[str, Any]:
    """At Initiation (4 haunted tiles lose) a haunter haunts a line whose three tiles are haunted."""
    s = blank(diff="initiation", **opts)
    k = put(s, "red2", "Ghoul", haunt=2)
    for x in LINES[k]:
        s["tiles"][x]["haunted"] = True
    yin(s, 0)
    return s


def test_reading_line_fully_haunted_spares_the_village_by_default() -> None:
    s = _full_line_haunting()
    assert s["result"] is None  # the seed's losses: all Taoists dead, 4+ tiles haunted, the deck out
    assert sum(t["haunted"] for t in s["tiles"]) == 3


def test_reading_line_fully_haunted_loses_with_the_option_and_in_games_stored_before() -> None:
    assert _full_line_haunting(full_line="lost")["result"] == "lose"
    s = blank(diff="initiation")
    del s["options"]["full_line"]  # a game stored before the option existed keeps its rule
    k = put(s, "red2", "Ghoul", haunt=2)
    for x in LINES[k]:
        s["tiles"][x]["haunted"] = True
    yin(s, 0)
    assert s["result"] == "lose"


def test_reading_nameless_herbalist_white_gives_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    put(s, "blue2", "Nameless")
    s["boards"][0]["pos"] = tile(s, "herbalist")
    fix_rolls(monkeypatch, ["white", "white"])
    s, _ = act(s, "help")
    assert s["pending"] is None and s["boards"][0]["tao"]["red"] == 1


def test_reading_grey_die_never_captured() -> None:
    s = blank(power_sides="first")
    s["turn"] = 2
    core.start_yang(s)
    for sp in ("blue1", "blue2", "blue3"):
        put(s, sp, "Severed Heads")
    put(s, "yellow1", "Repellent Beauty")
    assert core.dice_count(s, 2) == 1


def test_reading_whose_tokens_pay_is_offered_own_first(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    put(s, "red2", "Bleeding Eyes")
    stand_facing(s, 0, "red2")
    s["boards"][1]["pos"] = s["boards"][0]["pos"]
    s["boards"][1]["tao"]["red"] = 1
    fix_rolls(monkeypatch, ["red", "blue", "blue"])
    s, _ = act(s, "exorcise red2")
    s, _ = act(s, "banish red2")
    assert legal(s) == ["pay red-red", "pay red-yellow"]  # the first (a bot's default) spends your own
    s, _ = act(s, "pay red-red")
    assert s["boards"][0]["tao"]["red"] == 0 and s["boards"][1]["tao"]["red"] == 1


def test_another_players_discard_choice_awaits_that_seat() -> None:
    s = blank()
    s["boards"][0]["tao"] = {"red": 0, "yellow": 0, "green": 0, "blue": 0, "black": 0}
    s["boards"][1]["tao"] = {"red": 1, "yellow": 1, "green": 0, "blue": 0, "black": 0}
    s["boards"][2]["tao"] = {"red": 0, "yellow": 0, "green": 0, "blue": 0, "black": 0}
    s["boards"][3]["tao"] = {"red": 0, "yellow": 0, "green": 0, "blue": 0, "black": 0}
    s["deck"] += [gid("Soul Eater")]
    yin(s, 0)
    s, _ = act(s, "place red1")
    assert GAME.to_act(s) == frozenset({1}) and s["pending"]["kind"] == "discard"
    assert not GAME.legal_actions(s, 0)
    s, _ = act(s, "discard red", seat=1)
    assert s["boards"][1]["tao"] == {"red": 0, "yellow": 1, "green": 0, "blue": 0, "black": 0}
    assert GAME.to_act(s) == frozenset({0})


def test_deck_out_during_yang_loses_after_the_step() -> None:
    s = blank(power_sides="first")
    s["boards"][0]["pos"] = tile(s, "tea_house")
    s["deck"] = [gid("Skinner")]
    s, _ = act(s, "help red")
    s, _ = act(s, "place red2")
    assert s["result"] == "lose" and "deck" in s["reason"]


def test_herbalist_reroll_with_gods_favorite(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="second")
    s["turn"] = 2
    core.start_yang(s)
    s["boards"][2]["pos"] = tile(s, "herbalist")
    fix_rolls(monkeypatch, ["red", "white", "blue"])
    s, _ = act(s, "help")
    assert "reroll 1" in legal(s)
    s, _ = act(s, "reroll 1")
    assert s["boards"][2]["tao"]["blue"] == 1 and s["pending"]["kind"] == "take"


def test_borrowed_strength_of_a_mountain_gives_a_fourth_die() -> None:
    s = blank(players=2, power_sides="first")  # neutral: yellow (mantra), blue (second wind)
    s["boards"][1]["power"] = "mountain"
    s["mantra"] = None
    assert core.dice_count(s, 0) == 3
    s, _ = act(s, "power yellow")
    assert core.dice_count(s, 0) == 4


def test_dying_in_your_own_yang_phase_ends_the_turn() -> None:
    s = blank(players=2, power_sides="first")
    s["boards"][0]["pos"] = tile(s, "sorcerer")
    s["qi_supply"] += s["boards"][0]["qi"] - 1
    s["boards"][0]["qi"] = 1
    put(s, "green2", "Zombie")
    s, ev = act(s, "help green2")
    assert not s["boards"][0]["alive"] and s["turn"] != 0
    assert "dies" in texts(ev)


def test_revived_taoist_plays_again() -> None:
    s = blank(players=2, power_sides="first")
    s["boards"][2]["alive"] = False
    s["qi_supply"] += s["boards"][2]["qi"]
    s["boards"][2]["qi"] = 0
    assert core.board_haunted(s, 2)
    s["boards"][0]["pos"] = tile(s, "cemetery")
    s["deck"] = [gid("Zombie")] * 10
    s, _ = act(s, "help green")
    while s["pending"]:
        s, _ = act(s, legal(s)[0])
    assert not core.board_haunted(s, 2)
    s, _ = act(s, "end")
    while s["pending"]:
        s, _ = act(s, legal(s)[0])
    assert s["turn"] == 2 and s["phase"] == "yang" and GAME.to_act(s) == frozenset({1})


def test_reward_one_tao_token(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    k = put(s, "red2", "Severed Heads")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["black", "red"])  # one die is captured by the ghost itself
    s, _ = act(s, "exorcise red2")
    assert s["spaces"][k] is None and s["pending"]["kind"] == "take"
    s, _ = act(s, "take yellow")
    assert s["boards"][0]["tao"]["yellow"] == 1 and s["pending"] is None


def test_nameless_white_faces_do_not_count_in_exorcism(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    no_tokens(s)
    put(s, "blue2", "Nameless")
    k = put(s, "red2", "Skinner")
    stand_facing(s, 0, "red2")
    fix_rolls(monkeypatch, ["white", "white", "white"])
    s, ev = act(s, "exorcise red2")
    assert s["spaces"][k] is not None and "fails" in texts(ev)


def test_reading_circle_lowers_that_colour_on_multicolour_incarnations() -> None:
    s = blank()
    k = put(s, "red2", "Hope Killer")
    s["circle"] = "blue"
    req, _, _ = core.requirement(s, k)
    assert req == {"red": 2, "yellow": 2, "green": 2, "blue": 1}


def test_reading_overrun_of_a_dead_taoists_board_does_nothing() -> None:
    s = blank(players=2)
    s["boards"][0]["alive"] = False
    s["qi_supply"] += s["boards"][0]["qi"]
    s["boards"][0]["qi"] = 0
    for sp in ("red1", "red2", "red3"):
        put(s, sp, "Zombie")
    ev = yin(s, 0)
    assert "no Qi left to lose" in texts(ev) and s["boards"][2]["qi"] == 3


def test_reading_neutral_curse_is_rolled_by_the_taoist_the_team_names(monkeypatch: pytest.MonkeyPatch) -> None:
    # 「由其中一生存玩家進行投擲詛咒骰並承受擲骰結果」: the living Taoists choose together who rolls
    s = blank(players=2)
    s["boards"][0]["qi"] = 2
    s["qi_supply"] += 1
    put(s, "yellow1", "Lich")
    fix_rolls(monkeypatch, ["qi"])
    ev = yin(s, 1)
    assert s["pending"]["kind"] == "victim" and GAME.to_act(s) == {0, 1} and GAME.shared_decision(s)
    assert legal(s, 0) == legal(s, 1) == ["suffer red", "suffer green"]
    assert "choose who rolls the curse die for Lich" in GAME.view(s, None)["status"]
    nothing_rolled = texts(ev)
    assert "rolls the curse die" not in nothing_rolled
    assert_illegal(GAME, s, 0, GAME.parse_action("suffer yellow"))  # a neutral board has no Taoist
    s, ev = act(s, "suffer red", seat=1)  # Green's player names Red (they agreed in chat)
    assert s["boards"][0]["qi"] == 1 and s["boards"][2]["qi"] == 3
    assert "The team chooses the Red Taoist to roll the curse die for Lich." in texts(ev)
    with pytest.raises(NotYourTurn):
        act(s, "suffer green", seat=0)  # the decision is made: a late click changes nothing


def test_neutral_curse_needs_no_choice_with_one_living_taoist(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(players=2)
    s["boards"][2]["alive"] = False
    s["boards"][2]["qi"] = 0
    put(s, "yellow1", "Lich")
    fix_rolls(monkeypatch, ["qi"])
    yin(s, 1)
    assert s["pending"] is None or s["pending"]["kind"] != "victim"
    assert s["boards"][0]["qi"] == 2  # Red, the only living Taoist, rolls without being asked


def test_reading_help_with_nothing_to_do_is_not_offered() -> None:
    s = blank(players=2)
    for key in ("watchman", "cemetery", "altar"):
        assert core.help_args(s, 0, tile(s, key)) == []


def _curse_brings_a_haunter(monkeypatch: pytest.MonkeyPatch, stored_before: bool = False) -> dict[str, Any]:
    """Red's Yin phase: the Raging One on Red 1 rolls the ghost face; a Skinner (a red haunter) arrives
    on Red 2, a space whose turn in the ghost actions is still to come."""
    s = blank(power_sides="first")  # Red: Twin Winds, so the Red Taoist rolls the curse die
    if stored_before:
        s.pop("rev", None)  # a game stored before the rules revision keeps its rule
    put(s, "red1", "Raging One")
    s["deck"] = [gid("Zombie")] * 5 + [gid("Skinner")]
    fix_rolls(monkeypatch, ["ghost"])
    yin(s, 0)
    s, _ = act(s, "place red2")
    return s


def test_yin_ghosts_that_arrive_during_the_ghost_actions_do_not_act(monkeypatch: pytest.MonkeyPatch) -> None:
    # 「A.鬼怪作祟 (i)鬼怪出沒 … (ii)鬼怪折磨」: the haunting figures advance before the curse dice are
    # rolled, so a haunter a curse brings in has missed this Yin phase's haunting step
    s = _curse_brings_a_haunter(monkeypatch)
    assert s["spaces"][space_index("red2")]["haunt"] == 0


def test_yin_ghost_actions_in_games_stored_before_the_fix_act_space_by_space(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _curse_brings_a_haunter(monkeypatch, stored_before=True)
    assert s["spaces"][space_index("red2")]["haunt"] == 1


def test_yin_haunting_figures_advance_before_any_curse_is_rolled(monkeypatch: pytest.MonkeyPatch) -> None:
    s = blank(power_sides="first")
    put(s, "red1", "Raging One")
    put(s, "red3", "Ghoul", haunt=2)
    fix_rolls(monkeypatch, ["blank"])
    ev = texts(yin(s, 0))
    assert ev.index("enters the village") < ev.index("curse die")
