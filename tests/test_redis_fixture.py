async def test_real_redis_server_answers(redis_client):
    assert await redis_client.ping() is True
    info = await redis_client.info("persistence")
    assert info["aof_enabled"] == 1 or info.get("aof_enabled") == "1"
