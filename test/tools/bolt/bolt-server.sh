#!/bin/sh
# A Bolt server over an in-memory graph, a stand-in for Neo4j (see README.md), e.g.
#   test/tools/bolt/bolt-server.sh --port 7687 &     # prints bolt://127.0.0.1:7687, runs until SIGTERM/SIGINT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
export TS_NODE_PROJECT="$root/tsconfig.json"
exec node -r "$root/node_modules/ts-node/register/transpile-only" "$here/bolt-server-cli.ts" "$@"
