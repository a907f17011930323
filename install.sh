#!/usr/bin/env bash
# Sets up benchval on a fresh machine: a virtual environment in .venv with the package, its pinned
# dependencies (CPU torch), the test tools and lm-evaluation-harness (the `bench` extra: the tests
# check our scores and prompts against it), plus Debian's WordNet for METEOR when apt is usable.
# Safe to run again: it only installs what is missing. Conda users: environment.yml holds the same pins.
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# torch==2.13.0 is pinned in pyproject.toml; on this kind of machine that resolves to the CPU wheel
# (lm-eval==0.4.13 accepts that torch, so the `bench` extra adds no second torch).
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test,bench]"

# METEOR (nltk) reads WordNet from Debian's packages instead of downloading it at run time.
if [ ! -d /usr/share/wordnet ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get install -y -qq wordnet-base >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq wordnet-base >/dev/null 2>&1; }) ||
        echo "install.sh: could not install Debian's wordnet-base; METEOR will be unavailable" >&2
fi
echo "install.sh: benchval installed in .venv"
