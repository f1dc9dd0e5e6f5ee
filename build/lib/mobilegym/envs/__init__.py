"""Simulated apps, one subpackage each."""
