"""The offline tools against a Redis Cluster (a real local one: the session's under
REDIS_CLUSTER=1, else one started here): a selfplay game saved to a file, exported, imported
as a table with `import-18xx --to-table`, and exported again by its table id, all through the
real CLI; the table is then a table the services open. An unreachable cluster is one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.redis_cluster import LocalCluster
from shared.store import RedisEventStore
from shared.store.connect import connect
from shared.tables import open_table

from .helpers import assert_one_line_error, run_cli


@pytest.fixture(scope="module")
def cluster_url(redis_cluster: LocalCluster | None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if redis_cluster is not None:
        yield redis_cluster.url
        return
    own = LocalCluster(tmp_path_factory.mktemp("offline-cluster"), masters=3, replicas=1).start()
    try:
        yield own.url
    finally:
        own.stop()


def cli_json(*args: str) -> object:
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


async def test_selfplay_export_import_to_a_cluster_table_and_export_by_id(tmp_path: Path, cluster_url: str) -> None:
    saved = tmp_path / "games"
    proc = run_cli("selfplay", "--title", "18ireland", "--players", "3", "--games", "1", "--seed", "11",
                   "--max-actions", "400", "--save", str(saved))
    assert proc.returncode == 0, proc.stderr
    log = json.loads((saved / "game-0.json").read_text())
    from_file = tmp_path / "from-file.json"
    assert run_cli("export-18xx", str(saved / "game-0.json"), "-o", str(from_file)).returncode == 0
    stored = cli_json("import-18xx", str(from_file), "--to-table", "--redis-url", cluster_url)
    assert isinstance(stored, dict)
    table = stored["table"]
    assert stored["seq"] == len(log["actions"])

    client = connect(cluster_url)
    try:
        loaded = await open_table(RedisEventStore(client), table)
        assert loaded.timeline.length == len(log["actions"])
        entries = await RedisEventStore(client).read(table, 0)
        assert [(e.seat, json.loads(e.action)) for e in entries] == [(a["seat"], a["action"]) for a in log["actions"]]
    finally:
        await client.aclose()

    by_id = cli_json("export-18xx", table, "--redis-url", cluster_url)
    file_export = json.loads(from_file.read_text())
    assert isinstance(by_id, dict)
    strip = lambda actions: [{k: v for k, v in a.items() if k != "created_at"} for a in actions]  # noqa: E731
    assert strip(by_id["actions"]) == strip(file_export["actions"])
    assert by_id["players"] == file_export["players"] and by_id["settings"] == file_export["settings"]


def test_an_unreachable_cluster_is_one_line(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    log.write_text(json.dumps({"title": "18ireland", "seats": ["a", "b", "c"], "seed": 1, "actions": []}))
    export = tmp_path / "export.json"
    assert run_cli("export-18xx", str(log), "-o", str(export)).returncode == 0
    nowhere = "redis-cluster://127.0.0.1:1,127.0.0.1:2"
    assert_one_line_error(run_cli("export-18xx", "sometable", "--redis-url", nowhere), "store: cannot reach Redis", 2)
    assert_one_line_error(run_cli("import-18xx", str(export), "--to-table", "--redis-url", nowhere),
                          "store: cannot reach Redis", 2)
