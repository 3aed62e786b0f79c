#!/usr/bin/env bash
# The collusion screen measured: arenas of 200 games against experto for colluding pairs
# (mus-partners --share, ten settings), their honest twins (the same settings without the
# file) and every built-in Mus player, each screened on its own (its A pair, and its B
# pair of experto, an honest one more). Prints one line per pair and the rates flagged.
#
#   bash examples/collusion/population.sh [OUT_DIR] [GAMES]
#
# Needs the release binaries: cargo build --release -p tapete -p tapete-collusion-examples
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$(mktemp -d)}"
games="${2:-200}"
bin="$root/target/release"
mkdir -p "$out"
settings=(
  "--bet 0.6 --call 0.55" "--bet 0.6 --call 0.62" "--bet 0.68 --call 0.55"
  "--bet 0.68 --call 0.62" "--bet 0.75 --call 0.55" "--bet 0.75 --call 0.62"
  "--bet 0.6 --call 0.55 --bold" "--bet 0.68 --call 0.6 --bold"
  "--bet 0.75 --call 0.62 --bold" "--bet 0.7 --call 0.58"
)
runs=()
for i in "${!settings[@]}"; do
  runs+=("colluding-$i|cmd:$bin/mus-partners ${settings[$i]} --share $out/share-$i")
  runs+=("twin-$i|cmd:$bin/mus-partners ${settings[$i]}")
done
for b in experto maestro avanzado basico conservador agresivo farolero pasivo cortamus umbral; do
  runs+=("$b|$b")
done
arena() {
  local name="${1%%|*}" bot="${1#*|}"
  [ -d "$out/$name" ] && return 0
  # One game at a time: a colluding pair's file is per seat.
  "$bin/tapete" arena mus --a "$bot" --b experto --games "$games" --threads 1 \
    --seed "$(( $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 100000 ))" \
    --records "$out/$name.tmp" > /dev/null
  mv "$out/$name.tmp" "$out/$name"
}
# Two arenas at a time (two cores).
for ((i = 0; i < ${#runs[@]}; i += 2)); do
  arena "${runs[$i]}" &
  if (( i + 1 < ${#runs[@]} )); then arena "${runs[$((i + 1))]}" & fi
  wait
done
{
  for r in "${runs[@]}"; do
    name="${r%%|*}"
    "$bin/tapete" screen "$out/$name" --json | sed "s/^/$name /"
  done
} > "$out/screens.txt"
echo "screens: $out/screens.txt"
