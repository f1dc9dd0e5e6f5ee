"""Settings task suite."""
