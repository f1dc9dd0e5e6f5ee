"""Deprecated path: :mod:`mobilegym.app_states` (the world document's lazily read app states)."""
import warnings

from ..app_states import AppStates, BlobSource  # noqa: F401

warnings.warn("mobilegym.sim.app_states moved to mobilegym.app_states", DeprecationWarning, stacklevel=2)
