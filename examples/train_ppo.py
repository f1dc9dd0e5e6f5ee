"""Train PPO (stable-baselines3, CPU) on a MobileGym task until it succeeds in >= 90% of 100 evaluation episodes.

    python examples/train_ppo.py [--task home.OpenApp] [--target 0.9] [--budget 300000] [--workers 0] [--out ppo_out]

The default task, ``home.OpenApp``, asks for one of the phone's apps by name ("Open the Clock
app") on a home screen whose icons are shuffled every episode, so the agent has to read the
screen. The agent sees ``make_sb3_env(obs="a11y", action="element")``: the accessibility tree as
an element table plus the encoded instruction, and taps table rows (or presses back/home).
Training resets draw their phones from ``--train-worlds`` generated worlds (world seeds 0, 1, ...);
every ``--eval-every`` steps the deterministic policy plays ``--eval-episodes`` episodes on fixed
seeds and on worlds never seen in training (world seeds from TEST_WORLD up), so the success rate is
success on unseen phones. The learning curve is printed and saved as CSV and PNG.
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from mobilegym.sb3_vec import BatchedSubprocVecEnv  # noqa: E402
from mobilegym.wrappers import make_sb3_env  # noqa: E402

EVAL_SEED = 1_000_000  # evaluation episodes use seeds EVAL_SEED, EVAL_SEED + 1, ...
TEST_WORLD = 1_000_000  # evaluation worlds: world seeds TEST_WORLD, TEST_WORLD + 1, ... (never trained on)


def evaluate(env: Any, policy: Callable[[Any], int], episodes: int) -> tuple[float, float, float]:
    """(success rate, mean return, mean length) of a policy over fixed-seed episodes."""
    successes, returns, lengths = 0, [], []
    for episode in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED + episode, options={"world_seed": TEST_WORLD + episode})
        total, steps, done = 0.0, 0, False
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs))
            total += float(reward)
            steps += 1
            done = terminated or truncated
        successes += bool(info.get("is_success"))
        returns.append(total)
        lengths.append(steps)
    return successes / episodes, float(np.mean(returns)), float(np.mean(lengths))


def plot(curve: list[dict[str, float]], random_success: float, target: float, title: str, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([r["timesteps"] for r in curve], [r["success"] for r in curve], marker="o", label="PPO (deterministic)")
    ax.axhline(random_success, color="grey", linestyle="--", label=f"random policy ({random_success:.2f})")
    ax.axhline(target, color="green", linestyle=":", label=f"target ({target:.2f})")
    ax.set(xlabel="environment steps", ylabel="success on unseen worlds (eval episodes)", ylim=(-0.02, 1.02), title=title)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="home.OpenApp")
    parser.add_argument("--target", type=float, default=0.9, help="success rate to reach")
    parser.add_argument("--eval-every", type=int, default=2048, help="environment steps between evaluations")
    parser.add_argument("--eval-episodes", type=int, default=100)
    parser.add_argument("--budget", type=int, default=300_000, help="give up after this many steps")
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=0,
                        help="worker processes for the training envs (BatchedSubprocVecEnv; 0: all in this process)")
    parser.add_argument("--max-steps", type=int, default=5, help="episode step budget")
    parser.add_argument("--max-elements", type=int, default=16, help="element-table rows (tap actions)")
    parser.add_argument("--train-worlds", type=int, default=1000, help="generated worlds to train on (world seeds 0..N-1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("ppo_out"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)

    if not 0 < args.train_worlds <= TEST_WORLD:
        parser.error(f"--train-worlds must be in 1..{TEST_WORLD}")
    env_kwargs = dict(task=args.task, obs="a11y", action="element", shuffle_launcher=True,
                      max_steps=args.max_steps, max_elements=args.max_elements)
    if args.workers > 0:
        per_worker = -(-args.n_envs // args.workers)
        vec_env = dict(vec_env_cls=BatchedSubprocVecEnv, vec_env_kwargs=dict(envs_per_worker=per_worker))
    else:
        vec_env = dict(vec_env_cls=DummyVecEnv)
    venv = make_vec_env(make_sb3_env, n_envs=args.n_envs, seed=args.seed,
                        env_kwargs=dict(env_kwargs, world_seeds=range(args.train_worlds)), **vec_env)
    eval_env = make_sb3_env(**env_kwargs)
    model = PPO("MultiInputPolicy", venv, n_steps=64, batch_size=128, n_epochs=10, learning_rate=5e-4, gamma=0.9,
                ent_coef=0.01, policy_kwargs=dict(net_arch=[256, 256]), seed=args.seed, device="cpu", verbose=0)

    rng = np.random.default_rng(args.seed)
    random_success, random_return, _ = evaluate(eval_env, lambda _: int(rng.integers(eval_env.action_space.n)),
                                                args.eval_episodes)
    print(f"task {args.task}: {eval_env.unwrapped.instruction!r}, ... (trained on {args.train_worlds} worlds; "
          f"{args.eval_episodes} eval episodes on unseen worlds, target success {args.target})")
    print(f"random policy: success {random_success:.2f}, mean return {random_return:.2f}\n")
    print(f"{'steps':>8} {'success':>8} {'return':>7} {'length':>7} {'wall s':>7}")
    started = time.perf_counter()
    curve: list[dict[str, float]] = []

    def record() -> dict[str, float]:
        success, mean_return, length = evaluate(eval_env, lambda obs: int(model.predict(obs, deterministic=True)[0]),
                                                args.eval_episodes)
        row = {"timesteps": model.num_timesteps, "success": success, "mean_return": mean_return,
               "mean_length": length, "wall_s": round(time.perf_counter() - started, 1)}
        curve.append(row)
        print(f"{row['timesteps']:>8} {success:>8.2f} {mean_return:>7.2f} {length:>7.2f} {row['wall_s']:>7.1f}",
              flush=True)
        return row

    row = record()
    while row["success"] < args.target and model.num_timesteps < args.budget:
        model.learn(args.eval_every, reset_num_timesteps=False)
        row = record()
    wall = time.perf_counter() - started
    reached = row["success"] >= args.target
    print(f"\n{'reached' if reached else 'did not reach'} success {row['success']:.2f} on unseen worlds after "
          f"{model.num_timesteps} steps in {wall:.0f} s (random policy: {random_success:.2f})")

    with open(args.out / "learning_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    plot(curve, random_success, args.target, f"PPO on {args.task}", args.out / "learning_curve.png")
    model.save(args.out / "ppo_model")
    print(f"saved {args.out / 'learning_curve.png'}, {args.out / 'learning_curve.csv'}, {args.out / 'ppo_model.zip'}")
    venv.close()


if __name__ == "__main__":
    main()
