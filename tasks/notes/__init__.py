"""Notes task suite."""
