"""Named errors of :class:`mobilegym.ray.EnvPool`: one env's failure, a lost actor, a bad request."""
from __future__ import annotations

from typing import Any


class EnvPoolError(Exception):
    """Something an :class:`~mobilegym.ray.EnvPool` could not do; the pool itself goes on working."""


class EnvError(EnvPoolError):
    """An env raised in its actor: ``env_id``, the operation (``op``), the exception's class name
    (``kind``, e.g. ``InvalidAction``), its message and the actor-side traceback (``remote_traceback``).
    The actor and its other envs are unharmed."""

    def __init__(self, env_id: int, op: str, kind: str, message: str, remote_traceback: str = "") -> None:
        super().__init__(f"env {env_id} failed to {op}: {kind}: {message}")
        self.env_id, self.op, self.kind, self.message = env_id, op, kind, message
        self.remote_traceback = remote_traceback


class EnvCreateError(EnvPoolError, ValueError):
    """The envs could not be made (gym.make refused the keyword arguments); no pool was left running."""


class ActorDiedError(EnvPoolError):
    """The actor (``actor``: its index) holding these envs died (its process or node went away): its envs
    (``env_ids``) are lost; the other actors' envs go on."""

    def __init__(self, actor: int, env_ids: list[int], cause: str) -> None:
        super().__init__(f"actor {actor} died and took envs {env_ids} with it: {cause}")
        self.actor, self.env_ids, self.cause = actor, env_ids, cause


class EnvLostError(EnvPoolError):
    """An env whose actor died earlier (see :class:`ActorDiedError`): remove it or make a new pool."""

    def __init__(self, env_id: int, actor: int) -> None:
        super().__init__(f"env {env_id} was lost when actor {actor} died")
        self.env_id, self.actor = env_id, actor


class UnknownEnvError(EnvPoolError, KeyError):
    """An env id the pool does not hold (never made, or removed)."""

    def __init__(self, env_id: Any, known: list[int]) -> None:
        shown = ", ".join(map(str, known[:10])) + (" ..." if len(known) > 10 else "")
        super().__init__(f"the pool has no env {env_id!r} (envs: {shown or 'none'})")
        self.env_id = env_id

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class PoolClosedError(EnvPoolError, RuntimeError):
    """The pool was closed."""


class BatchError(EnvPoolError):
    """Some envs of a batched call failed. ``errors`` maps their env ids to the named errors;
    ``results`` is the whole batch in order, each failed env's entry being its error."""

    def __init__(self, op: str, errors: dict[int, EnvPoolError], results: list[Any]) -> None:
        first = next(iter(errors.values()))
        super().__init__(f"{len(errors)} of {len(results)} envs failed to {op}; first: {first}")
        self.op, self.errors, self.results = op, errors, results
