"""`mobilegym serve` as a real subprocess: RemoteEnv parity with local envs, fork, snapshots, check_env,
make_vec, eval --env-url, OpenEnv's own client, named errors, tokens, limits and session isolation."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mobilegym  # noqa: F401  (registers the env ids)
from mobilegym.actions import InvalidAction
from mobilegym.remote import RemoteEnv, RemoteError, RemoteRequestError, RemoteStateError

from .serve_support import RL, Server, child_env

ACTIONS = [{"type": "tap", "x": 540, "y": 1200}, {"type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600},
           {"type": "key", "key": "home"}, {"type": "open_app", "app": "clock"}, {"type": "complete", "text": "3"}]


@pytest.fixture(scope="module")
def server():
    srv = Server("--workers", "2", "--max-sessions", "24")
    yield srv
    srv.stop()


def same_obs(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype if isinstance(b[k], np.ndarray) else a[k] == b[k]
        for k in b)


def assert_parity(remote: gym.Env, local: gym.Env, seed: int, actions: list[dict]) -> float:
    """Same seed and actions: byte-identical screenshots, trees, rewards and infos; returns the last reward."""
    (ro, ri), (lo, li) = remote.reset(seed=seed), local.reset(seed=seed)
    assert same_obs(ro, lo) and ri == li
    reward = None
    for action in actions:
        r, lcl = remote.step(action), local.step(action)
        assert same_obs(r[0], lcl[0])
        assert r[1:4] == lcl[1:4] and r[4] == lcl[4]
        reward = r[1]
        if r[2] or r[3]:
            break
    return reward


def test_remote_env_matches_local_byte_for_byte_including_the_judge(server: Server) -> None:
    kwargs = dict(RL, obs_parts=("screenshot", "a11y", "text", "instruction"))
    remote, local = RemoteEnv(server.url, **kwargs), gym.make("MobileGym-v0", **kwargs)
    assert remote.observation_space == local.observation_space and remote.action_space == local.action_space
    for seed in (0, 7):
        assert_parity(remote, local, seed, ACTIONS)
    # the oracle's actions, recorded on a local env, replayed on both: the judge pays 1 on both sides
    wifi = dict(task="settings.ToggleWifi", render_scale=0.1)
    recorder = Recorder(gym.make("MobileGym-v0", **wifi))
    from mobilegym.oracle import plans_for, run_plan

    plan = next(p for p in plans_for("settings.ToggleWifi") if p.expect_success)
    assert run_plan(recorder, "settings.ToggleWifi", plan, seed=3)[0] == 1.0
    remote2, local2 = RemoteEnv(server.url, **wifi), gym.make("MobileGym-v0", **wifi)
    assert assert_parity(remote2, local2, 3, recorder.actions) == 1.0
    for env in (remote, local, remote2, local2, recorder):
        env.close()


class Recorder(gym.Wrapper):
    """Keeps the actions stepped through it."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.actions: list = []

    def step(self, action):  # noqa: ANN001, ANN201
        self.actions.append(action)
        return self.env.step(action)


def test_fork_snapshot_restore_and_judge(server: Server) -> None:
    env = RemoteEnv(server.url, **RL)
    env.reset(seed=1)
    env.step(ACTIONS[0])
    forks = env.fork(2)
    assert len(forks) == 2 and len({f.session for f in forks} | {env.session}) == 3
    outs = [e.step(ACTIONS[2]) for e in (env, *forks)]
    for out in outs[1:]:
        assert same_obs(out[0], outs[0][0]) and out[1:4] == outs[0][1:4] and out[4]["step"] == 2
    forks[0].step(ACTIONS[3])  # stepping a fork never moves the others
    assert env.step(ACTIONS[0])[4]["step"] == 3 and forks[1].step(ACTIONS[0])[4]["step"] == 3
    snap = env.snapshot()
    before = env.step(ACTIONS[2])
    env.step(ACTIONS[3])
    back = env.restore(snap)
    again = env.step(ACTIONS[2])
    assert same_obs(again[0], before[0]) and again[4]["step"] == before[4]["step"] and back.keys() == before[0].keys()
    assert env.judge_now().score == 0.0 and [t.id for t in env.tasks] == ["clock.CountAlarms"]
    env.drop_snapshot(snap)
    with pytest.raises(RemoteRequestError, match="unknown_snapshot"):
        env.restore(snap)
    for e in (env, *forks):
        e.close()


def test_check_env_and_make_vec(server: Server) -> None:
    env = gym.make("MobileGymRemote-v0", base_url=server.url, **RL)
    check_env(env.unwrapped, skip_render_check=False)  # gymnasium's advice: check the unwrapped env
    env.close()
    vec = gym.make_vec("MobileGymRemote-v0", num_envs=2, vectorization_mode="sync", base_url=server.url, **RL)
    obs, infos = vec.reset(seed=[0, 1])
    assert obs["screenshot"].shape == (2, 240, 108, 3) and list(infos["task_id"]) == ["clock.CountAlarms"] * 2
    obs, rewards, terminated, truncated, infos = vec.step([ACTIONS[4], ACTIONS[0]])
    assert list(terminated) == [True, False]
    vec.close()


def test_pipelined_steps_over_many_sessions(server: Server) -> None:
    envs = [RemoteEnv(server.url, **RL) for _ in range(4)]
    local = gym.make("MobileGym-v0", **RL)
    for i, env in enumerate(envs):
        env.reset(seed=i)
    for env in envs:
        env.step_async(ACTIONS[0])
    results = [env.step_wait() for env in envs]
    for i, result in enumerate(results):
        local.reset(seed=i)
        assert same_obs(result[0], local.step(ACTIONS[0])[0])
    with pytest.raises(RuntimeError, match="step_async"):
        envs[0].step_wait()
    for env in envs:
        env.close()


def test_eval_env_url_plays_the_episodes_on_the_server(server: Server, tmp_path) -> None:
    from mobilegym.cli import main

    out = tmp_path / "run"
    status = main(["eval", "--task", "settings.ToggleWifi", "--agent", "oracle", "--sample-n", "2", "--env-url",
                   server.url, "--out", str(out), "--no-report", "--progress", "off", "--no-trajectories"])
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert status == 0 and len(rows) == 2 and all(r["success"] and r["error_kind"] is None for r in rows)


def test_openenv_client_plays_an_episode(server: Server) -> None:
    pytest.importorskip("openenv")
    from openenv.core import GenericEnvClient

    with GenericEnvClient(base_url=server.url).sync() as client:
        result = client.reset(seed=0, make=RL, episode_id="ep-1")
        obs = result.observation
        assert result.done is False and result.reward is None
        assert obs["screenshot"]["format"] == "png" and "<hierarchy" in obs["a11y"] and obs["instruction"]
        step = client.step({"type": "tap", "x": 540, "y": 1200})
        assert step.done is False and step.reward == 0.0 and step.observation["info"]["step"] == 1
        state = client.state()
        assert state["episode_id"] == "ep-1" and state["step_count"] == 1
        final = client.step({"type": "complete", "text": "1"})
        assert final.done is True and final.observation["terminated"] is True
        assert final.reward == final.observation["info"]["judge"]["score"]
        with pytest.raises(RuntimeError, match="bad_state"):
            client.step({"type": "tap", "x": 1, "y": 1})
        again = client.reset(seed=0)  # no make: the session keeps its arguments, the episode starts over
        assert again.observation["a11y"] == obs["a11y"] and client.state()["step_count"] == 0
        with pytest.raises(RuntimeError, match="invalid_action"):
            client.step({"type": "fly"})
    with server.http() as http:
        assert http.get("/health").json() == {"status": "healthy"}
        schema = http.get("/schema").json()
        assert {"action", "observation", "state"} <= set(schema)
        meta = http.get("/metadata").json()
        assert meta["supports_concurrent_sessions"] is True and meta["max_concurrent_envs"] == 24
        reset = http.post("/reset", json={"seed": 0, "make": RL}).json()
        assert reset["done"] is False and reset["observation"]["info"]["task_id"] == "clock.CountAlarms"
        assert http.post("/step", json={"action": {"type": "key", "key": "home"}}).json()["error"] == "needs_session"


def test_bad_requests_are_named_4xx_errors(server: Server) -> None:
    with server.http() as http:
        def error(resp) -> tuple[int, str]:
            return resp.status_code, resp.json()["error"]

        assert error(http.post("/v1/sessions", content=b"{not json")) == (400, "malformed_json")
        assert error(http.post("/v1/sessions", content=b"[1, 2]")) == (400, "malformed_json")
        assert error(http.post("/v1/sessions", json={"make": {"task": "nope.Nothing"}})) == (400, "bad_make_kwargs")
        assert error(http.post("/v1/sessions", json={"make": {"colour": "red"}})) == (400, "bad_make_kwargs")
        assert error(http.post("/v1/sessions", json={"make": {"task": "/etc/passwd"}})) == (400, "bad_make_kwargs")
        assert error(http.post("/v1/sessions", json={"make": {"device": {"serial": "x"}}})) == (400, "bad_make_kwargs")
        assert error(http.post("/v1/sessions", json={"make": RL, "image": {"format": "gif"}})) == (
            400, "bad_image_options")
        assert error(http.post("/v1/sessions/nope/step", json={"action": {}})) == (404, "unknown_session")
        assert error(http.post("/v1/sessions/nope/teleport", json={})) == (404, "unknown_op")
        assert error(http.post("/v1/sessions", content=b"x" * (2 << 20))) == (413, "request_too_large")
        assert error(http.get("/v1/nothing")) == (404, "not_found")
        sid = http.post("/v1/sessions", json={"make": RL}).json()["session"]
        assert error(http.post(f"/v1/sessions/{sid}/step", json={"action": ACTIONS[0]})) == (409, "bad_state")
        assert http.post(f"/v1/sessions/{sid}/reset", json={"seed": 0}).status_code == 200
        assert error(http.post(f"/v1/sessions/{sid}/reset", json={"seed": -1})) == (400, "bad_reset")
        assert error(http.post(f"/v1/sessions/{sid}/reset", json={"options": {"warp": 1}})) == (400, "bad_reset")
        assert error(http.post(f"/v1/sessions/{sid}/step", json={"action": {"type": "fly"}})) == (
            400, "invalid_action")
        assert error(http.post(f"/v1/sessions/{sid}/step", json={})) == (400, "bad_action")
        assert error(http.post(f"/v1/sessions/{sid}/fork", json={"n": 0})) == (400, "bad_fork")
        jpeg = http.post("/v1/sessions", json={"make": RL, "image": {"format": "jpeg", "quality": 50}}).json()
        shot = http.post(f"/v1/sessions/{jpeg['session']}/reset", json={"seed": 0}).json()["observation"]["screenshot"]
        assert shot["format"] == "jpeg" and shot["shape"] == [240, 108, 3]
        for s in (sid, jpeg["session"]):
            assert http.delete(f"/v1/sessions/{s}").json() == {"closed": s}
        assert error(http.delete(f"/v1/sessions/{sid}")) == (404, "unknown_session")
    with pytest.raises(RemoteRequestError, match="bad_make_kwargs"):
        RemoteEnv(server.url, task="nope.Nothing")
    env = RemoteEnv(server.url, **RL)
    with pytest.raises(RemoteStateError):
        env.step(ACTIONS[0])
    env.reset(seed=0)
    with pytest.raises(InvalidAction):
        env.step({"type": "tap"})
    env.close()


def test_a_failing_session_or_a_crashed_worker_leaves_the_others_alone(server: Server) -> None:
    a, b = RemoteEnv(server.url, **RL), RemoteEnv(server.url, **RL)
    a.reset(seed=0)
    b.reset(seed=0)
    a.step(ACTIONS[4])
    with pytest.raises(RemoteStateError, match="bad_state"):  # a's episode has ended: its own error
        a.step(ACTIONS[0])
    assert b.step(ACTIONS[0])[4]["step"] == 1
    with server.http() as http:
        workers = http.get("/v1/info").json()["workers"]
    holder = next(w["pid"] for w in workers if a.session in w["sessions"])
    assert b.session not in next(w["sessions"] for w in workers if w["pid"] == holder)
    os.kill(holder, signal.SIGKILL)
    time.sleep(0.2)
    with pytest.raises(Exception, match="worker_crashed|unknown_session"):
        a.reset(seed=0)
    assert b.step(ACTIONS[0])[4]["step"] == 2  # the other worker's session carries on
    c = RemoteEnv(server.url, **RL)  # and a replacement worker takes new sessions
    assert c.reset(seed=0)[1]["step"] == 0
    with server.http() as http:
        assert len(http.get("/v1/info").json()["workers"]) == 2
    for env in (a, b, c):
        env.close()


def test_token_limits_and_idle_reaping() -> None:
    srv = Server("--workers", "1", "--max-sessions", "2", "--idle-timeout", "1", "--max-request-bytes", "4096",
                 "--max-response-bytes", "16384", "--token", "s3cret")
    try:
        with srv.http() as http:
            assert http.get("/health").status_code == 200  # health needs no token
            assert http.post("/v1/sessions", json={"make": RL}).json()["error"] == "unauthorized"
        with srv.http("wrong") as http:
            assert http.post("/v1/sessions", json={"make": RL}).status_code == 401
        with pytest.raises(RemoteRequestError, match="unauthorized"):
            RemoteEnv(srv.url, **RL)
        with srv.http("s3cret") as http:
            assert http.post("/v1/sessions", json={"make": {"world_seeds": list(range(5000))}}).json()["error"] == \
                "request_too_large"
            ids = [http.post("/v1/sessions", json={"make": RL}).json()["session"] for _ in range(2)]
            third = http.post("/v1/sessions", json={"make": RL})
            assert (third.status_code, third.json()["error"]) == (429, "session_limit")
            deadline = time.monotonic() + 15
            while http.get("/v1/info").json()["sessions"] and time.monotonic() < deadline:
                time.sleep(0.3)
            assert http.get("/v1/info").json()["sessions"] == 0  # both reaped after idling
            assert http.post(f"/v1/sessions/{ids[0]}/reset", json={}).json()["error"] == "unknown_session"
        env = RemoteEnv(srv.url, token="s3cret", **RL)
        with pytest.raises(RemoteError, match="response_too_large"):  # a raw screenshot is 77760 bytes
            env.reset(seed=0)
        env.close()
        small = RemoteEnv(srv.url, token="s3cret", obs_parts=("instruction",), **RL)
        assert small.reset(seed=0)[1]["step"] == 0 and small.step(ACTIONS[0])[4]["step"] == 1
        small.close()
    finally:
        srv.stop()


def test_binding_beyond_loopback_needs_a_token() -> None:
    env = child_env()
    env.pop("MOBILEGYM_SERVE_TOKEN", None)
    result = subprocess.run([sys.executable, "-m", "mobilegym", "serve", "--host", "0.0.0.0", "--port", "0"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2 and "needs a bearer token" in result.stderr and "Traceback" not in result.stderr
    for make, said in (("{not json", "must be a JSON object"), ('{"task": "/etc/passwd"}', "no file paths")):
        bad = subprocess.run([sys.executable, "-m", "mobilegym", "serve", "--port", "0", "--make", make],
                             capture_output=True, text=True, env=env, timeout=60)
        assert bad.returncode == 2 and said in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_sb3_learns_against_the_server(server: Server) -> None:
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from mobilegym.wrappers import make_sb3_env

    venv = DummyVecEnv([lambda: make_sb3_env("clock.CountAlarms", env_url=server.url, max_steps=16)] * 2)
    model = PPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    assert model.num_timesteps >= 256
    venv.close()


def test_websocket_errors_keep_the_connection_and_infos_are_json(server: Server) -> None:
    from websockets.exceptions import ConnectionClosedError
    from websockets.sync.client import connect

    from mobilegym.serve.wire import decode_obs, unpack_frame

    ws_url = server.url.replace("http://", "ws://")
    with connect(ws_url + "/v1/ws") as ws:
        ws.send("{oops")
        assert unpack_frame(ws.recv(timeout=30))[0]["error"] == "malformed_json"
        ws.send(json.dumps({"op": "create", "args": {"make": RL}, "style": "json"}))
        sid = json.loads(ws.recv(timeout=30))["session"]
        ws.send(json.dumps({"op": "reset", "session": sid, "args": {"seed": 0}, "style": "json"}))
        assert json.loads(ws.recv(timeout=30))["observation"]["screenshot"]["format"] == "png"
        ws.send(json.dumps({"op": "step", "session": sid, "args": {"action": ACTIONS[4]}, "style": "json"}))
        info = json.loads(ws.recv(timeout=30))["info"]
        assert set(info["timings"]) == {"action_ms", "judge_ms", "render_ms"} and info["judge"]["checks"]
        ws.send(json.dumps({"op": "close", "session": sid}))
        assert unpack_frame(ws.recv(timeout=30))[0] == {"closed": sid}
        ws.send("x" * (2 << 20))  # beyond --max-request-bytes: the server closes the connection (1009)
        with pytest.raises(ConnectionClosedError) as closed:
            ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with server.http() as http:  # HTTP with the frame media type: the same binary frames as /v1/ws
        frame = {"Accept": "application/x-mobilegym-frame"}
        sid = http.post("/v1/sessions", json={"make": RL, "image": {"format": "raw"}}).json()["session"]
        reply = http.post(f"/v1/sessions/{sid}/reset", json={"seed": 2}, headers=frame)
        assert reply.headers["content-type"] == "application/x-mobilegym-frame"
        header, blobs = unpack_frame(reply.content)
        local = gym.make("MobileGym-v0", **RL)
        assert same_obs(decode_obs(header["observation"], blobs), local.reset(seed=2)[0])
        http.delete(f"/v1/sessions/{sid}")
    with connect(ws_url + "/ws") as ws:  # OpenEnv's protocol: errors as {"type": "error"} messages
        ws.send("{oops")
        assert json.loads(ws.recv(timeout=30))["data"]["code"] == "malformed_json"
        ws.send(json.dumps({"type": "teleport"}))
        assert json.loads(ws.recv(timeout=30))["data"]["code"] == "unknown_type"
        ws.send(json.dumps({"type": "reset", "data": {"seed": 0, "make": {"task": "nope.Nothing"}}}))
        assert json.loads(ws.recv(timeout=30))["data"]["code"] == "bad_make_kwargs"
        ws.send(json.dumps({"type": "reset", "data": {"seed": 0, "warp": 9}}))
        assert json.loads(ws.recv(timeout=30))["data"]["code"] == "bad_reset"
