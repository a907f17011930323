#!/usr/bin/env bash
# Sets up benchval on a fresh machine: a virtual environment in .venv with the package, its pinned
# dependencies (torch's CPU or CUDA build, chosen by the machine: see below), the test tools and
# lm-evaluation-harness (the `bench` extra: the tests check our scores and prompts against it), plus
# Debian's WordNet for METEOR when apt is usable.
# Safe to run again: it only installs what is missing. Conda users: environment.yml holds the same pins.
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# torch==2.13.0 is pinned in pyproject.toml. Which build: BENCHVAL_TORCH=cuda|cpu|auto (default auto:
# cuda where nvidia-smi lists a GPU, else cpu). cuda: the plain PyPI wheel, built with CUDA 13.0 (it needs
# an NVIDIA driver of the R580 branch or newer; docs/cluster.md). cpu: whatever the package index resolves
# when that is already a CPU build (as on a machine with a local CPU wheel), else PyTorch's CPU index,
# so that a laptop without a GPU does not download the CUDA libraries. An installed torch 2.13.0 is kept.
# (lm-eval==0.4.13 accepts that torch, so the `bench` extra adds no second torch.)
pip_install() { .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@"; }
torch_build=${BENCHVAL_TORCH:-auto}
if [ "$torch_build" = auto ]; then
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
        torch_build=cuda
    else
        torch_build=cpu
    fi
fi
if .venv/bin/python -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '2.13.0')" 2>/dev/null; then
    echo "install.sh: torch 2.13.0 already installed ($(.venv/bin/python -c 'import torch; print(torch.__version__)'))"
elif [ "$torch_build" = cpu ]; then
    resolved=$(.venv/bin/python -m pip install --dry-run --quiet --disable-pip-version-check --no-deps \
        --ignore-installed --report - torch==2.13.0 |
        .venv/bin/python -c 'import json, sys; print(json.load(sys.stdin)["install"][0]["download_info"]["url"])')
    case "$resolved" in
        *cpu*) pip_install torch==2.13.0 ;;
        *) pip_install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu ;;
    esac
    echo "install.sh: torch 2.13.0, CPU build (no GPU found; BENCHVAL_TORCH=cuda for the CUDA build)"
else
    pip_install torch==2.13.0
    echo "install.sh: torch 2.13.0, CUDA 13.0 build (needs NVIDIA driver >= 580; BENCHVAL_TORCH=cpu for the CPU build)"
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test,bench]"

# METEOR (nltk) reads WordNet from Debian's packages instead of downloading it at run time.
if [ ! -d /usr/share/wordnet ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get install -y -qq wordnet-base >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq wordnet-base >/dev/null 2>&1; }) ||
        echo "install.sh: could not install Debian's wordnet-base; METEOR will be unavailable" >&2
fi

# Debian's chromium and its driver for the explorer's browser test (tests/test_explorer_browser.py): the
# test opens results/explorer/index.html in a real headless browser; without them it is skipped, said why.
if ! command -v chromedriver >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1; }) ||
        echo "install.sh: could not install Debian's chromium and chromium-driver; the browser test will skip" >&2
fi
echo "install.sh: benchval installed in .venv"
