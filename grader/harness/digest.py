"""Fingerprints of answers the handout must not give away.

Some graded questions have a fixed, small set of inputs: the datasheet tables,
``nvfp4_values``, ``FP4_E2M1``, ``float_format`` of five dtypes. Grading cannot
draw other inputs for them, so recording their answers in the handout would be
an answer key. For those (declared ``secret=`` on the function or probe) the
handout records, per leaf of the answer (a number, a string, a dtype), a salted
SHA-256 of its canonical wire encoding instead of the value: the student's run
still says pass or fail, and shows what came back, but not what was expected.

A number compared with a relative tolerance is fingerprinted cell by cell: the
line is cut into cells of relative width ``rel / 10`` (on a log scale), and the
digest lists the cells that lie wholly within the tolerance of the answer. A
value passes in the handout if its cell is listed, which implies it passes the
live comparison too (never the other way round: the handout is never the more
lenient). A digest hides an answer from reading, not from search: the handout holds
the salt, so candidates can be tried offline at a hash each (for a datasheet figure,
the cells of a plausible range of magnitudes: seconds; for one of a few values, at
once). That is accepted: these are facts to look up or derive, and every drawn input's
answer is recorded as plain data, never a digest.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from typing import Any

from grader.harness.wire import Record, canonical_key


@dataclass(frozen=True)
class Secret:
    """How a fixed-input answer is compared, so that its digest can be compared the same way."""

    rel: float = 0.0  # 0: exactly; else numbers within this relative tolerance


EXACT_SECRET = Secret()


@dataclass(frozen=True)
class Digest:
    """The fingerprint of one hidden leaf of an answer."""

    salt: str
    digests: frozenset[str]
    rel: float = 0.0
    number: bool = False  # the hidden value is a number (an int and a float of equal value match)

    def matches(self, value: Any) -> bool:
        if self.number:
            if type(value) not in (int, float):
                return False
            if self.rel == 0.0:
                return self._hash(_number_key(value)) in self.digests
            return self._hash(_cell(float(value), self.rel)) in self.digests
        return self._hash(canonical_key(value)) in self.digests

    def _hash(self, text: str) -> str:
        return hashlib.sha256(f"{self.salt}|{text}".encode()).hexdigest()

    def __repr__(self) -> str:
        return "<hidden>"


def _number_key(value: float | int) -> str:
    # as == compares: an int and its float match, and so do +0.0 and -0.0 (adding 0.0 makes -0.0 +0.0)
    return repr(float(value) + 0.0) if math.isfinite(value) else repr(value)


def _cell(value: float, rel: float) -> str:
    """Which cell of relative width rel/10 the value lies in (sign, log-scale index)."""
    if value == 0.0 or not math.isfinite(value):
        return repr(value + 0.0)  # (+0.0 and -0.0 alike, as math.isclose has them)
    step = math.log1p(rel / 10)
    return f"{'-' if value < 0 else '+'}{math.floor(math.log(abs(value)) / step)}"


def _cells_within(expected: float, rel: float) -> list[str]:
    """The cells wholly within ``rel`` of ``expected`` (math.isclose's symmetric test)."""
    if expected == 0.0 or not math.isfinite(expected):
        return [repr(expected + 0.0)]
    step = math.log1p(rel / 10)
    centre = math.floor(math.log(abs(expected)) / step)
    sign = "-" if expected < 0 else "+"
    cells = []
    for index in range(centre - 12, centre + 13):
        low, high = math.exp(index * step), math.exp((index + 1) * step)
        if all(math.isclose(edge, abs(expected), rel_tol=rel) for edge in (low, high)):
            cells.append(f"{sign}{index}")
    return cells


def hide(value: Any, secret: Secret, salt: str | None = None) -> Any:
    """``value`` with every leaf replaced by its ``Digest`` (containers and field names stay; a leaf that is
    one already stays as it is)."""
    salt = salt or secrets.token_hex(8)
    if isinstance(value, Digest):
        return value
    if type(value) in (tuple, list):
        return type(value)(hide(v, secret, salt) for v in value)
    if type(value) is dict:
        return {k: hide(v, secret, salt) for k, v in value.items()}
    if isinstance(value, Record):
        return Record(value.kind, value.name, tuple((k, hide(v, secret, salt)) for k, v in value.fields))
    number = type(value) in (int, float)
    if number and secret.rel > 0:
        keys = _cells_within(float(value), secret.rel)
    elif number:
        keys = [_number_key(value)]
    else:
        keys = [canonical_key(value)]
    digest = Digest(salt, frozenset(), secret.rel, number)
    return Digest(salt, frozenset(digest._hash(k) for k in keys), secret.rel, number)


def to_wire(digest: Digest) -> dict:
    return {"$digest": sorted(digest.digests), "salt": digest.salt, "rel": digest.rel, "number": digest.number}


def from_wire(obj: dict) -> Digest:
    digests = obj["$digest"]
    if type(digests) is not list or not all(type(d) is str for d in digests):
        raise ValueError("a digest is a list of hex strings")
    return Digest(str(obj["salt"]), frozenset(digests), float(obj.get("rel", 0.0)), bool(obj.get("number")))
