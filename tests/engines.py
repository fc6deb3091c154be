"""Run a directory's store-backed tests on both engines: `pytest_generate_tests = parametrize_store`
in its conftest.py parametrises the `store` fixture (and so `service`) with sqlite and postgresql."""

from __future__ import annotations

import pytest

ENGINES = ("sqlite", "postgresql")


def parametrize_store(metafunc: pytest.Metafunc) -> None:
    if "store" not in metafunc.fixturenames:
        return
    for marker in metafunc.definition.iter_markers("parametrize"):
        names = marker.args[0]
        if "store" in (names.replace(" ", "").split(",") if isinstance(names, str) else names):
            return  # the test chose its engine itself
    metafunc.parametrize("store", ENGINES, indirect=True)
