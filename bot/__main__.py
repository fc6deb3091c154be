"""`python -m bot`: read the settings, then run the bot until interrupted."""

from __future__ import annotations

import logging
import sys

from bot.config import ConfigError, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as err:
        print(f"spooky-table: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.app import create_bot

    bot = create_bot(settings)
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
