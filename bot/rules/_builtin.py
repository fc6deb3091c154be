"""Registers the shipped games by importing every sub-package of `bot.rules`.

A game package registers itself at import (`register(MyGame())` in its `__init__`), so adding a game
is adding a package: no list to edit here.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path


def load_all() -> None:
    here = str(Path(__file__).parent)
    for info in pkgutil.iter_modules([here]):
        if info.ispkg:
            importlib.import_module(f"bot.rules.{info.name}")


load_all()
