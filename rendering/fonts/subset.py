"""Rebuild the shipped Traditional Chinese fonts: Noto Sans CJK TC cut down to what the boards draw.

Why a subset: the full TC face is 16 MiB per weight, and DroidSansFallback (the old CJK fallback)
has only Simplified glyph shapes (骨 and 直 come out in their mainland forms). The subset keeps:

* every character of the repository's Chinese texts: glossaries (`data/**/glossary.tsv`), the zh-TW
  how-to/tip/rules texts (`data/**/*.zh-TW.md`, `docs/rules/*.zh-TW.md`), the catalogues
  (`locales/**/*.po`), the game data (`data/**/*.json`);
* the characters of the Chinese rule sources (`seed-chars.txt`, refreshed with `--seeds DIR`);
* for player names: the 5,401 frequently used characters of Big5 (level 1, 0xA440-0xC67E), Big5's
  symbols (0xA140-0xA3BF), Bopomofo, CJK punctuation and full-width forms. Anything else (kana,
  hangul, rare characters) is still drawn by DroidSansFallback.

Both weights get the same characters: the boards' status lines and name labels are bold and carry
players' names (with the texts' characters only, a bold line with a name fell back to the regular
weight). About 3.5 MiB per weight. The output is deterministic (byte for byte) for the same inputs
and the same fonts-noto-cjk package (Debian `fonts-noto-cjk 1:20220127`, OFL 1.1, see
LICENSE-NotoSansCJK).

Run (from the repository root, after `apt-get install fonts-noto-cjk`):
    python rendering/fonts/subset.py [--seeds /work/shared/seeds] [--source-dir /usr/share/fonts/opentype/noto]
    python rendering/fonts/subset.py --coverage   # only coverage.txt, after changing any font here
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEED_CHARS = HERE / "seed-chars.txt"
COVERAGE = HERE / "coverage.txt"  # read by rendering.base (no fontTools in the render workers)
TC_INDEX = 3  # "Noto Sans CJK TC" inside NotoSansCJK-*.ttc (0 JP, 1 KR, 2 SC, 3 TC, 4 HK)
OUTPUTS = {"Regular": "NotoSansCJKtc-Regular-subset.otf", "Bold": "NotoSansCJKtc-Bold-subset.otf"}
TEXT_GLOBS = (
    "data/**/glossary.tsv",
    "data/**/*.zh-TW.md",
    "docs/rules/*.zh-TW.md",
    "locales/**/*.po",
    "data/**/*.json",
)


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x2E80 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFE30 <= o <= 0xFE4F or 0xFF00 <= o <= 0xFFEF


def text_chars(root: Path = ROOT) -> set[str]:
    """The CJK characters of the repository's texts and of the seeds' character list."""
    chars: set[str] = set()
    for pattern in TEXT_GLOBS:
        for path in sorted(root.glob(pattern)):
            chars |= {ch for ch in path.read_text(encoding="utf-8") if _is_cjk(ch)}
    if SEED_CHARS.exists():
        chars |= {ch for ch in SEED_CHARS.read_text(encoding="utf-8") if _is_cjk(ch)}
    return chars


def _big5(first: int, last: int) -> set[str]:
    out: set[str] = set()
    for code in range(first, last + 1):
        lo = code & 0xFF
        if not (0x40 <= lo <= 0x7E or 0xA1 <= lo <= 0xFE):
            continue
        try:
            out.add(bytes([code >> 8, lo]).decode("big5"))
        except UnicodeDecodeError:
            continue
    return out


def name_chars() -> set[str]:
    """Common characters for players' names: Big5 level 1 and symbols, Bopomofo, punctuation."""
    chars = _big5(0xA440, 0xC67E) | _big5(0xA140, 0xA3BF)
    chars |= {chr(o) for o in range(0x3000, 0x3040)}  # CJK symbols and punctuation
    chars |= {chr(o) for o in range(0x3105, 0x3130)}  # Bopomofo
    chars |= {chr(o) for o in range(0xFF01, 0xFF5F)}  # full-width forms
    return chars


def build(source_dir: Path, weight: str, chars: set[str]) -> Path:
    """Subset one weight of the TC face to `chars` (plus ASCII, so metrics and spaces stay right)."""
    # recalcTimestamp=False keeps head.modified from the source: the same inputs give the same bytes
    font = TTFont(str(source_dir / f"NotoSansCJK-{weight}.ttc"), fontNumber=TC_INDEX, recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = ["*"]  # keep vert/locl etc.: harmless, small
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["DSIG"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(c) for c in chars} | set(range(0x20, 0x7F))))
    subsetter.subset(font)
    out = HERE / OUTPUTS[weight]
    font.save(str(out))
    return out


def ranges(codes: set[int]) -> str:
    """Code points as hex ranges: {0x20, 0x21, 0x23} -> '20-21,23'."""
    out: list[str] = []
    run: list[int] = []
    for cp in sorted(codes):
        if run and cp == run[-1] + 1:
            run[-1] = cp
            continue
        if run:
            out.append(f"{run[0]:x}-{run[1]:x}" if run[1] != run[0] else f"{run[0]:x}")
        run = [cp, cp]
    if run:
        out.append(f"{run[0]:x}-{run[1]:x}" if run[1] != run[0] else f"{run[0]:x}")
    return ",".join(out)


def font_coverage(path: Path) -> set[int]:
    """The code points `path` has glyphs for (its best character map)."""
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as ttf:
        return set(ttf.getBestCmap())


def coverage_text() -> str:
    """What `rendering/fonts/coverage.txt` holds: each shipped font's code points, as hex ranges."""
    lines = ["# Code points each shipped font draws, in hex ranges (rendering/fonts/subset.py --coverage)."]
    for font in sorted(HERE.glob("*.[ot]tf")):
        lines.append(f"{font.name}\t{ranges(font_coverage(font))}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=Path, help="refresh seed-chars.txt from the seeds in this directory")
    parser.add_argument("--source-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    parser.add_argument("--coverage", action="store_true", help="only rewrite coverage.txt from the shipped fonts")
    args = parser.parse_args()
    if args.coverage:
        COVERAGE.write_text(coverage_text(), encoding="ascii")
        return
    if args.seeds:
        seen = sorted({ch for p in sorted(args.seeds.iterdir()) for ch in p.read_text(encoding="utf-8") if _is_cjk(ch)})
        SEED_CHARS.write_text("".join(seen) + "\n", encoding="utf-8")
    texts = text_chars()
    for weight, chars in (("Regular", texts | name_chars()), ("Bold", texts | name_chars())):
        out = build(args.source_dir, weight, chars)
        print(f"{out.name}: {len(chars)} characters, {out.stat().st_size / 1024:.0f} KiB", file=sys.stderr)
    COVERAGE.write_text(coverage_text(), encoding="ascii")


if __name__ == "__main__":
    main()
