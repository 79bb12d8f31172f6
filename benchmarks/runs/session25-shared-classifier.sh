# Session 25, run by hand with the queue paused (benchmarks/runs/with-queue-paused.sh bash THIS): re-train the
# InfoNCE minilm seeds 1-2 (recorded command) and score span + shared-classifier usage re-ranking + twins; then seed 0
# without twins. Seed 0's twins row: python benchmarks/idiolink_twins.py runs/idiolink-infonce-minilm-seed0 --modes span --usage-shared-classifier
set -x
export HF_HUB_OFFLINE=1
for n in 1 2; do
  .venv/bin/idiomkit train --recipe idiolink-infonce --model minilm --epochs 10 --patience 3 --batch-size 224 --warmup 100 --seed $n --output runs/idiolink-infonce-minilm-seed$n --resume --checkpoint-every 20 --no-val-sts --no-fast-dropout --no-unpad > runs/log-manual-train-seed$n.txt 2>&1
  .venv/bin/python benchmarks/idiolink_twins.py runs/idiolink-infonce-minilm-seed$n --modes span --usage-shared-classifier > runs/log-manual-shared-twins-seed$n.txt 2>&1
done
.venv/bin/python benchmarks/idiolink_twins.py runs/idiolink-infonce-minilm-seed0 --modes span --usage-shared-classifier --without-twins > runs/log-manual-shared-seed0.txt 2>&1
echo finished > runs/manual3.done
