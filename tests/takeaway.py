"""A tiny two-player game that only the tests register: it exercises every platform path.

Setup: a pile of tokens; each player holds a hidden hand of number cards (1..3) drawn from a
shuffled deck. First both players secretly and simultaneously *bid* one card (the higher bid moves
first, ties: seat 0), then in turn each player plays a card to take that many tokens (never more
than remain) and draws a replacement. Taking the last token wins. A player with no playable card
must `pass`: they draw a card, or lose if the deck is empty.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules import BotPolicy, Event, Game, InvalidInput, OptionSpec, Outcome, Rng

Action = tuple[str, int]  # ("bid", card) | ("take", card) | ("pass", 0)


class GreedyPolicy(BotPolicy[Action]):
    """Takes the biggest card; remembers how many turns it has played (proves memory persists)."""

    def observe(self, memory: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
        return {**memory, "seen": int(memory.get("seen", 0)) + 1}

    def choose(self, view: dict[str, Any], legal: Sequence[Action], memory: dict[str, Any], rng: Rng) -> Action:
        return max(legal, key=lambda a: a[1])


class TakeAway(Game[dict[str, Any], Action]):
    key = "takeaway"
    title = "Take-Away"
    min_players = 2
    max_players = 2
    summary = "Bid secretly, then take tokens with hidden cards; the last token wins."
    options = (OptionSpec("pile", "How many tokens start in the pile", ("7", "11", "15"), "11"),)
    has_private_info = True

    def new(self, num_players: int, seed: int, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        self.check_players(num_players)
        opts = self.check_options(options)
        rng = Rng.from_seed(seed)
        deck = rng.shuffled([1, 2, 3] * 8)
        hands = [sorted(deck[0:3]), sorted(deck[3:6])]
        return {
            "pile": int(opts["pile"]),
            "deck": deck[6:],
            "hands": hands,
            "bids": [None, None],
            "phase": "bid",
            "turn": 0,
            "winner": None,
            "rng": rng.state,
        }

    def to_act(self, state: dict[str, Any]) -> frozenset[int]:
        if state["winner"] is not None:
            return frozenset()
        if state["phase"] == "bid":
            return frozenset(s for s in (0, 1) if state["bids"][s] is None)
        return frozenset({state["turn"]})

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        hand = sorted(set(state["hands"][seat]))
        if state["phase"] == "bid":
            return [("bid", c) for c in hand]
        takes: list[Action] = [("take", c) for c in hand if c <= state["pile"]]
        return takes or [("pass", 0)]

    def _apply(self, state: dict[str, Any], seat: int, action: Action) -> tuple[dict[str, Any], list[Event]]:
        action = self.find_legal(state, seat, action)
        s = copy.deepcopy(state)
        verb, card = action
        if verb == "bid":
            s["bids"][seat] = card
            events = [Event(f"Seat {seat + 1} has bid.", {seat: f"You bid {card}."})]
            if all(b is not None for b in s["bids"]):
                s["phase"] = "play"
                s["turn"] = 0 if s["bids"][0] >= s["bids"][1] else 1
                events.append(Event(f"Bids revealed: {s['bids'][0]} vs {s['bids'][1]}; seat {s['turn'] + 1} starts."))
            return s, events
        if verb == "pass":
            if not s["deck"]:
                s["winner"] = 1 - seat
                return s, [
                    Event(f"Seat {seat + 1} cannot play and the deck is empty: seat {2 - seat} wins!", kind="end")
                ]
            s["hands"][seat].append(s["deck"].pop())
            s["hands"][seat].sort()
            s["turn"] = 1 - seat
            return s, [Event(f"Seat {seat + 1} cannot play, draws a card and passes.")]
        s["hands"][seat].remove(card)
        s["pile"] -= card
        if s["deck"]:
            s["hands"][seat].append(s["deck"].pop())
            s["hands"][seat].sort()
        events = [Event(f"Seat {seat + 1} takes {card}; {s['pile']} left.")]
        if s["pile"] == 0:
            s["winner"] = seat
            events.append(Event(f"Seat {seat + 1} takes the last token and wins!", kind="end"))
        else:
            s["turn"] = 1 - seat
        return s, events

    def undo_refusal(
        self,
        before: dict[str, Any],
        seat: int,
        action: Action,
        after: dict[str, Any],
        events: Sequence[Event],
    ) -> str | None:
        """A bid before the reveal, or a take that drew no card, showed nothing: it may be taken back."""
        if action[0] == "bid":
            return "it revealed the bids" if after["phase"] != "bid" else self.undo_blocker(before, seat, after, events)
        if action[0] == "take" and before["deck"]:
            return "you drew a card"
        if action[0] == "pass":
            return "you drew a card" if before["deck"] else "it ended the game"
        return self.undo_blocker(before, seat, after, events)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        bidding = state["phase"] == "bid"
        v: dict[str, Any] = {
            "pile": state["pile"],
            "deck_count": len(state["deck"]),
            "hand_counts": [len(h) for h in state["hands"]],
            "phase": state["phase"],
            "decided": [b is not None for b in state["bids"]],
            "bids": None if bidding else list(state["bids"]),
            "turn": None if bidding else state["turn"],
            "winner": state["winner"],
            "seat": seat,
        }
        if seat is not None:
            v["hand"] = list(state["hands"][seat])
            v["my_bid"] = state["bids"][seat]
        v["status"] = self._status(v)
        return v

    @staticmethod
    def _status(v: dict[str, Any]) -> str:
        if v["winner"] is not None:
            return f"Seat {v['winner'] + 1} won."
        if v["phase"] == "bid":
            return "Both players bid secretly."
        return f"{v['pile']} tokens left; seat {v['turn'] + 1} to play."

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        w = state["winner"]
        if w is None:
            return None
        scores = tuple(1 if s == w else 0 for s in (0, 1))
        return Outcome(scores, ((w,), (1 - w,)), frozenset({w}), f"Seat {w + 1} took the last token.")

    def dump_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load_state(self, data: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(data)

    def dump_action(self, action: Action) -> dict[str, Any]:
        return {"verb": action[0], "n": action[1]}

    def load_action(self, data: dict[str, Any]) -> Action:
        return (str(data["verb"]), int(data["n"]))

    def format_action(self, action: Action) -> str:
        return "pass" if action[0] == "pass" else f"{action[0]} {action[1]}"

    def parse_action(self, text: str) -> Action:
        parts = text.strip().lower().split()
        if parts == ["pass"]:
            return ("pass", 0)
        if len(parts) == 2 and parts[0] in ("bid", "take") and parts[1].isdigit():
            return (parts[0], int(parts[1]))
        raise InvalidInput(f"Cannot read {text!r}: write 'bid N', 'take N' or 'pass'.")

    def bot_policy(self) -> BotPolicy[Action]:
        return GreedyPolicy()


GAME = TakeAway()
