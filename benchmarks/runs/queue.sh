#!/usr/bin/env bash
# Run training jobs one after another (one line of train-2b.sh arguments each, from a file), logging to runs/.
# usage: benchmarks/runs/queue.sh JOBS_FILE [PID_TO_WAIT_FOR]
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -n "${2:-}" ]; then while kill -0 "$2" 2>/dev/null; do sleep 20; done; fi
while read -r line; do
  [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
  name=$(echo "$line" | tr -s ' ' '_')
  echo "$(date -Is) start $line" >> runs/queue.log
  bash benchmarks/runs/train-2b.sh $line > "runs/log-$name.txt" 2>&1
  echo "$(date -Is) end ($?) $line" >> runs/queue.log
done < "$1"
