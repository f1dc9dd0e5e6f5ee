#!/usr/bin/env bash
# Sets up MobileGym (core only) and runs a demo episode on the simulated phone.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q -e .
mobilegym demo "$@"
