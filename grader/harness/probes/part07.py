"""Probes for Part 7."""
