"""Probes for Part 8."""
