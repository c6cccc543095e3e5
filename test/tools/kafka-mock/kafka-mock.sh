#!/bin/sh
# Runs the Kafka mock by hand or from multi-process test scripts (see README.md), e.g.
#   test/tools/kafka-mock/kafka-mock.sh --all-topics --partitions 3 --until-signal &
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
export TS_NODE_PROJECT="$root/tsconfig.json"
exec node -r "$root/node_modules/ts-node/register/transpile-only" "$here/kafka-mock.ts" "$@"
