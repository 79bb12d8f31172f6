#!/usr/bin/env bash
# Fine-tune on IdioLink train triplets (selection on IdioLink val), then evaluate on IdioLink test (sentence + span
# queries) and on 2B dev (cross-transfer). Paper setup (Hashiloni et al., Table 3): batch 32 tuples (= 224
# sentences: query, positive, 5 negatives), lr 2e-5, linear warm-up 100 steps, max 10 epochs, patience 3.
# usage: benchmarks/runs/train-idiolink.sh RECIPE [SEED=0] [MODEL=minilm] [extra `idiomkit train` options]
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONWARNINGS=ignore
RECIPE=$1; SEED=${2:-0}; MODEL=${3:-minilm}
shift $(( $# < 3 ? $# : 3 ))
TAG=$(echo "$*" | tr -s ' =' '__' | tr -d '-')
OUT=runs/$RECIPE-$MODEL-seed$SEED${TAG:+-$TAG}
.venv/bin/idiomkit train --recipe "$RECIPE" --model "$MODEL" --epochs 10 --patience 3 --batch-size 224 \
  --warmup 100 --seed "$SEED" --output "$OUT" --resume --checkpoint-every 20 --no-val-sts \
  --evaluate idiolink --evaluate semeval2b "$@"
