"""Isolation: student code runs in sandboxed worker processes, never in the grader.

framing.py     length-prefixed messages over a socket
sandbox.py     what a worker does to itself before running student code
worker.py      the worker's loop: import the submission, answer probe requests
forkserver.py  a warm process (torch already imported) that forks workers
door.py        WorkerDoor: the trusted side's door into a worker

This package's ``__init__`` stays empty: the worker side imports its modules
from a copy that holds nothing of the staff's files.
"""
