"""The shared rendering base: shipped fonts, the PNG size budget, and the generic card."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from rendering.base import MAX_PNG_BYTES, encode_png, font
from rendering.generic import render
from tests.rendering.golden import assert_golden
from tests.takeaway import GAME

GOLDEN = Path(__file__).parent / "golden" / "generic"


def test_the_shipped_font_is_used_not_a_system_one() -> None:
    assert font(20).path.endswith("rendering/fonts/DejaVuSans.ttf")  # type: ignore[attr-defined]
    assert font(20, bold=True).path.endswith("DejaVuSans-Bold.ttf")  # type: ignore[attr-defined]


def test_encode_png_keeps_a_noisy_image_under_the_budget() -> None:
    noise = Image.effect_noise((700, 700), 120).convert("RGB")
    data = encode_png(noise, max_bytes=200_000)
    assert data.startswith(b"\x89PNG") and len(data) <= 200_000
    assert MAX_PNG_BYTES == 1024 * 1024


def test_generic_card_for_a_seat_matches_its_golden() -> None:
    view = GAME.view(GAME.new(2, 5), 0)
    view.update(names=["alice", "bob"], title=GAME.title)
    assert_golden(render(view), GOLDEN / "takeaway_seat0.png")


def test_generic_card_for_the_public_shows_no_hand() -> None:
    view = GAME.view(GAME.new(2, 5), None)
    view.update(names=["alice", "bob"], title=GAME.title)
    assert "hand" not in view
    assert_golden(render(view), GOLDEN / "takeaway_public.png")
