"""Task suites."""
