#!/usr/bin/env bash
# adaptive-triplet + MWE tokens on minilm; re-running this script resumes from runs/.../checkpoint.pt
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONWARNINGS=ignore
OUT=runs/adaptive-triplet-mwe-minilm
.venv/bin/idiomkit train --recipe adaptive-triplet --model minilm --epochs 2 --output $OUT --resume \
  --checkpoint-every 20 --max-seq-length 128 --seed 0
.venv/bin/python - <<'PY'
from idiomkit.api import evaluate
r = evaluate("semeval2b", "runs/adaptive-triplet-mwe-minilm", pooling="last2", recipe="adaptive-triplet-mwe",
             model_name="minilm", mwe_tokens=True, show_progress_bar=False)
print(r.path, r.record.metrics["ALL"])
PY
