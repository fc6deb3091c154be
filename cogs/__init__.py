"""Discord adapters: one cog per game plus the shared table/lobby cog. Thin by design."""
