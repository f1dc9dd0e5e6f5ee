"""Preparers of the Mail app (JSON "prepare" setup actions)."""
