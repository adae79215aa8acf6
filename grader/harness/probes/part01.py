"""Probes for Part 1."""
