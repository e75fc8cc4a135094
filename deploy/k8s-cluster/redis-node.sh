#!/bin/sh
# Start one Redis Cluster node from redis-cluster.conf. The password (ROUNDHOUSE_REDIS_PASSWORD)
# goes into a 0600 copy of the config, never on a command line other users could read; a
# replica gives it to its master too (masterauth). REDIS_ANNOUNCE_HOSTNAME (Redis 7+) makes
# the node tell clients a DNS name instead of its address, which changes when a pod moves.
# Extra arguments go to redis-server.
set -eu
: "${ROUNDHOUSE_REDIS_PASSWORD:?set ROUNDHOUSE_REDIS_PASSWORD, the password of every node and client}"
data="${REDIS_DATA_DIR:-/data}"
conf="${REDIS_CLUSTER_CONF:-$(dirname "$0")/redis-cluster.conf}"
umask 077
{
  cat "$conf"
  printf 'dir "%s"\n' "$data"
  printf 'requirepass "%s"\nmasterauth "%s"\n' "$ROUNDHOUSE_REDIS_PASSWORD" "$ROUNDHOUSE_REDIS_PASSWORD"
  if [ -n "${REDIS_ANNOUNCE_HOSTNAME:-}" ]; then
    printf 'cluster-announce-hostname "%s"\ncluster-preferred-endpoint-type hostname\n' "$REDIS_ANNOUNCE_HOSTNAME"
  fi
} > "$data/node.conf"
exec redis-server "$data/node.conf" "$@"
