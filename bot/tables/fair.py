"""Provably fair randomness: every die roll and shuffle of a table comes from its seed, which is
committed to when the game starts and revealed when it ends, so anyone can check the game.

The commitment is `sha256("spooky-table/v1|<game>|<table id>|<seed>|<salt>")` in hex: shown on the
table's first board (and every board's footer, shortened) and by `/game verify`; it binds the seed
without telling it (the 128-bit salt makes guessing the seed from the commitment hopeless). At the end
the game-over message reveals seed and salt, and `/game verify` attaches the table's record: game,
options, seat count, seed, salt, commitment, every action in order and the SHA-256 of the final state.
`python -m bot replay RECORD.json` recomputes the commitment and replays the actions from the seed with
this project's own rules cores, so every roll and shuffle is checked. Pure: no Discord, no database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_
from bot.rules import GameError, get_game

FORMAT = "spooky-table/v1"


def commitment(game: str, table_id: int, seed: int, salt: str) -> str:
    return hashlib.sha256(f"{FORMAT}|{game}|{table_id}|{seed}|{salt}".encode()).hexdigest()


def state_digest(state: Mapping[str, Any]) -> str:
    """SHA-256 of a state's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def record(
    *,
    game: str,
    table_id: int,
    options: Mapping[str, str],
    seats: int,
    seed: int,
    salt: str,
    actions: Sequence[Mapping[str, Any]],
    final_state: Mapping[str, Any],
) -> dict[str, Any]:
    """What `/game verify` hands out for a finished table; `actions` are the log's rows in order as
    {"seq", "seat", "kind", "action", "undoes"?}."""
    return {
        "format": FORMAT,
        "game": game,
        "table": table_id,
        "options": dict(options),
        "seats": seats,
        "seed": seed,
        "salt": salt,
        "commitment": commitment(game, table_id, seed, salt),
        "actions": [dict(a) for a in actions],
        "final_state_sha256": state_digest(final_state),
    }


def verify(data: Mapping[str, Any], *, expected_commitment: str | None = None) -> tuple[bool, str]:
    """Check a record: its commitment, then a replay of every action from its seed to its final state.

    Returns (ok, one line saying what was checked or what does not match)."""
    try:
        if data.get("format") != FORMAT:
            return False, N_("not a {FORMAT} record", FORMAT=FORMAT)
        key, table_id, seed, salt = str(data["game"]), int(data["table"]), int(data["seed"]), str(data["salt"])
        made = commitment(key, table_id, seed, salt)
        if made != data.get("commitment") or (expected_commitment is not None and made != expected_commitment):
            return False, N_("the seed and salt do not match the commitment shown when the game started")
        game = get_game(key)
        state = game.new(int(data["seats"]), seed, data.get("options") or {})
        history: list[tuple[int, Any]] = []
        moves = 0
        for row in data["actions"]:
            if row["kind"] == "undo":
                seq, state = history.pop()
                if seq != int(row.get("undoes", -1)):
                    return False, N_("action {seq} undoes a move that is not the last one in effect", seq=row["seq"])
                continue
            history.append((int(row["seq"]), state))
            if row["kind"] == "move":
                state, _ = game.apply(state, int(row["seat"]), game.load_action(row["action"]))
                moves += 1
        if state_digest(game.dump_state(state)) != data["final_state_sha256"]:
            return False, N_("replaying the {moves} moves from the seed does not give the final state", moves=moves)
    except (KeyError, TypeError, ValueError, GameError) as err:
        return False, N_("the record cannot be replayed: {err}", err=str(err))
    return True, N_(
        "commitment matches; {moves} moves replayed from the seed give the recorded final state", moves=moves
    )
