"""The Dawn Under bot: a player with a perfect memory of what its seat was shown, and nothing more.

Everything that ever goes into a grave goes in while the lid is open for all to see, so a seat that
remembers every open lid knows exactly which graves hold vampires or garlic; graves never opened are
empty (or a rat). The bot therefore plays: known match first, then unexplored graves, never a known
trap, and gives away the vampires it has the least use for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.base import BotPolicy
from bot.rules.dawn_under.game import Action
from bot.rules.rng import Rng

JSON = dict[str, Any]
UNKNOWN = "?"


class MemoryPolicy(BotPolicy[Action]):
    def observe(self, memory: JSON, view: JSON) -> JSON:
        graves: dict[str, list[str]] = {k: list(v) for k, v in memory.get("graves", {}).items()}
        plague = view.get("plague")
        center = plague["center"] if plague else None
        for cell in view["graves"]:
            gid = cell["id"]
            state = cell["state"]
            if state in ("open", "ajar"):
                holds = cell.get("holds")
                if holds is None:
                    what = "empty"
                elif "vampire" in holds:
                    what = f"v:{holds['vampire']}"
                else:
                    what = f"g:{holds['garlic']}"
                graves[gid] = [str(cell["lid"]), what]
            elif state == "closed" and gid in graves and graves[gid][0] == "rat" and gid != center:
                # the rat was discarded and an unseen reserve lid now covers the (empty) grave
                graves[gid] = [UNKNOWN, "empty"]
        me = view.get("seat")
        if me is not None:
            # listed only with the table option list_garlic=yes; otherwise the bot knows its garlic
            # as any player does, from the lid it hid it under (shown until the next move)
            for gid in view.get("my_garlic", []):
                graves.setdefault(gid, [UNKNOWN, f"g:{me}"])[1] = f"g:{me}"
        # a stall detector: with perfect memories every player can get stuck flipping the same
        # harmless graves for ever; the public counters stop moving, and the bot then shakes things up
        sig = [view["vampires_left"], view["garlic_in_hand"], view["stakes"], view["rats_found"]]
        stall = int(memory.get("stall", 0)) + 1 if memory.get("sig") == sig else 0
        return {"graves": graves, "sig": sig, "stall": stall}

    # -- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _availability(graves: dict[str, list[str]], colour: str, shown: set[str]) -> int:
        """How many remembered empty graves of this colour are still waiting (closed)."""
        return sum(1 for g, (lid, what) in graves.items() if lid == colour and what == "empty" and g not in shown)

    def choose(self, view: JSON, legal: Sequence[Action], memory: JSON, rng: Rng) -> Action:
        memory = self.observe(memory, view)
        graves: dict[str, list[str]] = memory["graves"]
        me = int(view["seat"])
        row = view["rows"][me]
        ends = {c for c in (row[0], row[-1]) if c} if row else set()
        shown = {c["id"] for c in view["graves"] if c["state"] == "open"}

        def avail(colour: str | None) -> int:
            return self._availability(graves, colour, shown) if colour else 0

        verbs = {a.verb for a in legal}
        if "flip" in verbs or verbs == {"stop"}:
            stalled = int(memory.get("stall", 0)) > 8 * int(view["players"])
            return self._flip(view, legal, graves, ends, me, rng, stalled)
        if "garlic" in verbs:
            g = next(a.grave for a in legal if a.verb == "garlic")
            near = {c for c in (row[:2] + row[-2:]) if c}
            lid = graves.get(g, [UNKNOWN])[0]
            want = next((a for a in legal if a.verb == ("close" if lid in near else "garlic")), None)
            return want or legal[0]
        if "sleep" in verbs:
            # sleep the end whose successor is easier to place next
            nxt = {"left": row[1] if len(row) > 1 else None, "right": row[-2] if len(row) > 1 else None}
            return max(legal, key=lambda a: (avail(nxt[a.side]), a.side == "left"))
        if "give" in verbs:
            end = {"left": row[0], "right": row[-1]}
            scores = [(avail(end[a.side]), rng.below(1000), a) for a in legal]
            return min(scores, key=lambda t: (t[0], t[1]))[2]
        if "put" in verbs:
            colours = sorted({a.colour for a in legal}, key=lambda c: (avail(c), c))
            first = colours[0]  # the least useful goes in first, so better gifts end up outermost
            end = {"left": row[0] if row else None, "right": row[-1] if row else None}
            options = [a for a in legal if a.colour == first]
            return min(options, key=lambda a: (avail(end[a.side]), a.side))
        return rng.choice(list(legal))

    def _flip(
        self,
        view: JSON,
        legal: Sequence[Action],
        graves: dict[str, list[str]],
        ends: set[str],
        me: int,
        rng: Rng,
        stalled: bool = False,
    ) -> Action:
        flips = [a for a in legal if a.verb == "flip"]
        stop = next((a for a in legal if a.verb == "stop"), None)
        known_match = [
            a for a in flips if graves.get(a.grave, [UNKNOWN, ""])[1] == "empty" and graves[a.grave][0] in ends
        ]
        if known_match:
            return rng.choice(known_match)
        unknown = [a for a in flips if a.grave not in graves]
        unknown_lid = [
            a for a in flips if graves.get(a.grave, ["", ""])[0] == UNKNOWN and graves[a.grave][1] == "empty"
        ]
        if unknown or unknown_lid:
            # never-opened graves are empty or a rat: safe, and a chance to match
            return (
                rng.choice(unknown_lid or unknown)
                if unknown_lid and rng.below(2)
                else rng.choice(unknown or unknown_lid)
            )
        if stop is not None:
            return stop
        stakes = int(view["stakes"][me])

        def badness(a: Action) -> int:
            what = graves.get(a.grave, [UNKNOWN, "empty"])[1]
            if what == "empty":
                return 0
            if what.startswith("v:"):
                return 1 if stakes < 2 else 3
            if what == f"g:{me}":
                return 4
            return 2

        if stalled:
            # free a grave of one of my colours by springing its garlic, or else anything at all
            freeing = [
                a for a in flips if graves.get(a.grave, ["", ""])[1].startswith("g:") and graves[a.grave][0] in ends
            ]
            return rng.choice(freeing) if freeing and rng.below(2) else rng.choice(flips)
        best = min(badness(a) for a in flips)
        return rng.choice([a for a in flips if badness(a) == best])
