"""The contract every rules core implements, and the small value types it exchanges.

A rules core is pure: no discord, PIL, sqlite or asyncio; `apply` never mutates its input; chance
comes only from an `Rng` whose state lives inside the game state. The table service relies on these
properties to persist, replay and validate moves without knowing any game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from bot.i18n import N_, PSEUDO, Msg, Nn_, localized_path, t
from bot.rules.errors import GameOver, IllegalAction, NotYourTurn
from bot.rules.rng import Rng

S = TypeVar("S")  # a game's state type
A = TypeVar("A")  # a game's action type

JSON = dict[str, Any]

REPO_ROOT = Path(__file__).resolve().parents[2]


@cache
def cut(text: str, limit: int = 80) -> str:
    """A label within `limit` characters in every language: a message is cut after its translation
    (a slice of its English text would be plain English)."""
    if isinstance(text, Msg):
        return text.then(lambda x: x[:limit])
    return text[:limit]


def _document(path: str, lang: str) -> str:
    """A translated document (`data/x/tip.zh-TW.md`), else the English one; in the pseudo-locale the
    English one marked like a translation (it went through the layer: a document per language)."""
    text = _read_text(REPO_ROOT / localized_path(path, lang)) or _read_text(REPO_ROOT / path)
    return f"⟦{text}⟧" if text and lang == PSEUDO else text


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log line under the board.

    `text` is public and must never contain hidden information; `private` maps a seat to a line only
    that seat may read (e.g. "you drew the 7 of bats").
    """

    text: str
    private: Mapping[int, str] = field(default_factory=dict)
    kind: str = "info"
    # A transient event is public only while it is true on the table (a lid that is open right
    # now). The platform shows it on the live board and never keeps it in the channel or /game log.
    transient: bool = False


@dataclass(frozen=True)
class Outcome:
    """The end of a game as a value: scores, places and winners, with the breakdown shown to players.

    `ranking` lists places best first; seats that tie after every tie-break share a tuple.
    For cooperative games every seat is in `winners` or none is.
    """

    scores: tuple[int | float | None, ...]
    ranking: tuple[tuple[int, ...], ...]
    winners: frozenset[int]
    summary: str
    details: Mapping[str, Any] = field(default_factory=dict)
    cooperative: bool = False

    def to_json(self) -> JSON:
        return {
            "scores": list(self.scores),
            "ranking": [list(place) for place in self.ranking],
            "winners": sorted(self.winners),
            "summary": str.__str__(self.summary),
            "details": dict(self.details),
            "cooperative": self.cooperative,
            # the summary's message id and params: each reader gets it in their language
            **({"summary_msg": self.summary.to_json()} if isinstance(self.summary, Msg) else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The inverse of `to_json` (a stored outcome), tolerant of missing keys."""
        return cls(
            scores=tuple(data.get("scores") or ()),
            ranking=tuple(tuple(int(s) for s in place) for place in data.get("ranking") or ()),
            winners=frozenset(int(s) for s in data.get("winners") or ()),
            summary=str(Msg.from_json(data["summary_msg"]) if "summary_msg" in data else data.get("summary", "")),
            details=dict(data.get("details") or {}),
            cooperative=bool(data.get("cooperative", False)),
        )


MEDALS = ("🥇", "🥈", "🥉")


def place_mark(place: int) -> str:
    """🥇 🥈 🥉 for the first three places (0-based), then "4." and so on."""
    return MEDALS[place] if place < len(MEDALS) else f"{place + 1}."


def plural(n: int | float, one: str, many: str | None = None) -> str:
    """`3 vampires`, `1 stake`: a count with its noun."""
    return f"{n:g} {one if n == 1 else (many or one + 's')}"


def one_line(text: str) -> str:
    """Lines as one line of sentences (for alt text): "a\nb" -> "a. b", without Markdown bold or code."""
    lines = [" ".join(line.replace("**", "").replace("`", "").split()) for line in str(text).splitlines()]
    lines = [line for line in lines if line]
    return " ".join(line if line[-1] in ".!?:;…" else line + "." for line in lines)


def label_of(key: str) -> str:
    """A details key as a label: `vampires_left` -> `Vampires left`."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def scalar_text(value: Any) -> str | None:
    """A scalar as words ("yes", "12", "Cowboy"); None for anything that is not a scalar."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{value:g}"
    if isinstance(value, str):
        return value
    return None


def standings_lines(outcome: Outcome, names: Sequence[str], per_seat: Sequence[str] | None = None) -> list[str]:
    """One line per seat, best place first: "🥇 alice — 12 points · …" (ties share a medal).

    `per_seat[seat]` is that seat's breakdown; by default its score. A cooperative outcome has no
    standings (the team won or lost together): use `team_line` instead.
    """
    lines = []
    for place, seats in enumerate(outcome.ranking):
        for seat in seats:
            name = names[seat] if seat < len(names) else N_("Seat {x}", x=seat + 1)
            if per_seat is not None and seat < len(per_seat):
                what = per_seat[seat]
            else:
                score = outcome.scores[seat] if seat < len(outcome.scores) else None
                what = "" if score is None else Nn_("{n:g} point", "{n:g} points", score)
            lines.append(standing_line(place, name, what))
    return lines


def standing_line(place: int, name: str, what: str = "") -> str:
    """One standings line, e.g. "🥈 alice — 9 points" (place is 0-based)."""
    if what:
        return N_("{mark} {name} — {what}", mark=place_mark(place), name=name, what=what)
    return f"{place_mark(place)} {name}"


def team_line(outcome: Outcome) -> str:
    return N_("🏆 The team won.") if outcome.winners else N_("💀 The team lost.")


@dataclass(frozen=True)
class OptionSpec:
    """A table option chosen at `/game new` (e.g. difficulty); values are strings on the wire."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str


class BotPolicy(ABC, Generic[A]):
    """How a bot seat decides. It sees only what a human in that seat would see.

    `observe` is called with the seat's own view after every change of the table, so a policy can
    remember what its seat was shown (e.g. a lid that was open for a moment); `choose` gets the
    current view, the seat's legal actions, that memory and a private Rng.
    """

    def observe(self, memory: JSON, view: JSON) -> JSON:
        return memory

    @property
    def observes(self) -> bool:
        """Whether the policy has an `observe` of its own: the default keeps the memory as it is, so
        nobody need build each bot seat's view for it after every move."""
        return type(self).observe is not BotPolicy.observe

    @abstractmethod
    def choose(self, view: JSON, legal: Sequence[A], memory: JSON, rng: Rng) -> A: ...


class RandomPolicy(BotPolicy[Any]):
    """The default bot: any legal action, uniformly."""

    def choose(self, view: JSON, legal: Sequence[Any], memory: JSON, rng: Rng) -> Any:
        return rng.choice(legal)


class Game(ABC, Generic[S, A]):
    """A game's rules. Subclasses set the metadata and implement the abstract methods."""

    key: str
    title: str
    min_players: int
    max_players: int
    summary: str = ""  # one sentence for the lobby and /game help
    options: tuple[OptionSpec, ...] = ()
    cooperative: bool = False  # everyone wins or loses together (a resignation hands the seat to a bot)
    has_private_info: bool = False  # seats have secrets (hands, memory): DM panels are offered
    rules_doc: str = ""  # path of docs/rules/<game>.md, for /game rules
    # path (from the repository root) of the short "How to play" in Markdown; default data/<key>/howto.md
    howto_doc: str = ""
    # True: one live board message is edited after every move (memory games, where an old board
    # would keep a reveal readable); False: a new board message is posted after every move.
    live_board: bool = False

    # -- lifecycle -------------------------------------------------------------------------
    @abstractmethod
    def new(self, num_players: int, seed: int, options: Mapping[str, str] | None = None) -> S: ...

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]: ...

    def shared_decision(self, state: S) -> bool:
        """True when the awaited seats decide together and the first answer settles it for all.

        A co-operative team choosing who takes a curse is one decision, not one per seat; bot seats
        then leave it to the humans awaited with them (autopilot still answers for an absent one).
        """
        return False

    @abstractmethod
    def _apply(self, state: S, seat: int, action: A) -> tuple[S, list[Event]]:
        """Apply a validated-awaited action; may assume `seat in to_act(state)`."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def dump_state(self, state: S) -> JSON: ...

    @abstractmethod
    def load_state(self, data: JSON) -> S: ...

    @abstractmethod
    def dump_action(self, action: A) -> JSON: ...

    @abstractmethod
    def load_action(self, data: JSON) -> A: ...

    @abstractmethod
    def format_action(self, action: A) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> A: ...

    # -- provided ----------------------------------------------------------------------------
    def apply(self, state: S, seat: int, action: A) -> tuple[S, list[Event]]:
        """Check the turn and game end in one place, then delegate to the game's `_apply`."""
        if self.outcome(state) is not None:
            raise GameOver(N_("The game is over."))
        if seat not in self.to_act(state):
            raise NotYourTurn(N_("It is not your turn to act."))
        return self._apply(state, seat, action)

    def glimpse_seconds(self, options: Mapping[str, str]) -> int:
        """How long each momentary reveal is shown to each player, once, in their "What you missed"
        glimpse; 0 (the default): no glimpse, the board shows what is true for a moment until the next
        move. A memory game wants every player to see each reveal for the same time, online or not."""
        return 0

    def lasting_view(self, view: JSON, options: Mapping[str, str]) -> JSON:
        """The part of a public view that may stay on a message for hours: all of it by default. With a
        glimpse, a game strips what was only true for a moment (a lid the last move touched), which each
        player is shown once, for the same time, in their glimpse instead."""
        return view

    def confirm(self, state: S, seat: int, action: A) -> str | None:
        """A warning when a one-tap `action` would waste something (dice left unused, a one-shot token,
        a round given up that could be saved), or None. Pure; the default asks nothing.

        The platform asks "Yes / Cancel" with this text before a *click* on a panel or board plays the
        action; typed moves (`/game move`, a game's slash commands) are explicit and never ask. Return
        None for an action that is not legal now: `apply` refuses it with its own reason.
        """
        return None

    def undo_refusal(self, before: S, seat: int, action: A, after: S, events: Sequence[Event]) -> str | None:
        """None when `seat` may take this just-applied action back; else why not, for the player.

        An undo restores `before` exactly, so only a step that used no chance and showed nothing hidden
        may be taken back (boardgame.io's non-undoable moves: a draw, a flip, a die roll, a reveal of
        simultaneous picks). The reason completes "You cannot take that back: …". The safe default
        refuses; a game allows its deterministic, non-revealing steps, usually with `undo_blocker`.
        """
        return N_("this game does not let moves be taken back")

    def undoable(self, before: S, seat: int, action: A, after: S, events: Sequence[Event]) -> bool:
        return self.undo_refusal(before, seat, action, after, events) is None

    def undo_blocker(self, before: S, seat: int, after: S, events: Sequence[Event]) -> str | None:
        """The reasons common to every game that a step cannot be taken back, or None.

        The game ended; the `Rng` state stored under the state's "rng" key moved (a die roll, a shuffle,
        a draw by chance); an event was transient (something shown for a moment); or an event told
        another seat something privately.
        """
        if self.outcome(after) is not None:
            return N_("it ended the game")
        if self._rng_of(before) != self._rng_of(after):
            return N_("it rolled dice or drew by chance")
        if any(e.transient for e in events):
            return N_("it showed something on the board for a moment")
        if any(s != seat for e in events for s in e.private):
            return N_("it told another player something")
        return None

    def _rng_of(self, state: S) -> Any:
        """The stored Rng state: read directly from a dict state, without dumping (copying) it."""
        return state.get("rng") if isinstance(state, dict) else self.dump_state(state).get("rng")

    def describe_action(self, action: A) -> str:
        """A label for buttons and menus; defaults to the notation."""
        return self.format_action(action)

    def outcome_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """The end of the game for players to read: labelled words and numbers, never a repr.

        `names` are the seats' names as the platform shows them (already escaped). The default:
        standings by place (or "the team won/lost" for a cooperative game), then each scalar detail
        as "Label: value" and each per-seat list of scalars as "Label: alice 3 · bob 0". Games
        override it with their own breakdown.
        """
        lines = [team_line(outcome)] if outcome.cooperative else standings_lines(outcome, names)
        for key, value in outcome.details.items():
            text = scalar_text(value)
            if text is None and isinstance(value, list | tuple) and len(value) == len(names):
                parts = [scalar_text(v) for v in value]
                if all(p is not None for p in parts):
                    text = " · ".join(f"{names[i]} {p}" for i, p in enumerate(parts))
            if text is not None:
                lines.append(f"{label_of(key)}: {self.event_text(text, names)}")
        return lines

    def event_text(self, text: str, names: Sequence[str]) -> str:
        """An event line with the players' names put in (a core knows seats, not Discord names).

        The platform shows event lines as whole sentences, without a speaker prefix, so the text
        must name whoever it is about.
        """
        return text

    def status(self, view: JSON) -> str:
        """A short public status line built from a view (whose turn, scores)."""
        return str(view.get("status", ""))

    def how_to_play(self, lang: str = "en-US") -> str:
        """A short "How to play" for newcomers, in Markdown (goal, a turn, the end, the game's own
        commands): shown by `/game rules` above the attached full document.

        Kept as data (`howto_doc`, by default `data/<key>/howto.md`) so it can be translated; a game
        without one gets its summary and player count.
        """
        text = _document(self.howto_doc or f"data/{self.key}/howto.md", lang)
        return text or t(
            lang,
            "{summary}\n\n{low}–{high} players.",
            summary=self.summary,
            low=self.min_players,
            high=self.max_players,
        )

    def first_tip(self, view: JSON, lang: str = "en-US") -> str:
        """One line for the first player, shown on the first board of a table only (version 0).

        Data like `how_to_play`: `data/<key>/tip.md` when the game ships one, else a generic tip.
        """
        return _document(f"data/{self.key}/tip.md", lang) or t(
            lang,
            "New here? The awaited player plays with the buttons under the board (or `/game move`); "
            "`/game rules` explains the game in a minute.",
        )

    def alt_text(self, view: JSON, names: Sequence[str]) -> str:
        """The image's alt text for a screen reader: the game, whose turn, the scores, in plain words.

        Built only from `view` — the public view for a board, the seat's own view for its private panel
        — so it never says more than the image shows to whoever receives it. `names` are the seats'
        display names as plain text (not escaped: alt text is not Markdown). The platform adds the
        public lines of what just changed and cuts it to Discord's 1,024 characters. The default: the title, the
        status line and `board_words`.
        """
        status = self.status({**view, "names": list(names)})
        status = status.then(one_line) if isinstance(status, Msg) else one_line(status)
        return Msg.cat(N_("{title}.", title=self.title), status, self.board_words(view, names), sep=" ")

    def board_words(self, view: JSON, names: Sequence[str]) -> str:
        """What the picture shows beyond the status line, in plain sentences (each player's pieces and
        score, what lies open on the table), from `view` only; used by `alt_text` and by
        `/game status text:true`. The default says nothing more."""
        return ""

    #: The table bot's factory, tied to the game by the registry (`register(game, bot=...)`), so a
    #: rules module never imports its bot (the bot imports the rules: no cycle).
    bot_factory: Callable[[], BotPolicy[Any]] | None = None

    def bot_policy(self) -> BotPolicy[A]:
        """A fresh table bot: the registered one, or random legal moves for a game without one."""
        return self.bot_factory() if self.bot_factory is not None else RandomPolicy()

    def check_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """Fill defaults and refuse unknown names or values (IllegalAction names the culprit)."""
        given = dict(options or {})
        out: dict[str, str] = {}
        for spec in self.options:
            value = given.pop(spec.name, spec.default)
            if value not in spec.choices:
                raise IllegalAction(
                    N_(
                        "Option {name!r} must be one of {choices}; got {value!r}.",
                        name=spec.name,
                        choices=", ".join(spec.choices),
                        value=value,
                    )
                )
            out[spec.name] = value
        if given:
            raise IllegalAction(
                N_("{title} has no option named {given}.", title=self.title, given=", ".join(sorted(given)))
            )
        return out

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise IllegalAction(
                N_(
                    "{title} needs {min_players}–{max_players} players, not {num_players}.",
                    title=self.title,
                    min_players=self.min_players,
                    max_players=self.max_players,
                    num_players=num_players,
                )
            )

    def find_legal(self, state: S, seat: int, action: A) -> A:
        """Return the legal action equal to `action`, or raise IllegalAction naming it."""
        for legal in self.legal_actions(state, seat):
            if legal == action:
                return legal
        raise IllegalAction(N_("'{action}' is not a legal move now.", action=self.format_action(action)))
