"""GRPO on MobileGym with TRL's ``environment_factory``: the phone's actions are the model's tools.

    python examples/train_grpo_trl.py --tiny --steps 2                      # CPU, a tiny local model, no downloads
    python examples/train_grpo_trl.py --model Qwen/Qwen2.5-VL-3B-Instruct   # the real recipe (GPU)

Each dataset row is a (task, seed) pair; TRL plays it ``--generations`` times, every copy from the
identical phone, and the reward is the judge's score read from the environments. Prints the mean
reward of every step. Needs ``pip install 'mobilegym[trl]'``.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from mobilegym.trainers.trl import (PhoneToolEnv, close_environments, judge_reward, require, trl_dataset,
                                    with_tool_template)

TINY_TASKS = ["clock.CountAlarms", "home.OpenApp"]


def tiny_tokenizer() -> object:
    """A small byte-level BPE tokenizer trained here on the prompts' own text, with Qwen2.5's tool-calling
    chat template (TRL recognises it and parses ``<tool_call>`` replies)."""
    tokenizers = require("tokenizers")
    transformers = require("transformers")
    from trl.chat_template_utils import qwen2_5_chat_template

    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = tokenizers.decoders.ByteLevel()
    corpus = [qwen2_5_chat_template, PhoneToolEnv.tap.__doc__, PhoneToolEnv.swipe.__doc__,
              '{"name": "tap", "arguments": {"x": 500, "y": 500}}', "Task: Screen: Step of at most"]
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=400, special_tokens=specials,
                                             initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(corpus, trainer)
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>",
                                                pad_token="<|endoftext|>", padding_side="left")
    fast.add_tokens(["<tool_call>", "</tool_call>"])  # plain added tokens, as in Qwen's (decoding keeps them)
    fast.chat_template = qwen2_5_chat_template
    return fast


def tiny_model(tokenizer: object) -> object:
    """A 2-layer Qwen2 causal LM (random weights) built from a config."""
    transformers = require("transformers")
    config = transformers.Qwen2Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                                      num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                                      max_position_embeddings=32768, tie_word_embeddings=True,
                                      eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    require("torch").manual_seed(0)
    return transformers.Qwen2ForCausalLM(config)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiny", action="store_true", help="a tiny local model on CPU (no downloads)")
    parser.add_argument("--model", default="Qwen/Qwen2.5-VL-3B-Instruct", help="model id or path (without --tiny)")
    parser.add_argument("--steps", type=int, default=2, help="GRPO optimizer steps")
    parser.add_argument("--generations", type=int, default=2, help="rollouts per (task, seed) row (num_generations)")
    parser.add_argument("--tasks", nargs="+", default=None, help="task ids (default: two easy ones)")
    parser.add_argument("--seeds", type=int, default=4, help="seeds 0..N-1 per task")
    parser.add_argument("--max-tool-calls", type=int, default=None, help="tool calls per rollout at most")
    parser.add_argument("--out", default=None, help="output directory (default: a temporary one)")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.generations < 2 or args.seeds < 1:
        parser.error("--steps and --seeds must be >= 1 and --generations >= 2 (GRPO compares a group)")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    try:
        trl = require("trl")
        transformers = require("transformers")
    except ImportError as exc:
        print(f"train_grpo_trl: {exc}", file=sys.stderr)
        return 1

    tasks = args.tasks or TINY_TASKS
    dataset = trl_dataset([(task, seed) for seed in range(args.seeds) for task in tasks])
    if args.tiny:
        processing_class = tiny_tokenizer()
        model = tiny_model(processing_class)
        env_class = PhoneToolEnv.configure(render_scale=0.1, eval_mode="text", max_steps=4)
        max_tool_calls = args.max_tool_calls or 2
        extra = {"max_completion_length": 48, "use_cpu": True, "bf16": False}
    else:
        processing_class = with_tool_template(transformers.AutoProcessor.from_pretrained(args.model,
                                                                                         padding_side="left"))
        model = args.model
        env_class = PhoneToolEnv.configure(images=True, render_scale=0.25, eval_mode="text")
        max_tool_calls = args.max_tool_calls or 15
        extra = {"max_completion_length": 2048, "bf16": True, "gradient_checkpointing": True}

    batch = args.generations  # one (task, seed) group per optimizer step and device
    config = trl.GRPOConfig(output_dir=args.out or tempfile.mkdtemp(prefix="grpo-trl-"), max_steps=args.steps,
                            per_device_train_batch_size=batch, num_generations=args.generations,
                            max_tool_calling_iterations=max_tool_calls, learning_rate=1e-5, logging_steps=1,
                            report_to="none", save_strategy="no", seed=0, temperature=1.0,
                            dataloader_num_workers=0, **extra)
    rewards: list[float] = []

    class PrintRewards(transformers.TrainerCallback):
        def on_log(self, _args, state, _control, logs=None, **_kwargs):
            if logs and "reward" in logs:
                rewards.append(float(logs["reward"]))
                print(f"step {state.global_step}: mean reward {logs['reward']:.3f}", flush=True)

    trainer = trl.GRPOTrainer(model=model, reward_funcs=judge_reward, args=config, train_dataset=dataset,
                              processing_class=processing_class, environment_factory=env_class,
                              callbacks=[PrintRewards()])
    try:
        trainer.train()
    finally:
        for pool in getattr(trainer, "_environment_pool", {}).values():
            close_environments(pool)
    print(f"done: {len(rewards)} steps, mean rewards {rewards}")
    return 0 if len(rewards) == args.steps else 1


if __name__ == "__main__":
    raise SystemExit(main())
