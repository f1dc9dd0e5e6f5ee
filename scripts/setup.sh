#!/usr/bin/env bash
# Installs everything MobileGym's tests and examples need on a fresh Debian machine with Python 3.10+.
set -euo pipefail
# Fonts (sim/fonts.py): DejaVu Sans for Latin, Noto Sans CJK (regular and bold; WenQuanYi when it is missing) for
# Chinese, Symbola for the symbols and emoji neither has.
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if ! command -v adb >/dev/null || ! command -v chromedriver >/dev/null || [ ! -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
    || [ ! -e /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || [ ! -e /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ]; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq adb chromium chromium-driver fonts-dejavu-core fonts-wqy-microhei \
    fonts-noto-cjk fonts-symbola >/dev/null
fi
python -m pip install -q --upgrade pip setuptools wheel
# The CPU build of torch first, so stable-baselines3 does not pull a CUDA build.
python -c "import torch" 2>/dev/null || python -m pip install -q torch==2.13.0
python -m pip install -q -e ".[dev,adb,rl,eval,ray,bench,serve,torchrl,wrappers,trl,docs]"
# mobilegym.ray and the eval harness's Ray backend are tested with this Ray (the `ray` extra allows any 2.x >= 2.40).
python -m pip install -q "ray[default]==2.60.0"
# The serve tests drive the server with OpenEnv's own client. openenv-core's full dependency set (gradio) pins an
# older Pillow, so it goes in without them plus the few its client imports.
python -m pip install -q --no-deps "openenv-core==0.3.0" && python -m pip install -q fastapi fastmcp requests
# The ADB compatibility tests drive serve-adb with these clients; grep over ADB needs RE2.
python -c "import re2, adbutils, adb_shell, ppadb, uiautomator2" || { echo "setup: the ADB clients or google-re2 did not install" >&2; exit 1; }
# The ecosystem tests run TorchRL's GymEnv, Gymnasium's RecordVideo (moviepy 1.x) and ResizeObservation (OpenCV).
python -c "import torchrl, moviepy, cv2" || { echo "setup: torchrl, moviepy or opencv did not install" >&2; exit 1; }
# The verl agent-loop tests import verl's published agent-loop classes. verl 0.9.1 declares transformers<5.11 and
# tensordict<=0.10, which would downgrade the transformers TRL's tool training runs on, so it goes in without its
# dependency set plus the few that its agent-loop modules import (tested with these versions).
python -m pip install -q --no-deps "verl==0.9.1" && python -m pip install -q "hydra-core==1.3.8" "codetiming==1.4.0" \
  "dill>=0.3" "tensordict==0.14.3" "pandas>=2" "pyarrow>=19"
python -c "import verl.experimental.agent_loop, trl" || { echo "setup: verl's agent loop or trl did not import" >&2; exit 1; }
