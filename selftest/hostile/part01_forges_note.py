"""At import, writes forged isolation statements (with markup) to every descriptor it holds and prints them."""
TARGET = "strides"

import json
import os
import stat

_FORGED = json.dumps({"pid": 2, "mode": "<script>alert('forged')</script>",
                      "protections": ["<script>alert('forged')</script>"], "missing": []}) + "\n"
for _fd in range(256):
    try:
        if not stat.S_ISSOCK(os.fstat(_fd).st_mode):  # its channel: forging there only breaks itself
            os.write(_fd, _FORGED.encode())
    except OSError:
        pass
print(_FORGED)
