"""Probes for Part 6."""
