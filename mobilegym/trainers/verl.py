"""A verl agent loop over MobileGym: ``actor_rollout_ref.rollout.agent.agent_loop_config_path`` lists it by
the name ``mobilegym_agent`` (see ``examples/verl/``), and each dataset row's ``task`` and ``seed`` pick the phone.

Each turn the model's reply is read by :class:`~mobilegym.agentic.ChatEnv` (the adapters and prompts of
``mobilegym eval``), the phone steps, and the next screen is appended as a user turn. The output holds
the prompt ids, the response ids with their mask (1 for the model's tokens, 0 for the phone's turns),
the screenshots as multi-modal data (with a VLM processor), and the judge's score as ``reward_score``.
"""
from __future__ import annotations

import base64
import io
from typing import Any, Mapping
from uuid import uuid4

EXTRA = "pip install verl (see docs/training.md: verl is not a mobilegym extra; it brings its own torch stack)"
AGENT_NAME = "mobilegym_agent"


def _require_verl() -> Any:
    try:
        from verl.experimental.agent_loop import agent_loop
    except ImportError as exc:
        raise ImportError(f"mobilegym.trainers.verl needs verl's agent-loop API: {EXTRA}") from exc
    return agent_loop


def decode_image(url: str) -> Any:
    """A PNG or JPEG data URI (as ChatEnv sends screenshots) as a PIL image."""
    from PIL import Image

    if not url.startswith("data:image/") or ";base64," not in url:
        raise ValueError(f"expected a base64 image data URI, got {url[:40]!r}")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def user_turn(message: Mapping[str, Any], with_images: bool) -> tuple[dict[str, Any], list[Any]]:
    """ChatEnv's OpenAI-style user message as verl's: image parts become ``{"type": "image"}`` with the PIL
    images returned beside it (or are dropped for a text-only model)."""
    content = message["content"]
    if isinstance(content, str):
        return {"role": message["role"], "content": content}, []
    parts, images = [], []
    for part in content:
        if part.get("type") == "image_url":
            if with_images:
                images.append(decode_image(part["image_url"]["url"]))
                parts.append({"type": "image"})
        elif part.get("type") == "text":
            parts.append({"type": "text", "text": part["text"]})
    if not with_images:
        return {"role": message["role"], "content": "\n".join(p["text"] for p in parts)}, []
    return {"role": message["role"], "content": parts}, images


def episode_spec(kwargs: Mapping[str, Any]) -> tuple[str, int]:
    """The (task, seed) of a dataset row: top-level ``task``/``seed`` columns or inside ``extra_info``."""
    extra = kwargs.get("extra_info") or {}
    task = kwargs.get("task", extra.get("task"))
    seed = kwargs.get("seed", extra.get("seed"))
    if not isinstance(task, str) or not task:
        raise ValueError(f"a mobilegym_agent row needs a 'task' (column or extra_info), got {task!r}")
    try:
        seed = int(seed)
    except (TypeError, ValueError):
        raise ValueError(f"a mobilegym_agent row needs an int 'seed' (column or extra_info), got {seed!r}") from None
    if seed < 0:
        raise ValueError(f"a mobilegym_agent row's seed must be >= 0, got {seed}")
    return task, seed


def verl_rows(pairs: Any) -> list[dict[str, Any]]:
    """verl dataset rows (write them to parquet) for (task id, seed) pairs: ``agent_name`` selects this loop,
    ``extra_info`` carries the task and seed, and ``prompt`` is a placeholder RLHFDataset needs (the loop
    builds the real prompt from the phone). verl's ``rollout.n`` copies of a row start from the same phone."""
    rows = []
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ValueError(f"verl_rows takes (task id, seed) pairs, got {pair!r}")
        task, seed = episode_spec({"task": pair[0], "seed": pair[1]})
        rows.append({"data_source": "mobilegym", "agent_name": AGENT_NAME,
                     "prompt": [{"role": "user", "content": task}], "extra_info": {"task": task, "seed": seed}})
    if not rows:
        raise ValueError("verl_rows needs at least one (task id, seed) pair")
    return rows


def _loop_class() -> type:
    agent_loop = _require_verl()

    class MobileGymAgentLoop(agent_loop.AgentLoopBase):
        """One MobileGym episode per row: ``ChatEnv(task, **chat_options)`` reset with the row's seed.

        Options (keyword arguments in the agent-loop config, beside ``_target_``): ``chat`` (ChatEnv's
        options and ``gym.make`` arguments, e.g. ``{"adapter": "json", "render_scale": 0.25,
        "eval_mode": "text"}``) and ``max_turns`` (model turns at most; the task's step budget ends it first).
        """

        def __init__(self, *args: Any, chat: Mapping[str, Any] | None = None, max_turns: int | None = None,
                     **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.chat_options = {"adapter": "json", "render_scale": 0.25, "send_tree": True,
                                 **dict(chat or {}), "history": 0}
            if max_turns is not None and (isinstance(max_turns, bool) or int(max_turns) < 1):
                raise ValueError(f"max_turns must be >= 1, got {max_turns!r}")
            self.max_turns = None if max_turns is None else int(max_turns)
            self.response_length = self.rollout_config.response_length

        async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> Any:
            from ..agentic import ChatEnv

            task, seed = episode_spec(kwargs)
            with_images = self.processor is not None
            chat = ChatEnv(task=task, **self.chat_options)
            try:
                return await self._play(chat, seed, with_images, sampling_params)
            finally:
                chat.close()

        async def _play(self, chat: Any, seed: int, with_images: bool, sampling_params: dict[str, Any]) -> Any:
            request, _ = await self.loop.run_in_executor(None, lambda: chat.reset(seed=seed))
            system = {"role": "system", "content": request[0]["content"]}
            first, images = user_turn(request[-1], with_images)
            messages = [system, first]
            self._assert_mm_supported(bool(images))
            prompt_ids = await self.ct_build_initial_tokens(messages, images=images or None)
            initial_length = len(prompt_ids)
            runtime, response_mask, logprobs = list(prompt_ids), [], []
            total, turns, info, ended, parse_errors = 0.0, 0, {}, False, 0
            metrics: dict[str, Any] = {}
            while not ended and (self.max_turns is None or turns < self.max_turns):
                output = await self.server_manager.generate(request_id=uuid4().hex, prompt_ids=runtime,
                                                            sampling_params=sampling_params,
                                                            image_data=images or None)
                merged, response_mask, logprobs = await self.ct_merge_assistant_token(
                    runtime, output.token_ids, response_mask, logprobs if output.log_probs else None,
                    assistant_logprobs=output.log_probs or None)
                runtime, turns = merged.token_ids, turns + 1
                reply = self.tokenizer.decode(output.token_ids, skip_special_tokens=True)
                previous = [*messages, {"role": "assistant", "content": reply}]
                request, reward, terminated, truncated, info = await self.loop.run_in_executor(
                    None, lambda: chat.step(reply))
                total += float(reward)
                parse_errors += info.get("parse_error") is not None
                ended = terminated or truncated
                if ended or len(response_mask) >= self.response_length:
                    messages = previous
                    break
                turn, new_images = user_turn(request[-1], with_images)
                self._assert_mm_supported(bool(new_images))
                messages = [*previous, turn]
                images += new_images
                merged, response_mask, logprobs = await self.ct_merge_context_msg(
                    previous, messages, runtime, response_mask, logprobs or None)
                runtime = merged.token_ids
                if len(response_mask) >= self.response_length:
                    break
            if not ended:  # cut short by max_turns or the response length: judged as the phone stands
                judge = chat.unwrapped.judge_now()
                total, judge_dict = total + float(judge.score), judge.to_dict()
            else:
                judge_dict = info.get("judge")
            response_ids = runtime[initial_length:]
            return agent_loop.AgentLoopOutput(
                prompt_ids=runtime[:initial_length], response_ids=response_ids[: self.response_length],
                response_mask=response_mask[: self.response_length],
                response_logprobs=logprobs[: self.response_length] if logprobs else None,
                multi_modal_data={"images": images} if images else {}, reward_score=total,
                num_turns=2 * turns + 1, metrics=metrics,
                extra_fields={"success": bool(judge_dict and judge_dict.get("success")), "ended": ended,
                              "parse_errors": parse_errors, "turn_scores": [], "tool_rewards": []})

    MobileGymAgentLoop.__qualname__ = "MobileGymAgentLoop"  # verl's registry imports it by this dotted path
    return agent_loop.register(AGENT_NAME)(MobileGymAgentLoop)


MobileGymAgentLoop = _loop_class()
__all__ = ["AGENT_NAME", "MobileGymAgentLoop", "decode_image", "episode_spec", "user_turn", "verl_rows"]
