"""Finding submissions: folders, zips, and folders of them; sharding a batch.

A submission is a folder that holds an ``assignment/`` package or the module
files directly, or a ``.zip`` of such a folder (possibly wrapped in one more
folder, as zipping a folder makes). A folder that is not a submission itself is
a batch: each entry in it is one student's submission, named by student id.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import os
import re
import shutil
import stat
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from grader.harness.impl import MODULES, SubmissionTooLarge, code_files, own_file, real_dir, stage_submission

MAX_ZIP_BYTES = 32 * 2**20
MAX_ZIP_FILES = 500
_SAFE_ID = re.compile(r"[^A-Za-z0-9._@+-]+")


@dataclass(frozen=True)
class Submission:
    student: str
    source: Path  # folder or zip as given
    in_batch: bool = False  # found in a folder of submissions (not named on the command line)


class BadSubmission(Exception):
    pass


# what a batch writes beside the students' folders: a student's folder must not take one's place
RESERVED_IDS = frozenset(["grades.csv", "report.html", "batch.json"])


# an id names files (``<id>/``, ``.logs/<id>.log``): a file name holds 255 bytes, and a name's
# disambiguating hashes (``_distinct``) may add a few more
MAX_ID = 100


def _hash(text: str | bytes) -> str:
    return hashlib.sha256(os.fsencode(text)).hexdigest()[:6]


def bare_name(name: str) -> str:
    """An upload's name as its id is made of: a zip's without its suffix (Frank.ZIP too)."""
    return name[:-4] if name.lower().endswith(".zip") else name


def student_id(name: str) -> str:
    # no id begins with +, - or @: a spreadsheet opening grades.csv reads such a cell as a formula
    found = _SAFE_ID.sub("_", bare_name(name)).lstrip("._+-@").rstrip("._") or "unnamed"
    if len(found) > MAX_ID:  # cut, with the whole name's hash: the same name always gives the same id
        found = f"{found[:MAX_ID - 7]}-{_hash(name)}"
    return f"{found}_" if found.lower() in RESERVED_IDS else found


def looks_like_submission(folder: Path) -> bool:
    """A folder with its own ``assignment/`` or module files (links are not followed: see ``stage_submission``)."""
    if real_dir(folder / "assignment"):
        return True
    return any((folder / f"{m}.py").is_file() and not (folder / f"{m}.py").is_symlink() for m in MODULES)


def expand(paths: list[Path], skipped: list[str] | None = None, leave_out: Path | None = None) -> list[Submission]:
    """Every submission named by ``paths``, sorted by student id; duplicate ids are an error. The names of the
    files in a batch folder that are neither a folder nor a zip (a .tar.gz, an export's metadata) are added to
    ``skipped``, for the run to say. ``leave_out``: the run's output folder, never a student's, wherever it lies
    (``--out`` inside the batch folder was graded as a student on the next run)."""
    found: list[Submission] = []
    output = leave_out.resolve() if leave_out is not None else None
    for path in map(Path, paths):
        if path.is_file() and _zipped(path):
            if _an_export(path):
                raise BadSubmission(f"{path} is a Gradescope export of several submissions ({EXPORT_METADATA} "
                                    "inside): unzip it and grade the folder, each submission_<id>/ a student")
            found.append(Submission(student_id(path.name), path))
        elif path.is_dir() and looks_like_submission(path):
            found.append(Submission(student_id(path.name), path))
        elif path.is_dir():
            for entry in sorted(path.iterdir()):
                if entry.name.startswith(".") or (output is not None and output.is_relative_to(entry.resolve())):
                    continue
                if entry.is_dir() or _zipped(entry):
                    found.append(Submission(student_id(entry.name), entry, in_batch=True))
                elif skipped is not None and entry.name != EXPORT_METADATA:  # (read for grades.csv: who made each)
                    skipped.append(entry.name)
        else:
            raise BadSubmission(f"{path}: not a folder or a .zip")
    return sorted(_distinct(found), key=lambda s: s.student)


def _an_export(path: Path) -> bool:
    """A zip of a whole class's export, given as one submission: graded as one student, of one folder's code."""
    try:
        with zipfile.ZipFile(path) as zf:
            return any(Path(name).name == EXPORT_METADATA for name in zf.namelist()[:MAX_ZIP_FILES * 100])
    except (zipfile.BadZipFile, OSError):
        return False


def _zipped(path: Path) -> bool:
    return path.suffix.lower() == ".zip"  # (Frank.ZIP too)


def _distinct(found: list[Submission]) -> list[Submission]:
    """Submissions whose names make the same id (``alice smith`` and ``alice_smith``, ``bob.zip`` and
    ``bob/``) each get the id and a short hash of the name they came with: one student's choice of
    name never stops the batch, and the same names always give the same ids. A folder already named
    like another's id and hash (``alice_smith-038bd1``) shares it again: then each of the two takes a
    hash of its whole path too, which no name chosen inside a batch folder can match."""
    out = list(found)
    for salt in (lambda s: s.source.name, lambda s: str(s.source), lambda s: str(s.source.resolve())):
        shared = {i for i, n in collections.Counter(s.student for s in out).items() if n > 1}
        if not shared:
            return out
        out = [dataclasses.replace(s, student=f"{s.student}-{_hash(salt(s))}") if s.student in shared else s
               for s in out]
    dupes = sorted(i for i, n in collections.Counter(s.student for s in out).items() if n > 1)
    if dupes:  # the same path named twice: one submission, never two results in one place
        raise BadSubmission(f"two submissions share the student id(s): {', '.join(dupes)}")
    return out


EXPORT_METADATA = "submission_metadata.yml"  # beside the submission_<id>/ folders of a Gradescope export


def export_submitters(folders: list[Path]) -> dict[str, str]:
    """Who made each submission of a Gradescope export (``submission_metadata.yml``: each folder's name, then its
    ``:submitters:``, each with ``:name:``, ``:sid:`` and ``:email:``), as "name <sid, email>; ..." by folder name;
    read line by line (a key, then indented fields), tolerant of what it does not know."""
    found: dict[str, list[dict[str, str]]] = {}
    for folder in folders:
        path = Path(folder) / EXPORT_METADATA
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
        except OSError:
            continue
        current: list[dict[str, str]] | None = None
        for line in lines:
            key = re.fullmatch(r":?([^\s:'\"]+):\s*", line)
            if key:  # a submission's record starts unindented
                current = found.setdefault(key.group(1), [])
                continue
            field = re.fullmatch(r"\s+(-\s+)?:?(name|sid|email):\s*(.*)", line)
            if current is None or not field:
                continue
            if field.group(1) or not current:  # "- :name: ..." starts a submitter
                current.append({})
            current[-1][field.group(2)] = field.group(3).strip().strip("'\"")
    return {student_id(key): "; ".join(
        f"{who.get('name', '?')} <{', '.join(v for v in (who.get('sid'), who.get('email')) if v)}>" for who in people)
        for key, people in found.items() if people}


def in_shard(student: str, shard: tuple[int, int] | None) -> bool:
    """Shard K/N (1-based) holds the ids whose hash is K-1 modulo N: stable, whatever the batch."""
    if shard is None:
        return True
    k, n = shard
    digest = int.from_bytes(hashlib.sha256(student.encode()).digest()[:8], "big")
    return digest % n == k - 1


def parse_shard(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match:
        raise ValueError(f"--shard takes K/N, e.g. 2/8, not {text!r}")
    k, n = int(match.group(1)), int(match.group(2))
    if not 1 <= k <= n:
        raise ValueError(f"--shard {text}: K must be between 1 and N")
    return k, n


def stage(sub: Submission, into: Path) -> tuple[Path, str]:
    """Copy the submission's code into ``into`` as ``assignment/``; returns ``into``, and a sentence for the
    student where the upload held two copies of the code, weighed module by module (``code_files``), else ""."""
    source = sub.source
    if source.is_symlink() and sub.in_batch:  # a link in a folder of submissions: a student may have made it
        raise BadSubmission("the submission is a symbolic link; only real folders and zips are graded")
    if source.is_file():
        unpacked = Path(tempfile.mkdtemp(prefix="unzip-"))
        try:
            _safe_extract(source, unpacked)
            folder, which = _find_code(unpacked)
            if folder is None:
                raise BadSubmission(f"the zip holds none of the module files ({FIND_DEPTH} folders deep at most)"
                                    + _what_it_holds(unpacked))
            return _staged(folder, into, which)
        finally:
            shutil.rmtree(unpacked, ignore_errors=True)
    folder, which = _find_code(source)
    if folder is None:
        zips = sorted(p.name for p in source.iterdir() if p.is_file() and _zipped(p))[:3]
        inside = f" (it holds {', '.join(zips)}: zips inside a submission are not opened; submit the files)" \
            if zips else ""
        raise BadSubmission(f"the folder holds none of the module files ({FIND_DEPTH} folders deep at most){inside}"
                            + _what_it_holds(source))
    return _staged(folder, into, which)


def _what_it_holds(root: Path) -> str:
    """What was looked for, and a few of the files found instead, with what to do of a module named in other
    letters (``Strides.py``) or a notebook."""
    files: list[Path] = []
    for folder, dirs, names in os.walk(root):  # (links never followed: the grader reads as root)
        dirs[:] = sorted(d for d in dirs if d != "__MACOSX")
        files += [Path(folder) / n for n in sorted(names) if not (Path(folder) / n).is_symlink()]
        if len(files) > 100:
            break
    wanted = {f"{m}.py" for m in MODULES}
    cased = sorted({p.name for p in files if p.name.lower() in wanted})
    hints = ([f"{', '.join(cased[:3])}: name each file in lower case, as the handout's assignment/ does"] if cased
             else []) + (["a notebook is not graded: put the functions in the .py files"]
                         if any(p.suffix == ".ipynb" for p in files) else [])
    found = ", ".join(p.relative_to(root).as_posix() for p in files[:6]) + (" ..." if len(files) > 6 else "")
    return (f". Graded are {', '.join(f'{m}.py' for m in MODULES)}, in assignment/ or loose; it holds "
            f"{found or 'no file'}" + "".join(f"; {hint}" for hint in hints))


def _staged(folder: Path, into: Path, which: str = "") -> tuple[Path, str]:
    files = code_files(folder)  # (weighed once: what is staged and what is said of it)
    try:
        return stage_submission(folder, into, files), " ".join(filter(None, [which and which + ".", files.said]))
    except SubmissionTooLarge as exc:
        raise BadSubmission(str(exc)) from None


FIND_DEPTH = 6  # folders below the upload searched for the code


def _find_code(root: Path) -> tuple[Path | None, str]:
    """The folder of the upload that holds the code (module files, loose or in an ``assignment/``), the
    shallowest; where several at that depth do (``draft/`` and ``final/``, ``v1/`` and ``v2/``), the one holding
    more of the modules, then fewer stubs left, then more functions written (``code_files``), then the last by
    name; and a sentence saying which was graded where there was a choice."""
    level = [root]
    for _ in range(FIND_DEPTH + 1):
        found = [folder for folder in level if _holds_modules(folder)]
        if found:
            return _likeliest(root, found)
        level = [entry for folder in level for entry in sorted(folder.iterdir())
                 if entry.is_dir() and not entry.is_symlink() and entry.name not in ("__MACOSX", ".git")][:500]
    return None, ""


def _holds_modules(folder: Path) -> bool:
    """Module files of the assignment in the folder, loose or in its ``assignment/`` (links not followed)."""
    places = [folder] + ([folder / "assignment"] if real_dir(folder / "assignment") else [])
    return any(own_file(place / f"{m}.py") for place in places for m in MODULES)


SEVERAL_COPIES = re.compile(r"the upload holds \d+ copies of the code: ")  # how the choice is said


def _likeliest(root: Path, found: list[Path]) -> tuple[Path, str]:
    if len(found) == 1:
        return found[0], ""
    weighed = {folder: code_files(folder) for folder in found}
    # of two copies as written (old/ and new/), the one changed last, not the last by name (old/)
    key = {folder: (len(files.modules()), *files.written(), _changed(files), str(folder))
           for folder, files in weighed.items()}
    chosen = max(found, key=lambda f: key[f])
    named = lambda f: f"{f.relative_to(root).as_posix()}/"  # noqa: E731
    others = ", ".join(named(f) for f in found if f != chosen)
    return chosen, (f"the upload holds {len(found)} copies of the code: graded {named(chosen)} (the most modules, "
                    f"then the fewest stubs left, then the most functions written, then the files changed last, then "
                    f"the last by name) and left out {others}")


def _changed(files) -> float:
    """When a copy's module files were last changed (a zip's entries keep their dates when unpacked)."""
    return max((path.stat().st_mtime for path in files.modules().values()), default=0.0)


def _safe_extract(archive: Path, into: Path) -> None:
    """Extract only regular files, inside ``into``, within size and count limits."""
    try:
        with zipfile.ZipFile(archive) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_ZIP_FILES:
                raise BadSubmission(f"the zip holds more than {MAX_ZIP_FILES} entries")
            if sum(i.file_size for i in infos) > MAX_ZIP_BYTES:
                raise BadSubmission(f"the zip unpacks to more than {MAX_ZIP_BYTES // 2**20} MB")
            base = into.resolve()
            budget = MAX_ZIP_BYTES  # headers can lie about sizes: count what really comes out
            for info in infos:
                mode = info.external_attr >> 16
                if info.is_dir() or stat.S_ISLNK(mode):
                    continue
                target = (into / info.filename).resolve()
                if not target.is_relative_to(base):
                    raise BadSubmission(f"the zip entry {info.filename!r} points outside the archive")
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, open(target, "wb") as dst:
                    while chunk := src.read(1 << 16):
                        budget -= len(chunk)
                        if budget < 0:
                            raise BadSubmission(f"the zip unpacks to more than {MAX_ZIP_BYTES // 2**20} MB")
                        dst.write(chunk)
                try:  # the date the student's file had: of two copies, the one changed last is graded
                    stamp = time.mktime((*info.date_time, 0, 0, -1))
                    os.utime(target, (stamp, stamp))
                except (OverflowError, ValueError, OSError):
                    pass
    except zipfile.BadZipFile as exc:
        raise BadSubmission(f"not a valid zip: {exc}") from None
    except OSError as exc:  # entries that clash (a file and a folder of one name), names the system refuses
        raise BadSubmission(f"the zip's entries cannot be unpacked: {exc.strerror or exc}") from None
