"""Golden-image comparison shared by the renderer tests.

`assert_golden(image, path)` compares with a stored PNG by mean absolute pixel difference; on a
mismatch it writes `<name>.actual.png` and `<name>.diff.png` next to the golden. Set UPDATE_GOLDEN=1
to (re)write the goldens instead.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat


def assert_golden(image: Image.Image, path: Path, tolerance: float = 1.5) -> None:
    image = image.convert("RGB")
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        if os.environ.get("UPDATE_GOLDEN") != "1":
            raise AssertionError(f"golden {path.name} was missing and has been written; re-run the test")
        return
    golden = Image.open(path).convert("RGB")
    actual_path = path.with_suffix(".actual.png")
    diff_path = path.with_suffix(".diff.png")
    if golden.size != image.size:
        image.save(actual_path)
        raise AssertionError(f"{path.name}: size {image.size} != golden {golden.size}; see {actual_path}")
    diff = ImageChops.difference(golden, image)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    if mean > tolerance:
        image.save(actual_path)
        diff.point(lambda v: min(255, v * 4)).save(diff_path)
        raise AssertionError(f"{path.name}: mean pixel difference {mean:.2f} > {tolerance}; see {diff_path}")
