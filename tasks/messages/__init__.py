"""Messages task suite."""
