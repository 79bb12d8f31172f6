#!/usr/bin/env bash
# Train one recipe on SemEval 2B train and evaluate it on 2B dev (result JSON + submission CSV).
# usage: benchmarks/runs/train-2b.sh RECIPE [SEED=0] [EPOCHS=2] [MODEL=minilm] [extra `idiomkit train` options]
# Re-running the same command resumes from runs/<name>/checkpoint.pt.
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONWARNINGS=ignore
RECIPE=$1; SEED=${2:-0}; EPOCHS=${3:-2}; MODEL=${4:-minilm}
shift $(( $# < 4 ? $# : 4 ))
TAG=$(echo "$*" | tr -s ' =' '__' | tr -d '-')
OUT=runs/$RECIPE-$MODEL-${EPOCHS}ep-seed$SEED${TAG:+-$TAG}
.venv/bin/idiomkit train --recipe "$RECIPE" --model "$MODEL" --epochs "$EPOCHS" --seed "$SEED" --output "$OUT" \
  --resume --checkpoint-every 40 --evaluate semeval2b "$@"
