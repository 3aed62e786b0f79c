#!/bin/bash
# One arena played as a Slurm job array: each task plays one shard, and a last job that
# depends on them all merges the shards into the whole run's results (docs/deploy.md).
#
#   sbatch --array=1-8 deploy/arena-slurm.sh          # prints: Submitted batch job JOBID
#   sbatch --dependency=afterok:JOBID --wrap 'tapete merge runs/arena/shard-*.json --json > runs/arena/whole.json'
#
# Every task runs the same command but for its --shard; game i of the run always gets
# seed SEED+i and the same seats, whichever task plays it, so the merged results are those
# of one unsharded run.
#SBATCH --job-name=tapete-arena
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=runs/arena/slurm-%A_%a.out
set -euo pipefail

A=${A:-maestro}
B=${B:-experto}
GAMES=${GAMES:-20000}
SEED=${SEED:-1}
OUT=${OUT:-runs/arena}
TAPETE=${TAPETE:-tapete}

: "${SLURM_ARRAY_TASK_ID:?run this through sbatch --array=1-N}"
: "${SLURM_ARRAY_TASK_COUNT:?run this through sbatch --array=1-N}"
mkdir -p "$OUT"
shard="$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"
# Written under a temporary name, so that a task that dies leaves no shard to merge.
"$TAPETE" arena mus --a "$A" --b "$B" --games "$GAMES" --seed "$SEED" \
    --shard "$shard" --threads "${SLURM_CPUS_PER_TASK:-1}" --json \
    > "$OUT/shard-$SLURM_ARRAY_TASK_ID.json.part"
mv "$OUT/shard-$SLURM_ARRAY_TASK_ID.json.part" "$OUT/shard-$SLURM_ARRAY_TASK_ID.json"
