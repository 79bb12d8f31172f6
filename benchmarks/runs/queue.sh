#!/usr/bin/env bash
# Run the commands of a jobs file one after another (one shell command a line; # comments), logging to runs/.
# The jobs file is read again before each job, so lines can be added or reordered while the queue runs.
# A job whose command succeeded is recorded in runs/queue.done and skipped when the queue is started again;
# a job that failed is not retried by the same queue.
# usage: benchmarks/runs/queue.sh JOBS_FILE [PID_TO_WAIT_FOR]
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p runs
touch runs/queue.done
if [ -n "${2:-}" ]; then while kill -0 "$2" 2>/dev/null; do sleep 20; done; fi
failed=$(mktemp)
while true; do
  job=$(grep -v '^\s*#' "$1" | grep -v '^\s*$' | grep -vxF -f runs/queue.done -f "$failed" | head -n 1)
  [ -z "$job" ] && break
  name=$(echo "$job" | tr -cs 'A-Za-z0-9.-' '_' | cut -c1-100)_$(echo "$job" | md5sum | cut -c1-8)  # unique per job
  echo "$(date -Is) start $job" >> runs/queue.log
  bash -c "$job" > "runs/log-$name.txt" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    echo "$job" >> runs/queue.done
    echo "$(date -Is) done $job" >> runs/queue.log
  else
    echo "$job" >> "$failed"
    echo "$(date -Is) FAILED ($rc) $job" >> runs/queue.log
  fi
done
rm -f "$failed"
