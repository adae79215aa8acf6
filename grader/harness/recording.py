"""Recordings: one run of the graded tests against the reference, written down to be replayed.

A recording holds, for every test, the examples it drew (each argument as wire
text), and for every question the reference was asked, its answer. Replaying it
runs each test body over exactly those examples, simplest first, with the
answers at hand: no input generation, no reference to run, every submission on
the same inputs, and the first failure the simplest recorded one.

Two kinds are made from the same run:
* the handout's (``python -m grader handout``): the public tests under the
  ``record`` profile; answers to fixed-input questions kept only as digests
  (``grader.harness.digest``); the pristine stubs alongside (``stubs.json.gz``);
* the grader's (``python -m grader record``): every test under the grading
  profile and seed, answers in full, staff-only.

A folder of gzip'd JSON (no pickles) and a ``manifest.json`` that says what the
recording was made from: a fingerprint of the tests, the reference, the stubs,
the harness and the judges. Replaying a recording made from anything else is
refused (``Stale``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from pathlib import Path
from typing import Any, Iterator

from grader.harness import wire

ROOT = Path(__file__).resolve().parent.parent.parent
FINGERPRINTED = ("tests", "reference", "assignment", "grader/harness", "grader/judges")
EXAMPLES, ANSWERS, STUBS, MANIFEST = "examples.json.gz", "answers.json.gz", "stubs.json.gz", "manifest.json"
QUESTIONS = "questions.json.gz"


class Stale(Exception):
    """A recording that cannot be used: made from other tests, another reference or another harness, or damaged."""


def fingerprint(root: Path = ROOT) -> str:
    """A hash of everything a recording's examples and answers depend on."""
    digest = hashlib.sha256()
    for name, text in _fingerprinted(root):
        # (requirements.txt by its text alone, as it always was: a recording made before stays fresh)
        digest.update(text if name == "requirements.txt" else name.encode() + b"\0" + text + b"\0")
    return digest.hexdigest()


def file_hashes(root: Path = ROOT) -> dict[str, str]:
    """The fingerprint's files, each with a short hash of its own: what a stale recording names as changed."""
    return {name: hashlib.sha256(text).hexdigest()[:16] for name, text in _fingerprinted(root)}


def _fingerprinted(root: Path) -> Iterator[tuple[str, bytes]]:
    for folder in FINGERPRINTED:
        base = Path(root) / folder
        for path in sorted(base.rglob("*.py")) if base.is_dir() else []:
            if "__pycache__" in path.parts or "recorded" in path.parts:
                continue
            yield path.relative_to(root).as_posix(), path.read_bytes()
    requirements = Path(root) / "requirements.txt"
    if requirements.exists():
        yield "requirements.txt", requirements.read_bytes()


def what_changed(then: dict[str, str], now: dict[str, str], shown: int = 5) -> str:
    """The files that differ between two ``file_hashes``, in a few words ("reference/strides.py changed")."""
    said = [f"{name} changed" for name in sorted(then.keys() & now.keys()) if then[name] != now[name]]
    said += [f"{name} is new" for name in sorted(now.keys() - then.keys())]
    said += [f"{name} is gone" for name in sorted(then.keys() - now.keys())]
    return ", ".join(said[:shown]) + (f" and {len(said) - shown} more" if len(said) > shown else "")


_COMPACT = json.JSONEncoder(separators=(",", ":"))  # made once (json.dumps with options makes one a call)


def example_id(encoded: dict[str, str]) -> str:
    """One example's identity in a recording: its arguments' wire texts, by name."""
    return _COMPACT.encode(sorted(encoded.items()))


def _simplicity(example: dict[str, str]) -> tuple:
    """Shortest encoding first: what shrinking over the recorded examples would reach."""
    return sum(len(v) for v in example.values()), sorted(example.items())


class Recording:
    """A recording, read back."""

    def __init__(self, examples: dict[str, list[dict[str, str]]], answers: dict[str, str],
                 manifest: dict[str, Any], questions: dict[str, list[list]] | None = None) -> None:
        self.examples = examples
        self.answers = answers
        self.manifest = manifest
        self.questions = questions or {}
        # by test: its distinct examples, simplest first, each with its ``example_id``
        self._sorted: dict[str, list[tuple[tuple[tuple[str, str], ...], str]]] = {}
        # decoded ahead by ``prepare``, each handed out once: by key, and by (test, example id)
        self._answers_ready: dict[str, Any] = {}
        self._examples_ready: dict[tuple[str, str], dict[str, Any]] = {}

    @classmethod
    def load(cls, folder: Path, *, expect: str | None = None, root: Path = ROOT) -> "Recording":
        """Read a recording (once per process; forked grading processes inherit it).

        ``expect``: the fingerprint it must have been made from (of the files under ``root``), else ``Stale``.
        """
        key = str(Path(folder).resolve())
        if key not in _LOADED and not (Path(folder) / MANIFEST).is_file():  # a typo is no stale recording
            raise Stale(f"there is no recording in {folder} (no {MANIFEST}): make one with `python -m grader record`")
        if key not in _LOADED:
            _LOADED[key] = cls._read(Path(folder))
        recording = _LOADED[key]
        made_from = recording.manifest.get("fingerprint")
        if expect is not None and made_from != expect:
            then = recording.manifest.get("files")
            changed = what_changed(then, file_hashes(root)) if isinstance(then, dict) else ""
            raise Stale(f"the recording in {folder} was made from other tests, another reference or another "
                        f"harness (fingerprint {str(made_from)[:12]}, here {expect[:12]}"
                        + (f": {changed}" if changed else "") + "): record it again with `python -m grader record` "
                        "(a Gradescope zip's: build the zip again, `make gradescope`, under its seed; any edit of "
                        "those files counts, a comment's too: what a recording holds may depend on it)")
        return recording

    @classmethod
    def _read(cls, folder: Path) -> "Recording":
        def read(name: str, key: str | None, needed: bool = True) -> dict:
            # (every recording has its examples and answers: one missing or cut short is a damaged copy, said with
            # its name, not a recording of nothing whose tests all skip)
            path = folder / name
            if not path.exists() and not needed:
                return {}
            try:
                text = gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()
                data = json.loads(text)
                return data if key is None else data.get(key, {})
            except (OSError, EOFError, ValueError, AttributeError, zlib.error) as error:
                raise Stale(f"{path} cannot be read ({type(error).__name__}: {error}): the recording is damaged or "
                            "incomplete; restore the folder as it was given (the handout's tests/recorded/), or "
                            "record it again with `python -m grader record`") from None

        return cls(read(EXAMPLES, "examples"), read(ANSWERS, "answers"), read(MANIFEST, None),
                   read(QUESTIONS, "questions", needed=False))

    def examples_of(self, test: str, *, skip: set[str] = frozenset()) -> Iterator[dict[str, Any]]:
        """The test's examples, distinct, simplest first; each decoded afresh as it is reached
        (a replay that stops at its first failure decodes no more). ``skip``: examples already run
        (their ``example_id``), left out."""
        for example, identity in self._ordered(test):
            if identity in skip:
                continue
            ready = self._examples_ready.pop((test, identity), None)
            yield ready if ready is not None else {name: wire.decode(text) for name, text in example}

    def count(self, test: str) -> int:
        return len(self._ordered(test))

    def _ordered(self, test: str) -> list[tuple[tuple[tuple[str, str], ...], str]]:
        if test not in self._sorted:
            distinct = {tuple(sorted(example.items())) for example in self.examples.get(test, ())}
            ordered = sorted(distinct, key=lambda e: _simplicity(dict(e)))
            self._sorted[test] = [(example, example_id(dict(example))) for example in ordered]
        return self._sorted[test]

    def prepare(self) -> None:
        """Decode now everything a replay takes from this recording: the examples and the answers.

        A batch calls it once, before it forks its grading processes, which then inherit the
        decoded values instead of each decoding them again. Each value prepared is handed out once
        (``examples_of``, ``answer``); asked again, it is decoded afresh, so no two askers in a
        process ever share an object, exactly as without ``prepare``."""
        for test in self.examples:
            for example, identity in self._ordered(test):
                self._examples_ready[(test, identity)] = {name: wire.decode(text) for name, text in example}
        self._answers_ready = {key: wire.decode(text, digests=True) for key, text in self.answers.items()}

    def questions_of(self, test: str, explicit: list[dict[str, Any]] = ()) -> list[tuple[str, float | None]]:
        """What the test asked the implementation in the recorded run, example by example in the order
        a replay runs them (``explicit`` examples first, then the recorded ones simplest first): (question
        key, its own time limit or None). Only the grader's recordings keep these (see ``Recorder``)."""
        asked = self.questions.get(test)
        if type(asked) is not dict:
            return []
        order = [example_id({k: wire.encode(v) for k, v in e.items()}) for e in explicit]
        order += [identity for _, identity in self._ordered(test)]
        out, seen = [], set()
        for example in order:
            if example in seen:  # an explicit example that was also recorded: replayed once
                continue
            seen.add(example)
            out += _entries(asked.get(example, ()))
        return out

    def all_questions(self) -> Iterator[tuple[str, float | None]]:
        """Every question the recorded run asked, of every test and example (``questions_of``'s entries)."""
        for asked in self.questions.values():
            for entries in asked.values() if type(asked) is dict else ():
                yield from _entries(entries)

    def seconds_of(self, test: str) -> float | None:
        """How long the recorded run of a test took (None: not recorded): what a grader splitting one
        submission across processes weighs the tests by."""
        value = self.manifest.get("seconds", {}).get(test) if type(self.manifest.get("seconds")) is dict else None
        return float(value) if type(value) in (int, float) and value >= 0 else None

    def answer(self, key: str) -> Any:
        """The recorded outcome of a question (None if it was never asked)."""
        if key in self._answers_ready:
            return self._answers_ready.pop(key)
        text = self.answers.get(key)
        return None if text is None else wire.decode(text, digests=True)


def _entries(entries: Any) -> Iterator[tuple[str, float | None]]:
    """One example's well-formed entries, as recorded (see ``Recorder.question``): (question key,
    its own time limit or None)."""
    for entry in entries if type(entries) is list else ():
        if type(entry) is list and len(entry) == 2 and type(entry[0]) is str:
            yield entry[0], entry[1] if type(entry[1]) in (int, float) else None


_LOADED: dict[str, Recording] = {}


class Recorder:
    """Writes down examples and answers while the reference runs.

    ``digests``: keep only fingerprints of the answers to fixed-input questions (the handout).
    """

    def __init__(self, *, digests: bool) -> None:
        self.digests = digests
        self.examples: dict[str, list[dict[str, str]]] = {}
        self.answers: dict[str, str] = {}
        # by test, by example (``example_id``): [question key, its time limit], in the order asked (a
        # question asked twice is listed twice: a replay sends it twice)
        self.questions: dict[str, dict[str, list[list]]] = {}
        self._example: dict[str, str] = {}  # by test: the example being run
        self.seconds: dict[str, float] = {}  # by test: how long its bodies ran (a grader's cost hint)

    def example(self, test: str, values: dict[str, Any]) -> None:
        encoded = {name: wire.encode(v) for name, v in values.items()}
        self.examples.setdefault(test, []).append(encoded)
        self._example[test] = example_id(encoded)

    def spent(self, test: str, seconds: float) -> None:
        self.seconds[test] = self.seconds.get(test, 0.0) + seconds

    def question(self, test: str, key: str, timeout: float | None) -> None:
        """A question the test asked the implementation (sent ahead when a grading run replays it)."""
        example = self._example.get(test, "")
        self.questions.setdefault(test, {}).setdefault(example, []).append([key, timeout])

    def answer(self, key: str, outcome: Any, secret: Any = None) -> None:
        if type(outcome) is not dict or outcome.get("status") != "ok":
            return
        if secret is not None and self.digests:
            from grader.harness.digest import hide

            outcome = {**outcome, "value": hide(outcome["value"], secret)}
        self.answers[key] = wire.encode(outcome)

    def write(self, folder: Path, *, manifest: dict[str, Any], stubs: dict[str, str] | None = None) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        _write_gz(folder / EXAMPLES, {"examples": self.examples})
        _write_gz(folder / ANSWERS, {"answers": self.answers})
        if not self.digests:
            # the handout has none: a question's arguments may be built from the reference's answers
            _write_gz(folder / QUESTIONS, {"questions": self.questions})
        if stubs is not None:
            (folder / STUBS).write_bytes(gzip.compress(json.dumps(stubs, sort_keys=True).encode(), mtime=0))
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        return folder


def merge(pieces: list[Path], into: Path) -> Path:
    """One recording from recordings of disjoint sets of tests made from the same tree under the same
    seed and profile (a recording run split by part across processes). Examples, questions and the
    seconds a test took belong to one piece each; an answer met by several pieces is the same
    reference's answer to the same question, and the first piece's is kept."""
    read = [Recording._read(Path(folder)) for folder in pieces]
    made_from = {(r.manifest.get("fingerprint"), r.manifest.get("seed"), r.manifest.get("profile")) for r in read}
    if len(made_from) != 1:
        raise Stale(f"the pieces of a recording were made from different trees, seeds or profiles: {made_from}")
    joined = Recorder(digests=bool(read[0].manifest.get("digests")))
    seconds: dict[str, float] = {}
    for r in read:
        joined.examples.update(r.examples)
        joined.questions.update(r.questions)
        seconds.update(r.manifest.get("seconds", {}))
        for key, text in r.answers.items():
            joined.answers.setdefault(key, text)
    stubs = Path(pieces[0]) / STUBS
    return joined.write(into, manifest={**read[0].manifest, "seconds": dict(sorted(seconds.items()))},
                        stubs=json.loads(gzip.decompress(stubs.read_bytes())) if stubs.exists() else None)


def _write_gz(path: Path, payload: dict) -> Path:
    """Deterministic bytes for the same content (sorted keys, no timestamp)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    return path
