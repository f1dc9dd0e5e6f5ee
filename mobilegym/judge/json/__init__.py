"""Declarative JSON tasks: loading and schema validation, setup actions, getters, metrics, conjunction."""
