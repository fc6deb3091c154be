"""Shared Discord presentation used by every cog (a package, so the cog loader skips it)."""
