"""Redis key names. Every per-table key carries the hash tag `{<table>}` so all of one table's
keys live in one Redis Cluster slot and a Lua script may touch them together.
`rh:tables` (and its status indexes) and `rh:turns` are global and are never touched in the same command as a table key."""

from __future__ import annotations

import re
import zlib

TABLES = "rh:tables"  # sorted set: table id scored by created_ms
# Sorted sets per status (`rh:tables:open|running|finished`), scored by created_ms, so a
# listing by status reads one page, not every table; `rh:tables:indexed` marks them built.
STATUS_INDEX_PREFIX = "rh:tables:"
STATUS_INDEX_BUILT = "rh:tables:indexed"


def status_key(status: str) -> str:
    return STATUS_INDEX_PREFIX + status

TURNS = "rh:turns"  # stream: turn notices for bot workers, tables with a person at them
# Turn notices of tables where only bots sit: read after TURNS, so a person waiting for a
# bot is served before a backlog of bot-only games.
TURNS_BOTS = "rh:turns:bots"
TURN_STREAMS = (TURNS, TURNS_BOTS)
# Sorted set: tables whose next turn is a bot's, scored by when that was decided (ms), until
# the notice is published. What stays here past a grace period lost its notice (the game
# service died between append and publish): the bot worker's sweeper announces it again.
ANNOUNCE = "rh:announce"

# Sorted set: clocked tables scored by the earliest time (ms) one of their seats may run out,
# read by the clock watch of every game service (services/game/clock_watch.py). A hint only:
# the time is computed again from the table's log and clock stream before anything is done.
DEADLINES = "rh:deadlines"
# Sorted set: tables with turn notices set up, scored by when the notifier should look at
# them next (services/notify/). Also a hint only: what is due is computed from the log.
NOTIFY_DUE = "rh:notify"
# Sorted set: started tables scored by when the retention sweeper should look at them
# (services/game/retention.py): to compact a finished one, or end one nobody plays. A hint
# only: the meta's last move decides.
RETIRE = "rh:retire"

# Unstarted tables, for the store's budget (docs/running.md#the-stores-budget): a sorted set
# of table -> expiry ms for the whole store, one per client address, and a hash table ->
# address. One hash tag, so the reservation script touches them together.
PENDING = "rh:{pending}"
PENDING_OWNERS = "rh:{pending}:owners"


def pending_key(owner: str) -> str:
    return f"rh:{{pending}}:by:{owner}"


# Table ids appear inside seat tokens (`<table>.<seat>.<sig>`) and hash tags, so no `.`, `{`, `}`.
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def check_table_id(table: str) -> str:
    if not isinstance(table, str) or not TABLE_ID.match(table):
        raise ValueError(f"bad table id {table!r}: 1-64 characters of A-Z a-z 0-9 _ -")
    return table


def log_key(table: str) -> str:
    return f"rh:{{{table}}}:log"


def meta_key(table: str) -> str:
    return f"rh:{{{table}}}:meta"


def snap_key(table: str) -> str:
    return f"rh:{{{table}}}:snap"


def idem_key(table: str, seat: int, key: str) -> str:
    return f"rh:{{{table}}}:idem:{seat}:{key}"


SNAP_PATTERN = "rh:{*}:snap"


def table_of_log_key(key: bytes | str) -> str:
    text = key.decode() if isinstance(key, bytes) else key
    return text[text.index("{") + 1 : text.rindex("}")]


def chat_key(table: str) -> str:
    """Stream: the table's chat lines and mute changes, beside its log (same slot)."""
    return f"rh:{{{table}}}:chat"


def mutes_key(table: str) -> str:
    """Hash: seat -> JSON list of the seats (and "spectators") it mutes."""
    return f"rh:{{{table}}}:mutes"


def chat_rate_key(table: str, author: str) -> str:
    return f"rh:{{{table}}}:chatrate:{author}"


def clock_key(table: str) -> str:
    """Stream: the table's clock events (a seat to a bot or back, a seat out of time), beside its log."""
    return f"rh:{{{table}}}:clock"


def is_clock_key(key: bytes | str) -> bool:
    text = key.decode() if isinstance(key, bytes) else key
    return text.endswith("}:clock")


def notify_key(table: str) -> str:
    """Hash: seat -> the seat's turn-notice settings (JSON)."""
    return f"rh:{{{table}}}:notify"


def outbox_key(table: str) -> str:
    """Hash: `<seat>:<turn seq>` -> that turn notice's delivery record (the durable outbox)."""
    return f"rh:{{{table}}}:outbox"


def table_of_key(key: bytes | str) -> str:
    """The table id in any per-table key (its hash tag)."""
    return table_of_log_key(key)


class Layout:
    """Where the global keys live: one set (`shards=1` on a single Redis: the names above) or
    `shards` sets, each in its own hash slot (`rh:{shard:<k>}:…`), a table's entries going to
    shard `crc32(table) % shards`. On Redis Cluster the names are always tagged, so the keys one
    command touches together (a shard's two turn streams and its announce set) share a slot,
    and with several shards the global load spreads over the masters. Every process of a
    deployment must use the same layout (`ROUNDHOUSE_REDIS_SHARDS`): changing it moves keys."""

    def __init__(self, shards: int = 1, tagged: bool = False) -> None:
        if shards < 1:
            raise ValueError(f"shards must be >= 1, not {shards}")
        self.shards = shards
        self.tagged = tagged or shards > 1

    def shard_of(self, table: str) -> int:
        return zlib.crc32(table.encode()) % self.shards if self.shards > 1 else 0

    def _name(self, shard: int, legacy: str) -> str:
        return f"rh:{{shard:{shard}}}:{legacy[3:]}" if self.tagged else legacy

    def tables(self, shard: int) -> str:
        return self._name(shard, TABLES)

    def status(self, shard: int, status: str) -> str:
        return self._name(shard, status_key(status))

    def status_built(self, shard: int) -> str:
        return self._name(shard, STATUS_INDEX_BUILT)

    def turns(self, shard: int, kind: str = TURNS) -> str:
        """The shard's turn stream of `kind` (TURNS: tables with a person, TURNS_BOTS)."""
        return self._name(shard, kind)

    def announce(self, shard: int) -> str:
        return self._name(shard, ANNOUNCE)

    def deadlines(self, shard: int) -> str:
        return self._name(shard, DEADLINES)

    def notify_due(self, shard: int) -> str:
        return self._name(shard, NOTIFY_DUE)

    def retire(self, shard: int) -> str:
        return self._name(shard, RETIRE)

    def kind_of_stream(self, stream: str) -> str:
        return TURNS_BOTS if stream.endswith(":bots") else TURNS

    def turn_streams(self) -> list[str]:
        return [self.turns(s, kind) for s in range(self.shards) for kind in TURN_STREAMS]
