#!/usr/bin/env bash
# Run the commands of a jobs file one after another (one shell command a line; # comments), logging to runs/.
# A job whose command succeeded is recorded in runs/queue.done and skipped when the queue is started again.
# usage: benchmarks/runs/queue.sh JOBS_FILE [PID_TO_WAIT_FOR]
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p runs
touch runs/queue.done
if [ -n "${2:-}" ]; then while kill -0 "$2" 2>/dev/null; do sleep 20; done; fi
mapfile -t JOBS < <(grep -v '^\s*#' "$1" | grep -v '^\s*$')
for job in "${JOBS[@]}"; do
  grep -qxF "$job" runs/queue.done && continue
  name=$(echo "$job" | tr -cs 'A-Za-z0-9.-' '_' | cut -c1-120)
  echo "$(date -Is) start $job" >> runs/queue.log
  if bash -c "$job" > "runs/log-$name.txt" 2>&1; then
    echo "$job" >> runs/queue.done
    echo "$(date -Is) done $job" >> runs/queue.log
  else
    echo "$(date -Is) FAILED ($?) $job" >> runs/queue.log
  fi
done
