"""The app `roundhouse dev` builds, in-process: which services it installs and what it
serves at `/` (the web client when there is one, else a landing page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_aiohttp import AiohttpClient

from shared.config import Config

from services import dev
from tests.service_config import NO_BUDGETS


@pytest.fixture
def cfg(redis_url: str) -> Config:
    return Config(redis_url=redis_url, secret=b"test-secret", **NO_BUDGETS)


async def test_web_client_is_served_at_root_without_shadowing_services(
    tmp_path: Path, cfg: Config, aiohttp_client: AiohttpClient
) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>client</title>")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.js").write_text("console.log('app')")
    (tmp_path / "sdk" / "tests").mkdir(parents=True)
    (tmp_path / "sdk" / "roundhouse.js").write_text("console.log('sdk')")
    (tmp_path / "sdk" / "tests" / "a.test.mjs").write_text("test")
    (tmp_path / "__init__.py").write_text("")
    client = await aiohttp_client(dev.build_app(cfg, dev.installers(), web_dir=tmp_path))

    root = await client.get("/")
    assert root.status == 200 and "client" in await root.text()
    script = await client.get("/app/main.js")
    assert script.status == 200 and await script.text() == "console.log('app')"
    sdk = await client.get("/sdk/roundhouse.js")
    assert sdk.status == 200 and await sdk.text() == "console.log('sdk')"
    # Only the client's files: not the Python package beside them, not the SDK's tests.
    for path in ("/__init__.py", "/sdk/tests/a.test.mjs", "/app/../__init__.py", "/sdk/../__init__.py"):
        resp = await client.get(path)
        assert resp.status == 404 and (await resp.json())["error"]["code"] == "not_found", path
    assert (await client.get("/api/health")).status == 200
    assert (await client.get("/live/health")).status == 200
    assert (await client.get("/missing.js")).status == 404
    assert (await client.get("/../pyproject.toml")).status == 404


async def test_landing_page_lists_what_the_server_answers(
    tmp_path: Path, cfg: Config, aiohttp_client: AiohttpClient
) -> None:
    client = await aiohttp_client(dev.build_app(cfg, dev.installers(), web_dir=tmp_path / "no-client-yet"))
    page = await client.get("/")
    text = await page.text()
    assert page.status == 200 and page.content_type == "text/html"
    for route in ("POST /api/tables", "GET /api/ready", "GET /ws", "GET /live/ready"):
        assert route in text


def test_optional_services_are_skipped_until_written_but_broken_ones_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    required = len(dev.REQUIRED_SERVICES)
    monkeypatch.setattr(dev, "OPTIONAL_SERVICES", ("services.not_written_yet.app",))
    assert len(dev.installers()) == required
    monkeypatch.setattr(dev, "OPTIONAL_SERVICES", ("tests.dev.needs_missing_dep",))
    with pytest.raises(ModuleNotFoundError, match="roundhouse_no_such_dependency"):
        dev.installers()
    monkeypatch.setattr(dev, "OPTIONAL_SERVICES", ("tests.dev.devproc",))
    with pytest.raises(dev.DevError, match="tests.dev.devproc has no install"):
        dev.installers()


def test_secret_is_created_once_private_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUNDHOUSE_SECRET", raising=False)
    first = dev.load_secret(tmp_path)
    assert len(first) == 64 and (tmp_path / "secret").stat().st_mode & 0o777 == 0o600
    assert dev.load_secret(tmp_path) == first
    (tmp_path / "secret").write_text("")
    with pytest.raises(dev.DevError, match="is empty"):
        dev.load_secret(tmp_path)
    monkeypatch.setenv("ROUNDHOUSE_SECRET", "from-env")
    assert dev.load_secret(tmp_path) == b"from-env"
