"""The store's table budgets, as the game service applies them (docs/running.md#the-stores-budget).

Every new table takes a place in `pending` (unstarted) and `held` (unfinished) for its
creating address; one where only bots sit also takes one in `botonly`, and so does a
table that comes to be so later (handovers, a clock giving a seat to a bot), counted
against the address that created it. Places go back when the table starts (`pending`),
finishes or ends (`held`, `botonly`), when a person takes a seat back (`botonly`), or at
their expiry. A budget whose two caps are 0 is not kept at all.
"""

from __future__ import annotations

from shared.config import Config
from shared.store import RedisEventStore
from shared.store.budget import Budget

from services.game.metrics import GameMetrics
from services.http.errors import coded

DAY_MS = 24 * 3600 * 1000


class TableBudget:
    def __init__(self, cfg: Config, store: RedisEventStore, metrics: GameMetrics) -> None:
        self.cfg = cfg
        self.metrics = metrics
        self.store = store
        self.pending = store.pending
        self.held = store.held
        self.botonly = store.botonly
        self._caps: dict[str, tuple[int, int]] = {
            "pending": (cfg.max_open_tables_per_client, cfg.max_open_tables),
            "held": (cfg.max_tables_per_client, cfg.max_tables),
            "botonly": (cfg.max_bot_tables_per_client, cfg.max_bot_tables),
        }

    def _kept(self, budget: Budget) -> bool:
        return any(self._caps[budget.name])

    @staticmethod
    def _ttl_ms(seconds: float, unset_ms: int = 30 * DAY_MS) -> int:
        return int(seconds * 1000) or unset_ms

    async def _take(self, budget: Budget, table: str, owner: str, now: int, ttl_ms: int) -> str:
        if not self._kept(budget):
            return "ok"
        per_owner, overall = self._caps[budget.name]
        verdict = await budget.reserve(table, owner, now, now + ttl_ms, per_owner, overall)
        if verdict != "ok":
            self.metrics.store_refusals.inc(f"{budget.name}_{verdict}")
        return verdict

    async def take_new(self, table: str, owner: str, now: int, bots_only: bool) -> None:
        """Places for a table about to be created, or a refusal (ApiError) and none taken."""
        cfg = self.cfg
        verdict = await self._take(self.pending, table, owner, now, self._ttl_ms(cfg.table_open_ttl, DAY_MS))
        if verdict == "client":
            raise coded("too_many_open_tables", f"this address holds {cfg.max_open_tables_per_client} tables where "
                                                "nothing was played yet; start or abandon some first")
        if verdict == "all":
            raise coded("store_full", f"the store holds {cfg.max_open_tables} tables where nothing was played yet; "
                                      "retry later, not at once")
        verdict = await self._take(self.held, table, owner, now, self._ttl_ms(cfg.table_open_ttl))
        if verdict == "ok" and bots_only:
            verdict = "bots_" + await self._take(self.botonly, table, owner, now, self._ttl_ms(cfg.table_idle_ttl))
        if verdict in ("ok", "bots_ok"):
            return
        await self.release(table)
        raise self._refusal(verdict)

    def _refusal(self, verdict: str) -> Exception:
        cfg = self.cfg
        if verdict == "client":
            return coded("too_many_tables", f"this address holds {cfg.max_tables_per_client} unfinished tables; "
                                            "finish or leave some first (unfinished ones expire after "
                                            f"{cfg.table_idle_ttl / 86400:g} days without a move)")
        if verdict == "all":
            return coded("store_full", f"the store holds {cfg.max_tables} unfinished tables; retry later, not at once")
        return self.bot_refusal(verdict.removeprefix("bots_"))

    def bot_refusal(self, verdict: str) -> Exception:
        cfg = self.cfg
        if verdict == "client":
            return coded("too_many_bot_tables", f"the address that made this table has {cfg.max_bot_tables_per_client} "
                                                "tables where only bots sit; finish one or seat a person first")
        return coded("bot_tables_busy", f"the store holds {cfg.max_bot_tables} tables where only bots sit; retry later",
                     retry_after="60")

    async def started(self, table: str, now: int) -> None:
        """The table's first move: out of `pending`; in `held` until the idle expiry from now."""
        if self._kept(self.held):
            owner = await self.store.owner_of(table)
            if owner is not None:
                await self.held.reserve(table, owner, now, now + self._ttl_ms(self.cfg.table_idle_ttl), 0, 0)

    async def only_bots(self, table: str, fallback_owner: str, now: int) -> str:
        """The table now has only bots: `ok`, or `client` / `all` (then nothing changed
        in the budget, and the caller must not let it become so)."""
        if not self._kept(self.botonly):
            return "ok"
        owner = await self.store.owner_of(table) or fallback_owner
        return await self._take(self.botonly, table, owner, now, self._ttl_ms(self.cfg.table_idle_ttl))

    async def a_person_sits(self, table: str) -> None:
        if self._kept(self.botonly):
            await self.botonly.release(table)

    async def release(self, table: str) -> None:
        """Every place the table holds (a creation taken back)."""
        for budget in (self.pending, self.held, self.botonly):
            if self._kept(budget):
                await budget.release(table)
