"""The verl agent loop: registered by name with verl's own registry, driven through verl's AgentLoopBase
(its Continuous Token builder, AgentLoopOutput) by a scripted server and by a tiny local model on CPU."""
from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("verl.experimental.agent_loop")
from omegaconf import OmegaConf  # noqa: E402
from verl.experimental.agent_loop.agent_loop import (AgentLoopOutput, DictConfigWrap,  # noqa: E402
                                                     _agent_loop_registry)
from verl.utils.dataset.rl_dataset import RLHFDataset  # noqa: E402
from verl.workers.rollout.replica import TokenOutput  # noqa: E402

from mobilegym.trainers.verl import AGENT_NAME, MobileGymAgentLoop, episode_spec, verl_rows  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
from train_grpo_trl import tiny_model, tiny_tokenizer  # noqa: E402

CHAT = {"adapter": "json", "render_scale": 0.1, "eval_mode": "text"}


class ScriptedServer:
    """verl's server manager, answering with scripted replies (tokenized) instead of a model."""

    def __init__(self, tokenizer, replies):
        self.tokenizer, self.replies, self.prompts = tokenizer, list(replies), []

    async def generate(self, request_id, prompt_ids, sampling_params, **kwargs):
        self.prompts.append(list(prompt_ids))
        ids = self.tokenizer(self.replies.pop(0) + "<|im_end|>")["input_ids"]
        return TokenOutput(token_ids=ids, log_probs=[-0.5] * len(ids))


class TinyModelServer:
    """verl's server manager backed by a tiny local transformers model on CPU."""

    def __init__(self, tokenizer):
        import torch

        self.torch, self.tokenizer, self.model = torch, tokenizer, tiny_model(tokenizer).eval()

    async def generate(self, request_id, prompt_ids, sampling_params, **kwargs):
        with self.torch.no_grad():
            out = self.model.generate(self.torch.tensor([prompt_ids]), max_new_tokens=12, do_sample=True,
                                      temperature=sampling_params.get("temperature", 1.0),
                                      pad_token_id=self.tokenizer.pad_token_id)
        return TokenOutput(token_ids=out[0, len(prompt_ids):].tolist())


def make_loop(server, tokenizer, **options):
    config = OmegaConf.create({"actor_rollout_ref": {"rollout": {"prompt_length": 8192, "response_length": 8192}}})
    return MobileGymAgentLoop(trainer_config=DictConfigWrap(config), server_manager=server, tokenizer=tokenizer,
                              processor=None, dataset_cls=RLHFDataset, data_config=DictConfigWrap(OmegaConf.create({})),
                              hf_model_type="qwen2", chat=CHAT, **options)


def play(server, tokenizer, sampling_params, options=None, **row):
    """Build the loop inside a running event loop (as verl's worker does) and run one row."""
    async def go():
        return await make_loop(server, tokenizer, **(options or {})).run(sampling_params, **row)

    return asyncio.run(go())


@pytest.fixture(scope="module")
def tokenizer():
    return tiny_tokenizer()


def test_registered_by_name_and_importable_by_verl():
    target = _agent_loop_registry[AGENT_NAME]["_target_"]
    module, _, name = target.rpartition(".")
    assert getattr(importlib.import_module(module), name) is MobileGymAgentLoop


def test_scripted_episode_earns_the_judges_reward_with_masks(tokenizer):
    replies = [json.dumps({"type": "open_app", "app": "Messages"}), "not an action",
               json.dumps({"type": "complete"})]
    server = ScriptedServer(tokenizer, replies)
    out = play(server, tokenizer, {"temperature": 1.0}, task="home.OpenApp", seed=0)
    assert isinstance(out, AgentLoopOutput)
    assert out.reward_score == 1.0 and out.extra_fields["success"] and out.extra_fields["parse_errors"] == 1
    assert len(out.response_ids) == len(out.response_mask) == len(out.response_logprobs)
    # the model's own tokens are masked 1 and are exactly what it generated; the phone's turns are 0
    generated = [tokenizer(r + "<|im_end|>")["input_ids"] for r in replies]
    model_tokens = [t for t, m in zip(out.response_ids, out.response_mask) if m == 1]
    assert model_tokens == [t for ids in generated for t in ids]
    assert 0 in out.response_mask and out.num_turns == 7
    # each turn's prompt extends the last one: the conversation is append-only
    assert all(later[:len(earlier)] == earlier for earlier, later in zip(server.prompts, server.prompts[1:]))
    assert "Open the Messages app" in tokenizer.decode(out.prompt_ids)


def test_max_turns_cuts_short_and_judges_the_phone_as_it_stands(tokenizer):
    server = ScriptedServer(tokenizer, [json.dumps({"type": "open_app", "app": "Messages"})])
    out = play(server, tokenizer, {}, {"max_turns": 1}, extra_info={"task": "home.OpenApp", "seed": 0})
    assert out.reward_score == 1.0 and out.extra_fields["ended"] is False


def test_tiny_local_model_drives_an_episode(tokenizer):
    out = play(TinyModelServer(tokenizer), tokenizer, {"temperature": 1.0}, {"max_turns": 3},
               task="clock.CountAlarms", seed=1)
    assert out.num_turns == 7 and out.reward_score == 0.0
    assert sum(out.response_mask) > 0 and len(out.response_ids) > sum(out.response_mask)


@pytest.mark.parametrize("row, message", [({"seed": 0}, "'task'"), ({"task": "home.OpenApp"}, "'seed'"),
                                          ({"task": "home.OpenApp", "seed": -2}, ">= 0")])
def test_bad_rows_are_named(row, message):
    with pytest.raises(ValueError, match=message):
        episode_spec(row)


def test_bad_options_are_named(tokenizer):
    with pytest.raises(ValueError, match="max_turns"):
        play(ScriptedServer(tokenizer, []), tokenizer, {}, {"max_turns": 0}, task="home.OpenApp", seed=0)


def test_example_config_names_the_loop():
    config = OmegaConf.load(ROOT / "examples/verl/agent_loop.yaml")
    entry = next(item for item in config if item["name"] == AGENT_NAME)
    module, _, name = entry["_target_"].rpartition(".")
    assert getattr(importlib.import_module(module), name) is MobileGymAgentLoop


def test_verl_rows_drive_the_loop(tokenizer):
    rows = verl_rows([("home.OpenApp", 0), ("clock.CountAlarms", 2)])
    assert [row["agent_name"] for row in rows] == [AGENT_NAME] * 2
    server = ScriptedServer(tokenizer, [json.dumps({"type": "open_app", "app": "Messages"}),
                                        json.dumps({"type": "complete"})])
    row = {k: v for k, v in rows[0].items() if k != "prompt"}
    assert play(server, tokenizer, {}, raw_prompt=rows[0]["prompt"], **row).reward_score == 1.0
    with pytest.raises(ValueError, match="pairs"):
        verl_rows(["home.OpenApp"])
    with pytest.raises(ValueError, match="at least one"):
        verl_rows([])


def test_screenshots_become_verl_image_parts():
    from mobilegym.agentic import ChatEnv
    from mobilegym.trainers.verl import decode_image, user_turn

    with ChatEnv(task="home.OpenApp", **CHAT) as chat:
        request, _ = chat.reset(seed=0)
        message, images = user_turn(request[-1], with_images=True)
        text_only, none = user_turn(request[-1], with_images=False)
        shot = chat.unwrapped.observe()["screenshot"]
    assert [part["type"] for part in message["content"]][:1] == ["image"] and len(images) == 1
    assert images[0].size == (108, 240) and (np.asarray(images[0]) == shot).all()
    assert none == [] and "Open the Messages app" in text_only["content"]
    with pytest.raises(ValueError, match="data URI"):
        decode_image("http://example.com/x.png")
