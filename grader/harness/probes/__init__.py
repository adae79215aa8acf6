"""The probes of each part: harness code that runs where the implementation runs.

``calls`` holds the plain ones (call a spec function, read a spec constant);
``partNN`` the scenarios of each part. See ``grader.harness.probe`` for what a
probe may and may not do, and ``grader/judges`` (staff-only) for the code of the
judges declared here.
"""
