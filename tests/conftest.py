"""Shared fixtures."""
from __future__ import annotations

import pytest

from mobilegym.sim.phone import Phone

from .uitools import CORE_APPS


@pytest.fixture
def phone() -> Phone:
    return Phone(apps=CORE_APPS)
