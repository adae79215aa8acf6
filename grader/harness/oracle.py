"""The oracle: where expected values come from, behind the same kind of door.

* live      the staff ``reference`` package, run in this (trusted) process.
* record    live, and every case drawn and every answer given is written down.
* recorded  the student handout: no reference, only those recordings. Tests draw
            their inputs from the recorded cases, so every question has an answer.
* replay    batch grading: the grader records one reference run under its own seed,
            then every submission replays those cases, with the answers at hand and
            no input generation to pay for again (the live reference answers the rest).

Tests name their inputs with ``cases(name, strategy)``; what that strategy draws
depends on the mode, so one test source serves all three.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Callable

from hypothesis import strategies as st

from grader.harness import faults, wire
from grader.harness.door import CALL_HOOKS, Door, InProcessDoor, describe_call, function_of
from grader.harness.impl import Implementation

MEMO_LIMIT = 20_000


class LiveOracle(InProcessDoor):
    """The reference, trusted, memoised: the same question is answered once."""

    def __init__(self, impl: Implementation) -> None:
        super().__init__(impl, label="reference", trusted=True)
        self._memo: dict[str, str] = {}

    def _ask(self, probe: str, args: tuple) -> dict:
        key = wire.canonical_key(probe, args)
        hit = self._memo.get(key)
        if hit is not None:
            return wire.decode(hit)  # decoded afresh: callers may mutate tensors
        answer = super()._ask(probe, args)
        if len(self._memo) < MEMO_LIMIT:
            self._memo[key] = wire.encode(answer)
        return answer


class RecordingOracle(LiveOracle):
    """Live, and writes down each answer for the handout's recordings."""

    def __init__(self, impl: Implementation, recorder: "Recorder") -> None:
        super().__init__(impl)
        self.recorder = recorder

    def _ask(self, probe: str, args: tuple) -> dict:
        answer = super()._ask(probe, args)
        if answer.get("status") == "ok":
            self.recorder.answers[wire.canonical_key(probe, args)] = wire.encode(answer)
        return answer


class ReplayOracle(LiveOracle):
    """Grading many submissions: the answers recorded in this batch's reference run first,
    the live reference for anything else (a question the recording run never asked)."""

    def __init__(self, impl: Implementation, recordings: "Recordings") -> None:
        super().__init__(impl)
        self._memo.update(recordings.answers)


class RecordedOracle(Door):
    """Answers from recordings: the handout's oracle, with no reference anywhere."""

    label = "recorded"
    trusted = True

    def __init__(self, recordings: "Recordings") -> None:
        super().__init__()
        self.recordings = recordings

    def _ask(self, probe: str, args: tuple) -> dict:
        text = self.recordings.answers.get(wire.canonical_key(probe, args))
        if text is None:
            raise faults.HarnessFault(
                function_of(probe, args),
                "no recorded answer for this input; rebuild the handout's recordings",
                describe_call(probe, args),
            )
        return wire.decode(text)


# --------------------------------------------------------------------------- recordings
class Recordings:
    """Recorded cases (per name) and answers (per question), as wire text."""

    def __init__(self) -> None:
        self.cases: dict[str, list[str]] = {}
        self.answers: dict[str, str] = {}
        self.examples: dict[str, list[dict[str, str]]] = {}
        self._strategies: dict[str, st.SearchStrategy] = {}

    @classmethod
    def load_dir(cls, folder: Path) -> "Recordings":
        """Read a folder of recordings (once per process: grading processes inherit them)."""
        key = str(Path(folder).resolve())
        if key not in _LOADED:
            _LOADED[key] = cls._read(Path(folder))
        return _LOADED[key]

    @classmethod
    def _read(cls, folder: Path) -> "Recordings":
        rec = cls()
        for path in sorted(Path(folder).glob("*.json.gz")):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                data = json.load(handle)
            for name, values in data.get("cases", {}).items():
                rec.cases.setdefault(name, []).extend(values)
            rec.answers.update(data.get("answers", {}))
            for test, examples in data.get("examples", {}).items():
                rec.examples.setdefault(test, []).extend(examples)
        return rec

    def strategy(self, name: str) -> st.SearchStrategy:
        cached = self._strategies.get(name)
        if cached is not None:
            return cached
        values = self.cases.get(name)
        if not values:
            raise faults.HarnessFault(name, f"no recorded cases named {name!r} in the handout")
        # simplest first, so that shrinking ends on the simplest recorded failure
        ordered = sorted(set(values), key=lambda text: (len(text), text))
        self._strategies[name] = strategy = st.sampled_from(ordered).map(wire.decode)
        return strategy


_LOADED: dict[str, Recordings] = {}


class Recorder:
    """Collects cases and answers while the reference runs, grouped by part."""

    def __init__(self) -> None:
        self.cases: dict[str, list[str]] = {}
        self.answers: dict[str, str] = {}
        self.examples: dict[str, list[dict[str, str]]] = {}

    def record_case(self, name: str, value: Any) -> None:
        text = wire.encode(value)
        bucket = self.cases.setdefault(name, [])
        if text not in bucket:
            bucket.append(text)

    def record_example(self, test: str, values: dict[str, Any]) -> None:
        """One example of a test: every case it drew, by case name."""
        self.examples.setdefault(test, []).append({k: wire.encode(v) for k, v in values.items()})

    def write(self, folder: Path, group_of: Callable[[str], str]) -> list[Path]:
        """One gzip file of cases per group (part), and one of all the answers."""
        folder.mkdir(parents=True, exist_ok=True)
        groups: dict[str, dict[str, list[str]]] = {}
        for name, values in self.cases.items():
            groups.setdefault(group_of(name), {})[name] = values
        written = []
        for group, cases in sorted(groups.items()):
            written.append(_write_gz(folder / f"{group}.json.gz", {"cases": cases}))
        written.append(_write_gz(folder / "answers.json.gz", {"answers": self.answers}))
        return written

    def write_examples(self, folder: Path) -> Path:
        """Whole examples per test: only the grader's own recordings need them."""
        return _write_gz(folder / "examples.json.gz", {"examples": self.examples})


def _write_gz(path: Path, payload: dict) -> Path:
    """Deterministic bytes for the same content (sorted keys, no timestamp)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    return path


# --------------------------------------------------------------------------- cases
class _Mode:
    """How ``cases`` draws: set once per session by the pytest plugin."""

    kind = "live"  # live | record | recorded
    recorder: Recorder | None = None
    recordings: Recordings | None = None
    test = ""  # the running test: recordings are kept per test, so a case always has its answers
    # Cases drawn for the example being generated, kept until its test body runs:
    # hypothesis may abandon an example half-drawn, and such a case has no answers.
    pending: list = []
    pending_owner: object = None

    def commit(self) -> None:
        if self.recorder is not None:
            for key, value in self.pending:
                self.recorder.record_case(key, value)
            if self.pending:  # the whole example too, for grading's direct replay
                self.recorder.record_example(self.test, {key.split("|", 1)[1]: value for key, value in self.pending})
        self.pending = []


MODE = _Mode()


def set_mode(kind: str, *, recorder: Recorder | None = None, recordings: Recordings | None = None) -> None:
    MODE.kind = kind
    MODE.recorder = recorder
    MODE.recordings = recordings
    MODE.pending, MODE.pending_owner = [], None
    if MODE.commit in CALL_HOOKS:
        CALL_HOOKS.remove(MODE.commit)
    if kind == "record":
        CALL_HOOKS.append(MODE.commit)  # a call through a door: the test body runs


def cases(name: str, strategy: st.SearchStrategy) -> st.SearchStrategy:
    """The inputs of a graded test: ``strategy`` live, the recordings in the handout."""

    @st.composite
    def draw_case(draw):
        key = f"{MODE.test}|{name}"
        if MODE.kind == "recorded":
            assert MODE.recordings is not None
            return draw(MODE.recordings.strategy(key))
        if MODE.kind == "replay" and MODE.recordings is not None and key in MODE.recordings.cases:
            return draw(MODE.recordings.strategy(key))
        value = draw(strategy)
        if MODE.kind == "record":
            owner = getattr(draw, "__self__", None)  # hypothesis's data for this one example
            if owner is not MODE.pending_owner:
                MODE.pending, MODE.pending_owner = [], owner
            MODE.pending.append((key, value))
        return value

    strategy_of_cases = draw_case()
    strategy_of_cases.case_name = name  # how grading's direct replay matches recorded examples
    return strategy_of_cases
