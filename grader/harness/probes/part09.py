"""Probes for Part 9."""
