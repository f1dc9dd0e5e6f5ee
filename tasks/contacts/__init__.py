"""Contacts task suite."""
