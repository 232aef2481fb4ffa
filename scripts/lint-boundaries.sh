#!/usr/bin/env bash
# Module boundaries (docs/architecture.md, "Boundaries"): dependency-cruiser in the server, the web and
# the contract, each with its own rules (.dependency-cruiser.cjs) and TypeScript settings. Violations
# that predate a rule are in that package's .dependency-cruiser-known-violations.json and are ignored;
# anything new fails. `--baseline` rewrites those lists (only after fixing some, never to hide one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KNOWN=.dependency-cruiser-known-violations.json
status=0
for dir in packages/contract apps/server apps/web; do
  if [[ "${1:-}" == "--baseline" ]]; then
    (cd "$dir" && npx depcruise src --config .dependency-cruiser.cjs --output-type baseline --output-to "$KNOWN")
    echo "$dir: $(node -e "console.log(require('./$dir/$KNOWN').length)") known violations"
    continue
  fi
  args=(src --config .dependency-cruiser.cjs --output-type err)
  [[ -f "$dir/$KNOWN" ]] && args+=(--ignore-known "$KNOWN")
  if ! (cd "$dir" && npx depcruise "${args[@]}"); then
    echo "module boundaries broken in $dir (docs/architecture.md, \"Boundaries\")" >&2
    status=1
  fi
done
exit $status
