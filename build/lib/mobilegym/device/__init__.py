"""Devices the environment drives: the in-process simulated phone and ADB devices."""
