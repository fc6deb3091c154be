"""A bounded cache of parsed game states, keyed so that it never serves a state the row no longer holds.

Its own module, free of the store's drivers, so that the render workers (`rendering.panels`) keep their
parsed states with the same rule as the store does without importing aiosqlite and asyncpg.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any


class StateCache:
    """Parsed game states by table, so a read at a version already parsed does not parse it again.

    A move reads its table several times (the gate, the delivery, the board), and each read used to
    parse the state JSON anew. An entry is served only when the row just read has the entry's version
    *and* its very state text (one memory compare, far cheaper than parsing), so a state another
    connection or process wrote is never served stale, whatever the engine. Bounded by entries and by
    the bytes of state text held (the parsed objects take a few times that); least recently used goes.
    The parsed state is shared by every TableRow read at that version: readers must not mutate it
    (the rules' `load_state` copies it before a move changes it).
    """

    def __init__(self, entries: int = 128, text_bytes: int = 1 << 20) -> None:
        self.max_entries = entries
        self.max_bytes = text_bytes
        self._entries: OrderedDict[int, tuple[int, str, dict[str, Any]]] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def parsed(self, table_id: int, version: int, text: str) -> dict[str, Any]:
        """The state of the row just read (its id, version and state text): cached or parsed now."""
        hit = self._entries.get(table_id)
        if hit is not None and hit[0] == version and hit[1] == text:
            self._entries.move_to_end(table_id)
            self.hits += 1
            return hit[2]
        self.misses += 1
        state: dict[str, Any] = json.loads(text)
        self.put(table_id, version, text, state)
        return state

    def put(self, table_id: int, version: int, text: str, state: dict[str, Any]) -> None:
        """Keep `state`, the parse of `text`, as the table's state at `version`."""
        old = self._entries.pop(table_id, None)
        if old is not None:
            self._bytes -= len(old[1])
        if len(text) > self.max_bytes:
            return
        self._entries[table_id] = (version, text, state)
        self._bytes += len(text)
        while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
            _, (_, dropped, _) = self._entries.popitem(last=False)
            self._bytes -= len(dropped)
