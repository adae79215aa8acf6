"""Probes for Part 10."""
