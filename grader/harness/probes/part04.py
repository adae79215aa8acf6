"""Probes for Part 4."""
