-- /game stats reads a server's finished tables in the order they ended (and only the newly ended ones
-- once it has the rest): an index on exactly those.
CREATE INDEX finished_tables_by_guild ON game_tables (guild_id, updated_at, id) WHERE status = 'finished'
