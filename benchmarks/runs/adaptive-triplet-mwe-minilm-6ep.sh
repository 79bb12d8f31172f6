#!/usr/bin/env bash
# adaptive-triplet + MWE tokens on minilm, 6 epochs, a model per epoch (learning curve, interpolation);
# re-running this script resumes from runs/.../checkpoint.pt
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONWARNINGS=ignore
SEED=${SEED:-0}
OUT=runs/adaptive-triplet-mwe-minilm-6ep-seed$SEED
.venv/bin/idiomkit train --recipe adaptive-triplet --model minilm --epochs 6 --output $OUT --resume \
  --checkpoint-every 40 --max-seq-length 128 --seed $SEED --keep-epochs
