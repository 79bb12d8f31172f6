#!/usr/bin/env bash
# Run a command (a timing benchmark) with the background queue's jobs stopped (SIGSTOP), so that they do not share
# the cores; the queue continues (SIGCONT) when the command ends, however it ends.
# usage: benchmarks/runs/with-queue-paused.sh COMMAND...
set -uo pipefail
groups=$(pgrep -f "benchmarks/runs/queue.sh" | xargs -r -n1 ps -o pgid= -p | tr -d ' ' | sort -u)
resume() { for g in $groups; do kill -CONT -"$g" 2>/dev/null; done; }
trap resume EXIT
for g in $groups; do kill -STOP -"$g"; done
echo "$(date -Is) paused queue process groups: ${groups:-none}" >&2
"$@"
