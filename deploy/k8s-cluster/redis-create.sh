#!/bin/sh
# Join the nodes named as arguments (host:port ..., masters first) into one cluster with
# one replica per master, once: a cluster whose slots are all assigned already is left as
# it is, so this may run again (a compose `up`, a re-applied Kubernetes Job). Waits up to
# REDIS_CREATE_TIMEOUT seconds (default 300) for every node to answer.
set -eu
: "${ROUNDHOUSE_REDIS_PASSWORD:?set ROUNDHOUSE_REDIS_PASSWORD, the password of every node and client}"
export REDISCLI_AUTH="$ROUNDHOUSE_REDIS_PASSWORD"
deadline=$(( $(date +%s) + ${REDIS_CREATE_TIMEOUT:-300} ))
addresses=""
for node in "$@"; do
  host="${node%:*}"; port="${node##*:}"
  until redis-cli -h "$host" -p "$port" ping 2>/dev/null | grep -q PONG; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "redis-create: $node does not answer" >&2; exit 1; }
    sleep 1
  done
  # redis-cli --cluster create wants addresses; clients are told hostnames (redis-node.sh).
  ip="$(getent hosts "$host" | awk '{print $1; exit}')"
  addresses="$addresses ${ip:-$host}:$port"
done
first="${1%:*}"; first_port="${1##*:}"
if redis-cli -h "$first" -p "$first_port" cluster info | grep -q '^cluster_slots_assigned:16384'; then
  echo "redis-create: the cluster exists already"
  exit 0
fi
# shellcheck disable=SC2086
redis-cli --cluster create $addresses --cluster-replicas 1 --cluster-yes
until redis-cli -h "$first" -p "$first_port" cluster info | grep -q '^cluster_state:ok'; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "redis-create: cluster_state is not ok" >&2; exit 1; }
  sleep 1
done
echo "redis-create: cluster of $# nodes is ok"
