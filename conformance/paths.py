"""Where the runner finds ``spec/`` and the scenarios.

The runner reads the normative files of the repository: ``spec/schema/``,
``spec/clauses.yaml``, ``spec/decisions.yaml``, and the scenarios under
``conformance/scenarios/``. Both travel inside the package: an installed wheel
carries ``spec/`` as the data package ``conformance._spec`` (pyproject maps it
onto the top-level folder) and the scenarios as data of ``conformance``, and
``importlib.resources`` finds them there. In a checkout or an editable install
the wheel's ``_spec`` does not exist and ``spec/`` beside the package is read.
``HAKKA_SPEC_DIR`` or ``--spec DIR`` point elsewhere.
"""

from __future__ import annotations

import errno
import os
import stat
from importlib import resources
from pathlib import Path

PACKAGE_DIR = Path(str(resources.files("conformance")))
DEFAULT_SCENARIOS_DIR = PACKAGE_DIR / "scenarios"


def packaged_spec_dir() -> Path:
    """The spec/ folder that ships with this package: the wheel's data, else the checkout's."""
    shipped = PACKAGE_DIR / "_spec"
    if (shipped / "clauses.yaml").is_file():
        return shipped
    return PACKAGE_DIR.parent / "spec"


def default_spec_dir() -> Path:
    env = os.environ.get("HAKKA_SPEC_DIR")
    if env:
        return Path(env)
    return packaged_spec_dir()


def display_path(path: Path) -> str:
    """A path relative to the current directory when it is below it, else absolute."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # not below it; a symlink loop (RuntimeError on 3.11)
        return str(path)


class NotAFile(OSError):
    """A path that names no regular file (a FIFO, a device, a dangling or looping symlink, a folder).

    Its ``strerror`` says what the path is instead, in words (:func:`what_is`).
    """


def what_is(path: Path | str) -> str:
    """What ``path`` names, in words: ``a FIFO (named pipe)``, ``a dangling symbolic link to X``, ...

    Never follows a FIFO or a device, never raises: the words of a refusal.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "no such file or directory"
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return f"a dangling symbolic link (to {target}, which does not exist)"
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return f"a symbolic link that loops (to {target}, which leads back to itself)"
            return exc.strerror or str(exc)
    mode = st.st_mode
    for test, words in ((stat.S_ISREG, "a file"), (stat.S_ISDIR, "a directory"),
                        (stat.S_ISFIFO, "a FIFO (named pipe), not a file"),
                        (stat.S_ISCHR, "a character device, not a file"),
                        (stat.S_ISBLK, "a block device, not a file"), (stat.S_ISSOCK, "a socket, not a file")):
        if test(mode):
            return words
    return "not a file"


class FileTooLarge(OSError):
    """A regular file larger than its reader's bound (not read beyond it)."""


def read_regular_file(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (:class:`FileTooLarge` beyond).

    Anything but a regular file raises :class:`NotAFile` naming what it is, at once: the file is
    opened without blocking (a FIFO with no writer, a device that never ends are never read).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        words = what_is(path)
        if words == "no such file or directory":
            raise
        raise NotAFile(errno.ENOENT, words) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotAFile(errno.ELOOP, what_is(path)) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotAFile(errno.EINVAL, what_is(path))
        if st.st_size > limit:
            raise FileTooLarge(errno.EFBIG, f"larger than {limit} bytes")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:  # it grew while read
            raise FileTooLarge(errno.EFBIG, f"larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def make_own_folder(path: Path) -> bool:
    """Create the folder of the file ``path`` if it is missing, under a parent that exists; True if created.

    Only that one folder: ``--report /nonexistent/dir/r.json`` is refused (``OSError``, ENOENT) rather
    than creating folders at the filesystem's root.
    """
    folder = path.parent
    if folder.is_dir():
        return False
    if not folder.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"no folder {folder.parent} (only the report's own folder, "
                                              f"{folder.name}, is created, under a folder that exists)")
    folder.mkdir()
    return True
