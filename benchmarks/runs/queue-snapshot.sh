#!/usr/bin/env bash
# Run a jobs file from a snapshot of the code (a git worktree at COMMIT), so edits in the working tree
# cannot break queued runs. runs/ and .venv are shared with the main checkout; result files go to its
# benchmarks/results. usage: benchmarks/runs/queue-snapshot.sh JOBS_FILE COMMIT [WORKTREE=/tmp/idiomkit-queue] [PID]
# (an existing worktree is moved to COMMIT; with PID the queue starts once that process has ended)
set -euo pipefail
MAIN=$(cd "$(dirname "$0")/../.." && pwd)
JOBS=$(realpath "$1"); COMMIT=$(git -C "$MAIN" rev-parse "$2"); TREE=${3:-/tmp/idiomkit-queue}
if [ -d "$TREE" ]; then git -C "$TREE" checkout -q --detach "$COMMIT"; else git -C "$MAIN" worktree add -f "$TREE" "$COMMIT"; fi
ln -sfn "$MAIN/.venv" "$TREE/.venv"; rm -rf "$TREE/runs"; ln -sfn "$MAIN/runs" "$TREE/runs"
export PYTHONPATH="$TREE/src" IDIOMKIT_RESULTS_DIR="$MAIN/benchmarks/results"
exec nice -n 10 bash "$TREE/benchmarks/runs/queue.sh" "$JOBS" ${4:-}
