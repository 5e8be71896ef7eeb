"""Errors a user can act on; the CLI and the app print their message as-is."""

import re

from explore.commands import import_corpus_command


class AspectNavError(Exception):
    """Base class: the message is meant for the user."""


class InvalidNameError(AspectNavError):
    """A corpus, space, run, aspect or study name outside the allowed alphabet (explore/names.py)."""


class CorpusFormatError(AspectNavError):
    """An input file is malformed; the message names the file, line and field."""


class UnknownCorpusError(AspectNavError):
    """No corpus of that name is stored."""


class DamagedCorpusError(AspectNavError):
    """A stored corpus fails its checks on load: a built-in one is rebuilt, any other must be re-imported."""

    def __init__(self, name: str, problem: str):
        self.name = name
        self.problem = problem
        super().__init__(f"Corpus {name!r} is damaged: {problem}. Re-import it ({import_corpus_command(name)}) or "
                         "rebuild it the way it was built.")


class UnknownArticleError(AspectNavError):
    """A seed title or id matches no article; carries the closest titles."""

    def __init__(self, query: str, suggestions: list[str], corpus: str | None = None):
        self.query = query
        self.suggestions = suggestions
        hint = f" Closest titles: {', '.join(suggestions)}." if suggestions else ""
        where = f" in corpus {corpus!r}" if corpus else ""
        super().__init__(f"No article titled {query!r}{where}.{hint}")


class AmbiguousTitleError(AspectNavError):
    """Several articles share a title; the caller must pick one by id."""

    def __init__(self, title: str, ids: list[str], corpus: str | None = None):
        self.title = title
        self.ids = ids
        where = f" in corpus {corpus!r}" if corpus else ""
        super().__init__(f"{len(ids)} articles are titled {title!r}{where}; pick one by id: {', '.join(ids)}.")


class UnknownSpaceError(AspectNavError):
    """No embedding space answers the asked kind or name; the message lists those that exist."""


class InvalidQueryError(AspectNavError):
    """A neighbours query is malformed (empty text, k <= 0, bad weights or kind)."""


class CorpusBusyError(AspectNavError):
    """Another process (or thread) is writing the corpus of that name; nothing was changed, run it again later."""


class StorageError(AspectNavError):
    """The disk refused a read or write (full, read-only, over quota, no permission); the message says what to
    do and names no server path, so the app can show it as-is."""

    def __init__(self, doing: str, errno_code: int | None, advice: str):
        self.errno = errno_code
        super().__init__(f"Could not {doing}: {advice}")


# What numpy's `tofile` (and so `np.save` into a file) raises when the disk takes fewer bytes than it was given: an
# OSError with no errno, so the advice for a full disk would otherwise be lost.
_SHORT_WRITE = re.compile(r"\d+ requested and \d+ written")


def storage_error(exc: OSError, doing: str) -> StorageError:
    """The one translation of an OSError into words a user can act on (`doing`: "store corpus 'x'")."""
    import errno

    from explore.settings import data_home_words

    home = data_home_words()
    code = exc.errno
    if code is None and _SHORT_WRITE.fullmatch(str(exc)):  # numpy's write into a full disk carries no errno
        code = errno.ENOSPC
    advice = {
        errno.ENOSPC: f"the disk is full. Free some space on the disk holding {home} (or point ASPECTNAV_HOME at "
                      "a larger disk) and try again; nothing half-written was kept.",
        errno.EDQUOT: f"your disk quota is used up. Free some space in {home} or raise the quota, then try again.",
        errno.EROFS: "the disk is read-only. Point ASPECTNAV_HOME at a writable folder and try again.",
        errno.EACCES: f"permission denied. Make {home} writable for this user, or point ASPECTNAV_HOME at a "
                      "folder you can write.",
        errno.EPERM: f"permission denied. Make {home} writable for this user, or point ASPECTNAV_HOME at a "
                     "folder you can write.",
        errno.ENOTDIR: f"a file stands where a folder is needed in {home}. Move it away or point ASPECTNAV_HOME "
                       "elsewhere.",
    }.get(code, f"the operating system refused it ({exc.strerror or type(exc).__name__}). Check {home} and "
                     "the disk, then try again.")
    return StorageError(doing, code, advice)
