"""Calendar task suite."""
