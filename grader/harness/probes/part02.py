"""Probes for Part 2."""
