"""Preparers of the Files app for JSON tasks (setup action ``prepare``)."""
