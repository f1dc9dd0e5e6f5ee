"""Shop task suite."""
