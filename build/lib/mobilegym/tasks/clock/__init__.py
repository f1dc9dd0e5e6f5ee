"""Clock task suite."""
