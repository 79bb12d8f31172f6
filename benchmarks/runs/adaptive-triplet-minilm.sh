#!/usr/bin/env bash
# adaptive-triplet WITHOUT MWE tokens on minilm; re-running resumes from the checkpoint
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONWARNINGS=ignore
OUT=runs/adaptive-triplet-minilm
.venv/bin/idiomkit train --recipe adaptive-triplet --model minilm --epochs 2 --output $OUT --resume \
  --checkpoint-every 20 --max-seq-length 128 --seed 0 --no-mwe-tokens
.venv/bin/python - <<'PY'
from idiomkit.api import evaluate
r = evaluate("semeval2b", "runs/adaptive-triplet-minilm", pooling="last2", recipe="adaptive-triplet",
             model_name="minilm", show_progress_bar=False)
print(r.path, r.record.metrics["ALL"])
PY
