"""A random agent on MobileGym: raw dict actions, or the SB3-ready discrete actions (optionally masked).

    python examples/random_agent.py [--task home.OpenApp] [--episodes 20] [--mode raw|discrete|masked]

``raw`` samples ``env.action_space`` of MobileGym-v0 (taps, swipes, typing, keys...);
``discrete`` picks uniformly among the element actions of ``make_sb3_env``; ``masked`` picks
only among the actions ``action_masks()`` allows. Prints each episode and the success rate.
"""
from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.wrappers import make_sb3_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="home.OpenApp")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--mode", choices=("raw", "discrete", "masked"), default="masked")
    parser.add_argument("--max-steps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    if args.mode == "raw":
        env = gym.make("MobileGym-v0", task=args.task, render_scale=0.1, shuffle_launcher=True,
                       max_steps=args.max_steps, reward_mode="auto_complete")
    else:
        env = make_sb3_env(args.task, obs="a11y", action="element", shuffle_launcher=True, max_steps=args.max_steps)
    env.action_space.seed(args.seed)
    rng = np.random.default_rng(args.seed)
    successes = 0
    for episode in range(args.episodes):
        env.reset(seed=args.seed + episode)
        instruction = env.unwrapped.instruction
        steps, done = 0, False
        while not done:
            if args.mode == "masked":
                action = int(rng.choice(np.flatnonzero(env.get_wrapper_attr("action_masks")())))
            else:
                action = env.action_space.sample()
            _, reward, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        success = bool(info["judge"]["success"])
        successes += success
        print(f"episode {episode:3d}  {instruction!r:32}  steps {steps}  reward {reward:.1f}  "
              f"{'success' if success else 'fail'}  (ended in {info['app']})")
    print(f"\nsuccess rate {successes / args.episodes:.2f} over {args.episodes} episodes ({args.mode} random agent)")


if __name__ == "__main__":
    main()
