"""The SQL every command runs, in one place for both paths to the database: the SQLAlchemy
store's driver-level appender (:mod:`.appender`) and the CLI's sqlite3-only one
(:mod:`.sqlite_file`). ``{mark}`` is the driver's parameter mark (``?`` or ``%s``).

>>> TIP.format(mark="?").endswith("WHERE g.id = ?")
True
"""

# A game's version and the hash of its last entry, in one indexed look-up.
TIP = (
    "SELECT g.version, e.hash FROM games g LEFT JOIN entries e"
    " ON e.game_id = g.id AND e.seq = g.version - 1 WHERE g.id = {mark}"
)

# The version moves only if the game still ends where the new entries were decided: at
# ``based_on`` entries, the last of them the one the first new entry chains to (a log cut and
# written again to the same length is not the one decided on). Parameters: the new version,
# the game, ``based_on``, the game, ``based_on - 1``, the first new entry's ``prev``.
MOVE = (
    "UPDATE games SET version = {mark} WHERE id = {mark} AND version = {mark}"
    " AND (SELECT hash FROM entries WHERE game_id = {mark} AND seq = {mark}) = {mark}"
)


def move_parameters(game: str, based_on: int, count: int, prev: str) -> tuple[object, ...]:
    """The parameters of :data:`MOVE` for ``count`` entries decided at ``based_on``, the first
    of them chained to ``prev``."""
    return (based_on + count, game, based_on, game, based_on - 1, prev)


# PostgreSQL: the whole append in one statement, so in one round trip and one transaction on a
# connection in autocommit: the version moves as MOVE moves it, the entries are inserted only
# if it moved, and every listening server process is told at commit (pg_notify) only then.
# It answers 1 if the entries were stored, 0 if the game did not stand where they were decided.
# Parameters: MOVE's, then each entry's nine columns, then the channel and the payload.
# (Data-modifying parts of a WITH run once whether or not the query reads them; each sees
# the log as it stood before the statement, so the chain check reads the previous last entry.)
APPEND_POSTGRES = (
    "WITH moved AS (" + MOVE.format(mark="%s") + " RETURNING id),"
    " stored AS (INSERT INTO entries (game_id, seq, type, side, body, prev, hash, sig, mac)"
    " SELECT * FROM (VALUES {rows}) AS new (game_id, seq, type, side, body, prev, hash, sig, mac)"
    " WHERE EXISTS (SELECT FROM moved))"
    " SELECT count(*) FROM (SELECT pg_notify(%s, %s) FROM moved) AS told"
)


def append_postgres(count: int) -> str:
    """:data:`APPEND_POSTGRES` for ``count`` entries.

    >>> append_postgres(2).count("(%s, %s, %s, %s, %s, %s, %s, %s, %s)")
    2
    """
    row = "(" + ", ".join(["%s"] * 9) + ")"
    return APPEND_POSTGRES.format(rows=", ".join([row] * count))
