"""Mail task suite."""
