"""Isolation: student code runs in sandboxed worker processes, never in the grader.

framing.py     length-prefixed messages over a socket
sandbox.py     the kernel calls a worker makes to box itself in: namespaces, limits, privileges
view.py        what a worker sees of the filesystem: an allow-list, built in its own mount namespace
cgroups.py     a control group per worker: memory, processes and CPU for its whole process tree
worker.py      the worker's loop: import the submission, answer probe requests
import_origins.py  a worker imports only the submission's staged files, the libraries and the harness
forkserver.py  a warm process (torch already imported) that forks workers
transport.py   Sandboxed: the trusted side's transport to the workers (deadlines, kills, memory)

This package's ``__init__`` stays empty: the worker side imports its modules
from a copy that holds nothing of the staff's files.
"""
