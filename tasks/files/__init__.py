"""Files task suite."""
