"""The Python ecosystem on MobileGym: Gymnasium's wrappers, RecordVideo, TorchRL, and the snippets of the RL guide
(docs/rl.md) for them (each runs as a script, as a user would paste it)."""
from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.wrappers import FlattenObservation

import mobilegym  # noqa: F401  (registers MobileGym-v0)

from .snippets import marked, run_snippet

ROOT = Path(__file__).resolve().parents[1]
MARK = "<!-- runs as a test: tests/test_ecosystem.py -->"
SNIPPETS = marked((ROOT / "docs" / "rl.md").read_text(encoding="utf-8"), MARK)
# The guide's training-sized numbers, made small enough for CI (the code is otherwise run as written).
SHRINK = {"num_envs=8": "num_envs=2", "num_envs=16, envs_per_worker=8": "num_envs=2, envs_per_worker=1",
          "n_envs=16": "n_envs=2", "envs_per_worker=8))": "envs_per_worker=1))",
          'PPO("MultiInputPolicy", venv).learn(20_000)':
              'PPO("MultiInputPolicy", venv, n_steps=8, batch_size=16, n_epochs=1).learn(16)'}
NEEDS = {"torchrl": "torchrl", "RecordVideo": "moviepy", "stable_baselines3": "stable_baselines3"}


def test_the_rl_guide_has_its_snippets() -> None:
    assert len(SNIPPETS) == 6
    guarded = [s for s in SNIPPETS if "Vec" in s or "make_vec" in s]
    assert len(guarded) == 3 and all('if __name__ == "__main__":' in s for s in guarded)


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.splitlines()[-1][:40] for s in SNIPPETS])
def test_rl_guide_snippet_runs(snippet: str, tmp_path: Path) -> None:
    for word, module in NEEDS.items():
        if word in snippet and importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (scripts/setup.sh installs it)")
    run_snippet(snippet, tmp_path, SHRINK)
    if "RecordVideo" in snippet:
        video = tmp_path / "videos" / "rl-video-episode-0.mp4"
        assert video.stat().st_size > 1000 and video.read_bytes()[4:8] == b"ftyp"


def test_flattening_the_whole_observation_warns_with_its_size() -> None:
    with pytest.warns(UserWarning, match=r"11,776,000-element int32 vector .*SelectObservation"):
        env = FlattenObservation(gym.make("MobileGym-v0", task="clock.CountAlarms"))
    assert env.observation_space.shape == (11_776_000,)
    with warnings.catch_warnings():  # a small observation flattens quietly
        warnings.simplefilter("error")
        small = FlattenObservation(gym.make("MobileGym-v0", task="clock.CountAlarms", obs_parts=("screenshot",),
                                            render_scale=0.1))
    assert small.observation_space.shape == (240 * 108 * 3,)


def test_torchrl_rolls_out_dict_actions_and_judges_the_episode() -> None:
    pytest.importorskip("torchrl")
    from torchrl.envs import GymEnv

    env = GymEnv("MobileGym-v0", task="settings.ToggleWifi", render_scale=0.1, reward_mode="final")
    actions = iter([{"type": "open_app", "app": "settings"}, {"type": "complete"}])

    def policy(td):  # noqa: ANN001, ANN202
        td.set_non_tensor("action", next(actions))
        return td

    rollout = env.rollout(5, policy)
    assert rollout.batch_size == (2,)
    assert bool(rollout["next", "terminated"][-1]) and float(rollout["next", "reward"][-1]) == 0.0  # Wi-Fi untouched
    assert rollout["screenshot"].dtype == __import__("torch").uint8
    assert "hierarchy" in rollout[0]["a11y"]
    with pytest.raises(Exception, match="unknown action type"):
        td = env.reset()
        td.set_non_tensor("action", {"type": "fly"})
        env.step(td)


def test_torchrl_without_the_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import mobilegym.torchrl_specs as specs

    monkeypatch.setattr(specs, "_registered", False)
    monkeypatch.setitem(sys.modules, "torchrl", None)
    monkeypatch.setitem(sys.modules, "torchrl.data", None)
    with pytest.raises(ImportError, match=r"pip install 'mobilegym\[torchrl\]'"):
        specs.register()
