"""Every test here that uses the `store` fixture runs on SQLite and on PostgreSQL."""

from tests.engines import parametrize_store as pytest_generate_tests

__all__ = ["pytest_generate_tests"]
