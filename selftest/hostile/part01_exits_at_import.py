"""Leaves the process the moment it is imported."""
TARGET = "strides"

import os

os._exit(0)
