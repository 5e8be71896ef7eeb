"""Which spaces a corpus has, and opening them: the data home first, then the shipped assets;
a space that is stale or damaged in both is rebuilt into the data home (logged, with a progress bar).
A shipped head that fails its checksum is never projected through: its space is left out, saying how to fix it; so is
a shipped full-mode space whose vectors fail theirs (nothing here could rebuild them).

Layout: `<root>/<corpus>/<space>/{manifest.json, embeddings.npy}` under `$ASPECTNAV_HOME/spaces`
(built) and `assets/spaces` (shipped); indexes are cached in `$ASPECTNAV_HOME/spaces/<corpus>/.indexes/`
named by the embeddings' sha256, so an index can never belong to other embeddings.
"""
from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from explore.atomic_files import recover_directories
from explore.commands import build_space_command
from explore.corpus.model import Corpus
from explore.errors import AspectNavError, UnknownSpaceError
from explore.names import check_name
from explore.settings import ASSETS_DIR, spaces_dir
from explore.spaces.space import Space
from explore.spaces.vector_index import IndexKind, SearchPlan
from explore.spaces.store import (ENCODER_DIR, MANIFEST_FILE, SpaceUnusable, check_embeddings_file,
                                  check_encoder_files, copy_training_record, load_space, read_manifest, read_training_record,
                                  record_search, save_space)

if TYPE_CHECKING:  # only a type: the encoders stay unimported until a space encodes
    from collections.abc import Callable

    from explore.encoders.batching import EncodeProgress
    from explore.encoders.encoder import Encoder

log = logging.getLogger(__name__)

SHIPPED_SPACES_DIR = ASSETS_DIR / "spaces"
# 40 MB held the generic space and the full country, occupation, union and intersection spaces with the topic head;
# the kind, century and field heads (0.6 MB each: a linear head is the whole space) take it to 42 MB.
SHIPPED_BUDGET_BYTES = 42_000_000


@dataclass(frozen=True)
class SpaceDefinition:
    """What a space is made of: enough to (re)build it."""

    name: str
    kind: str
    encoder: str
    aspects: tuple[str, ...] = ()
    base_dir: Path | None = None  # relative encoder specs resolve here


# Every corpus gets these, even with nothing stored: the first use builds them.
DEFAULT_SPACES = {"generic": SpaceDefinition("generic", "generic", "minilm")}


class SpaceNotBuilt(AspectNavError):
    """Opening the space would mean encoding the corpus, and the caller asked not to."""


class SpaceRegistry:
    """The spaces of one corpus. `open(name)` returns a verified space (rebuilding if it must)."""

    def __init__(self, corpus: Corpus, home: Path | None = None, shipped: Path | None = None,
                 progress: "bool | EncodeProgress" = True, engine: "Callable[[Encoder], Encoder] | None" = None):
        self.corpus = corpus
        self.engine = engine  # wraps the transformer that encodes (e.g. RayEncoder); None: encode in this process
        self.home = Path(home) if home is not None else spaces_dir() / corpus.name
        self.shipped = Path(shipped) if shipped is not None else SHIPPED_SPACES_DIR / corpus.name
        self.progress = progress
        self._open: dict[str, Space] = {}
        self.left_out: dict[str, str] = {}  # by open_all: each space it could not open, and why
        self._projections_checked = False

    def names(self) -> list[str]:
        self._recover_interrupted_writes()
        stored = {p.parent.name for root in (self.home, self.shipped) if root.is_dir()
                  for p in root.glob(f"*/{MANIFEST_FILE}") if not p.parent.name.startswith(".")}
        return sorted(stored | set(DEFAULT_SPACES), key=lambda n: (n != "generic", n))

    def stamp(self) -> tuple[tuple[str, int], ...]:
        """The built spaces and when each was last written (manifest mtime, ns): a long-running app compares it
        with the stamp taken when it opened them, so a space trained meanwhile (app or CLI) shows up."""
        self._recover_interrupted_writes()
        found = []
        for manifest in self.home.glob(f"*/{MANIFEST_FILE}") if self.home.is_dir() else ():
            if not manifest.parent.name.startswith("."):
                try:
                    found.append((manifest.parent.name, manifest.stat().st_mtime_ns))
                except OSError:
                    continue  # swapped away between listing and stat: the next look sees the new one
        return tuple(sorted(found))

    def _recover_interrupted_writes(self) -> None:
        """A save killed inside its directory swap leaves a space under `.name.old` (or completed): put it back before
        anyone lists or opens, or the space is hidden and rebuilt; abandoned staging folders go (as for corpora).
        Once per registry, data-home projections of shipped heads that the shipped assets no longer match go too."""
        for root in (self.home, self.shipped):
            recover_directories(root)
        if not self._projections_checked:
            self._projections_checked = True
            for manifest in self.home.glob(f"*/{MANIFEST_FILE}") if self.home.is_dir() else ():
                self._drop_superseded_projection(manifest.parent.name)

    def _drop_superseded_projection(self, name: str) -> None:
        """The data home keeps the projection of a shipped head space (`open` makes it on first use); it is only a
        cache of the shipped space, and would shadow it. When the shipped space changed since (a release shipping
        another head, or the full-mode vectors instead), or the checkout moved, it is dropped: `open` then uses or
        projects the shipped space as it is now."""
        copy, shipped = self.home / name, self.shipped / name
        try:
            manifest = read_manifest(copy)
        except SpaceUnusable:
            return
        why = _superseded_because(manifest, copy, shipped, self.home)
        if why is None:
            return
        log.info("Space %r of corpus %r: the data home's projection of the shipped head is out of date (%s); "
                 "dropping it.", name, self.corpus.name, why)
        shutil.rmtree(copy, ignore_errors=True)

    def open(self, name: str, encode: bool = True) -> Space:
        """`encode=False`: a space that would need the transformer to run (not built, stale or damaged, and
        not projectable from a built base) raises SpaceNotBuilt instead of encoding the corpus (minutes)."""
        if name in self._open:
            return self._open[name]
        if name not in self.names():
            raise UnknownSpaceError(f"Corpus {self.corpus.name!r} has no space {name!r}. "
                                    f"Spaces: {', '.join(self.names())}.")
        reasons = []
        for where, directory in (("data home", self.home / name), ("shipped assets", self.shipped / name)):
            if not (directory / MANIFEST_FILE).exists():
                continue
            self._check_shipped_head(name, directory)
            read_training_record(directory)  # damaged: left out with the reason (a rebuild would lose the record)
            if _derived_only(directory):
                log.info("Space %r of corpus %r ships as a projection head: projecting its base space.", name,
                         self.corpus.name)
                space = self.build(self.definition(name), encode=encode)
                copy_training_record(directory, Path(space.directory_))
                return space
            try:
                space = load_space(directory, self.corpus)
            except SpaceUnusable as exc:
                if not exc.stale and _ships_full_vectors(directory):
                    raise AspectNavError(_full_vectors_damaged(directory, exc.reason)) from exc
                reasons.append(f"{where}: {exc.reason}")
                continue
            return self._remember(space, read_manifest(directory)["embeddings"]["sha256"])
        definition = self.definition(name)
        if not encode:
            if reasons:  # open_all leaves a space that needs encoding out quietly: the log still says why
                log.warning("Space %r of corpus %r is unusable (%s); without encoding only a projection from its "
                            "base space can replace it.", name, self.corpus.name, "; ".join(reasons))
            return self.build(definition, encode=False)
        if reasons:
            log.warning("Space %r of corpus %r: %s. Rebuilding it (%d articles).", name, self.corpus.name,
                        "; ".join(reasons), len(self.corpus))
        else:
            log.warning("Space %r of corpus %r is not built yet: building it (%d articles).", name,
                        self.corpus.name, len(self.corpus))
        return self.build(definition)

    def _check_shipped_head(self, name: str, copy: Path) -> None:
        """Refuse a copy whose encoder is the shipped head (the shipped copy, or a data-home copy
        projected from it) when that head fails its checksum: edited, it would answer with vectors the
        manifest does not vouch for; truncated, it cannot even load. The AspectNavError leaves only this
        space out (`open_all` logs it as one line; the CLI and the app show it as-is). A copy built
        from another head (a fresh training run, about to be shipped) does not depend on it."""
        from explore.encoders import EncoderSpec

        shipped = self.shipped / name
        try:
            manifest = read_manifest(shipped)
            encoder = EncoderSpec.parse(read_manifest(copy)["encoder"], copy)
        except (SpaceUnusable, AspectNavError):
            return  # nothing shipped to check, or a copy that the caller finds unusable anyway
        if encoder.path != (shipped / ENCODER_DIR).resolve():
            return
        try:
            check_encoder_files(shipped, manifest)
        except SpaceUnusable as exc:
            script = "build_vital_full_spaces.sh" if manifest.get("trained") == "full" else "build_vital_spaces.sh"
            raise AspectNavError(f"shipped encoder file {exc.reason} (damaged or edited). Restore it with `git checkout -- "
                                 f"{shipped}` or rebuild the shipped spaces with scripts/{script}.") from exc

    def damage(self, name: str, copy: Path) -> str | None:
        """Why the stored copy `copy` of `name` cannot be used as it is (its shipped head or its training record
        fails its checksum), or None: what `spaces list` shows instead of "current", so it never vouches for a space
        Explore leaves out."""
        try:
            self._check_shipped_head(name, copy)
            read_training_record(copy)
            if _ships_full_vectors(copy):
                check_embeddings_file(copy, read_manifest(copy))
        except SpaceUnusable as exc:
            return _full_vectors_damaged(copy, exc.reason)
        except AspectNavError as exc:
            return str(exc)
        return None

    def open_all(self, encode: bool = True) -> dict[str, Space]:
        """Every space that can be opened; one that cannot is logged and left out. `encode=False`: only the
        spaces that open without running the transformer (the others are left out quietly)."""
        spaces = {}
        for name in self.names():
            try:
                spaces[name] = self.open(name, encode=encode)
            except SpaceNotBuilt:
                continue
            except AspectNavError as exc:
                log.warning("Space %r left out: %s", name, exc)
                self.left_out[name] = str(exc)
        return spaces

    def stored(self, name: str) -> Iterator[tuple[str, Path, dict]]:
        """(where, directory, manifest) of each readable stored copy of `name`: data home first, then shipped."""
        check_space_name(name)
        for where, directory in (("home", self.home / name), ("shipped", self.shipped / name)):
            try:
                yield where, directory, read_manifest(directory)
            except SpaceUnusable:
                continue

    def definition(self, name: str) -> SpaceDefinition:
        """How to (re)build `name`: from the first readable manifest, else the defaults."""
        for _, directory, manifest in self.stored(name):
            return SpaceDefinition(name, manifest["kind"], manifest["encoder"], tuple(manifest.get("aspects") or ()),
                                   base_dir=directory)
        if name in DEFAULT_SPACES:
            return DEFAULT_SPACES[name]
        raise UnknownSpaceError(f"Space {name!r} of corpus {self.corpus.name!r} has no readable manifest to rebuild "
                                f"from; build it with `{build_space_command(self.corpus.name, name, 'ENCODER')}`.")

    def build(self, definition: SpaceDefinition, encode: bool = True) -> Space:
        """Encode the corpus into a new space and save it in the data home (`encode=False`: only when a
        head can project a built base space; else SpaceNotBuilt)."""
        from explore.encoders import HeadEncoder, load_encoder

        check_space_name(definition.name)
        encoder = load_encoder(definition.encoder, base_dir=definition.base_dir)
        if self.engine is not None and not isinstance(encoder, HeadEncoder):  # a head projects its base, built so
            encoder = self.engine(encoder)
        space = Space(definition.name, definition.kind, str(encoder.spec), definition.aspects)
        base = self._base_space(encoder.base, definition.name, encode) if isinstance(encoder, HeadEncoder) else None
        if base is None and not encode:
            raise SpaceNotBuilt(f"Space {definition.name!r} of corpus {self.corpus.name!r} is not built; "
                                f"build it with `{build_space_command(self.corpus.name, definition.name)}`.")
        space.fit(self.corpus, encoder, base=base, progress=self.progress)
        directory = save_space(space, self.home / definition.name)
        space.directory_ = directory
        self._open.pop(definition.name, None)
        space = self._remember(space, read_manifest(directory)["embeddings"]["sha256"])
        if not space.search_.exact:
            space.index  # noqa: B018 - build and cache it now (seconds), not on the first query
        return space

    def use_index(self, name: str, kind: "IndexKind | str") -> Space:
        """Serve space `name` with another kind of index from now on: recorded in its manifest, built and cached now
        (minutes at a million rows), the other kind's cached index removed."""
        space = self.open(name)
        if space.use_index(kind):
            record_search(Path(space.directory_), space.search_)
            space = self._remember(space, read_manifest(Path(space.directory_))["embeddings"]["sha256"])
        if not space.search_.exact:
            space.index  # noqa: B018 - build and cache it now, not on the first query
        return space

    def ship(self, name: str) -> Path:
        """Copy a verified space into the shipped assets (a head encoder travels with it)."""
        from explore.encoders import EncoderSpec

        space = self.open(name)
        spec = EncoderSpec.parse(space.encoder, space.directory_)
        head = spec.path if spec.kind == "head" else None
        if spec.kind == "directory":
            log.warning("Space %r uses a local model directory %s: users need it at the same path.", name, spec.path)
        directory = save_space(space, self.shipped / name, encoder_spec=ENCODER_DIR if head else str(spec),
                               encoder_dir=head, with_embeddings=head is None)
        total = sum(p.stat().st_size for p in self.shipped.parent.rglob("*") if p.is_file())
        if total > SHIPPED_BUDGET_BYTES:
            log.warning("Shipped spaces now take %.1f MB, over the %.0f MB budget.", total / 1e6,
                        SHIPPED_BUDGET_BYTES / 1e6)
        return directory

    def _base_space(self, base_encoder, head_name: str, encode: bool = True) -> Space | None:
        """A stored space encoded by `base_encoder` (usually generic): a head then only projects it."""
        for name in self.names():
            if name == head_name:
                continue
            try:
                if self._stored_manifest(name).get("encoder_fingerprint") != base_encoder.fingerprint:
                    continue
                return self.open(name, encode=encode)
            except (SpaceUnusable, AspectNavError):
                continue
        return None

    def _stored_manifest(self, name: str) -> dict:
        for _, _, manifest in self.stored(name):
            return manifest
        if name in DEFAULT_SPACES:  # not built yet: building it is what the head needs anyway
            from explore.encoders import load_encoder

            return {"encoder_fingerprint": load_encoder(DEFAULT_SPACES[name].encoder).fingerprint}
        return {}

    def _remember(self, space: Space, embeddings_sha256: str) -> Space:
        space.index_path_ = index_path(self.home, space.name, embeddings_sha256, space.search_)
        mine = re.compile(rf"{re.escape(space.name)}-[0-9a-f]{{16}}-((i8-)?M\d+-efc\d+\.(hnsw|usearch)"
                          rf"|ivf\d+-pq\d+\.faiss)(\.sha256)?")
        for old in space.index_path_.parent.glob(f"{space.name}-*"):
            if mine.fullmatch(old.name) and not old.name.startswith(space.index_path_.name):
                old.unlink(missing_ok=True)  # the index of earlier embeddings of this space
        self._open[space.name] = space
        return space


def _superseded_because(manifest: dict, copy: Path, shipped: Path, home: Path) -> str | None:
    """Why the data-home space `copy` (its `manifest`), if it is a projection of a shipped head, no longer stands
    for the shipped space `shipped`; None when it does, or when it is a space of the reader's own. A projection's
    encoder is the shipped head's folder, `.../spaces/<corpus>/<space>/encoder`, written as an absolute path."""
    encoder = str(manifest.get("encoder") or "")
    if not encoder.startswith("dir:"):
        return None
    head = Path(encoder[len("dir:"):])
    if (not head.is_absolute() or head.name != ENCODER_DIR or head.parent.name != copy.name
            or head.parent.parent.name != shipped.parent.name or _inside(head, home)):
        return None  # a head of the reader's own (trained into the data home, or anywhere else)
    try:
        current = read_manifest(shipped)
    except SpaceUnusable:
        return None  # nothing shipped under that name now: the copy is all there is
    if head.parent.resolve() != shipped.resolve():
        return f"projected from {head.parent}, the shipped space is now {shipped}"
    if current["embeddings"].get("file") is not None:
        return "the shipped space now ships its own vectors"
    return None  # another head at the same place: opening the copy finds its fingerprint stale and projects anew


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(Path(folder).resolve())
    except ValueError:
        return False
    return True


def _derived_only(directory: Path) -> bool:
    """A shipped head space with no embeddings file: its embeddings are a projection, made on first use."""
    try:
        return read_manifest(directory)["embeddings"].get("file") is None
    except SpaceUnusable:
        return False


def _ships_full_vectors(directory: Path) -> bool:
    """A full-mode space stored with its vectors: they come from a fine-tuned encoder that is not stored beside them
    whole (only what places free text ships: a distilled head or layer, or a low-rank weight delta, close to it but
    not it), so nothing here rebuilds them."""
    try:
        manifest = read_manifest(directory)
    except SpaceUnusable:
        return False
    return manifest.get("trained") == "full" and manifest["embeddings"].get("file") is not None


def _full_vectors_damaged(directory: Path, reason: str) -> str:
    return (f"its full-mode vectors are damaged: {reason}. They were written by a fine-tuned encoder that does not "
            f"ship (what ships beside them only places free text), so they cannot be rebuilt here: restore them with "
            f"`git checkout -- {directory}` or rebuild the full spaces with scripts/build_vital_full_spaces.sh.")


def index_path(home: Path, name: str, embeddings_sha256: str, plan: SearchPlan) -> Path:
    return home / ".indexes" / f"{name}-{embeddings_sha256[:16]}-{plan.file_tag}{plan.file_suffix}"


def check_space_name(name: str) -> str:
    return check_name(name, "space")


def spaces_for(corpus: Corpus, progress: "bool | EncodeProgress" = True) -> SpaceRegistry:
    return SpaceRegistry(corpus, progress=progress)


def open_space(corpus: Corpus, name: str = "generic") -> Space:
    return spaces_for(corpus).open(name)
