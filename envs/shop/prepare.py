"""Preparers of the Shop app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations
