"""Probes for Part 3."""
