#!/usr/bin/env bash
# `make demo`: build the provider, start the fake API on a free loopback
# port, apply examples/demo through a dev_overrides CLI config in a temporary
# directory, print the results, destroy, and clean up. Needs no MINTLIFY_*
# variables, no account and no network.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
terraform_bin=${TERRAFORM:-$(command -v terraform || true)}
if [ -z "$terraform_bin" ] || [ ! -x "$terraform_bin" ]; then
  echo "demo: no terraform found (set TERRAFORM or put it on PATH; 'make demo' provides one)" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mintlify-demo.XXXXXX")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# A first run downloads and compiles the provider's modules (minutes on 2
# cores); .ci/heartbeat says it is still at it after each 15 s of silence.
heartbeat() { bash "$root/.ci/heartbeat" "$@"; }
echo "==> building the provider and the fake API (seconds with warm Go caches; a first run"
echo "    downloads and compiles the modules: about 5 minutes on 2 cores)"
mkdir -p "$work/bin" "$work/config"
(cd "$root" && CGO_ENABLED=0 heartbeat "building the provider" \
  go build -trimpath -ldflags "-X main.version=${VERSION:-demo}" -o "$work/bin/terraform-provider-mintlify" .)
(cd "$root" && heartbeat "building the fake API" go build -o "$work/mintlify-fake" ./sdk/mintlifytest/cmd/mintlify-fake)

echo "==> starting the fake API on loopback"
"$work/mintlify-fake" -addr 127.0.0.1:0 -env-file "$work/fake.env" -job-duration 3s > "$work/mintlify-fake.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/fake.env" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/mintlify-fake.log" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/fake.env" ] || { echo "demo: the fake API did not start" >&2; exit 1; }
set -a
# shellcheck disable=SC1091
. "$work/fake.env"
set +a
echo "    $MINTLIFY_BASE_URL (project $MINTLIFY_PROJECT_ID)"

# dev_overrides makes terraform use the binary just built, with no
# registry and no `terraform init`.
cat > "$work/dev.tfrc" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/mintlify/mintlify" = "$work/bin"
  }
  direct {}
}
TFRC
export TF_CLI_CONFIG_FILE="$work/dev.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
# The analytics cache lives with the demo and goes with it.
export MINTLIFY_CACHE_DIR="$work/cache"
# The job's trigger: this checkout's commit, as a CI pipeline would pass it.
TF_VAR_commit_sha=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo demo)
export TF_VAR_commit_sha
cp "$root"/examples/demo/*.tf "$work/config/"
tf() { "$terraform_bin" -chdir="$work/config" "$@"; }
# tf_logged LOG WHAT ARGS...: terraform ARGS with its output in LOG, and a
# heartbeat on the terminal while it runs (a busy machine can take 30 s).
tf_logged() {
  local log=$1 what=$2
  shift 2
  heartbeat "$what" bash -c 'log=$1; shift; "$@" > "$log" 2>&1' _ "$log" "$terraform_bin" -chdir="$work/config" "$@"
}

echo "==> terraform apply (the agent job runs about 3 s on the fake)"
tf_logged "$work/apply.log" "applying" apply -auto-approve -input=false -no-color || { cat "$work/apply.log" >&2; exit 1; }
grep -E '^(mintlify_agent_job|data\.mintlify_(unique_visitors|page_views))\..*(Creation complete|Read complete)' "$work/apply.log" | sed 's/^/    /' || true

echo
echo "Agent job:  $(tf output -raw job_status) (triggers: commit $(tf output -raw commit))"
echo "PR link:    $(tf output -raw pr_link 2>/dev/null || echo 'none (no files changed)')"
echo "Visitors:   $(tf output -raw totals_text), October 2026, across $(tf output -raw path_count) paths"
echo "Page views: $(tf output -raw views_text)"
echo "Top 10 paths by visitors:"
tf output -raw top_paths
echo
echo

echo "==> the same commit again plans nothing (no second job)"
tf_logged "$work/plan.log" "planning" plan -detailed-exitcode -input=false -no-color && echo "    no changes" || { cat "$work/plan.log" >&2; exit 1; }

echo "==> terraform destroy"
tf_logged "$work/destroy.log" "destroying" destroy -auto-approve -input=false -no-color || { cat "$work/destroy.log" >&2; exit 1; }
grep -E 'Destroy complete' "$work/destroy.log" | sed 's/^/    /'
echo "==> done: fake API stopped, $work removed"
