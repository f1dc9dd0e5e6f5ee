#!/usr/bin/env bash
# Sets up a fresh machine and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# pytest-xdist: one test process per core shares the task matrix; pass "-n 0" to run in this process.
python -m pytest tests -n auto -p no:cacheprovider "$@"
