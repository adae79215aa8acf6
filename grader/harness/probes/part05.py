"""Probes for Part 5."""
