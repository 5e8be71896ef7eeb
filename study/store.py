"""Where study answers live: SQLAlchemy tables, created on first use, with a stored schema version.

An SQLite file under the data home by default (WAL, foreign keys on), or PostgreSQL by URL. On both,
write transactions run one at a time and queue instead of failing (SQLite: `BEGIN IMMEDIATE`;
PostgreSQL: a transaction-scoped advisory lock), so the read-then-write steps of study.sessions mean
the same on both; readers never wait. All SQL goes through SQLAlchemy expressions, so every value is
a bound parameter.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TypeVar

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    select,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.exc import DatabaseError as DBAPIDatabaseError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from explore.errors import AspectNavError, storage_error
from explore.names import check_name
from explore.settings import data_home
from study.definition import StudyDefinition, study_from_dict
from study.outcome import Outcome  # noqa: F401  (re-exported: where the flow and the app have always found it)
from study.write_retry import StoreBusyError, WriteRetry, with_retries

SCHEMA_VERSION = 4  # 2: platform ids and outcome of a participant, a task's draft ranking; 3: questionnaire answers;
# 4: the withdrawals audit table
DATABASE_ENV = "ASPECTNAV_STUDY_DB"
SQLITE_BUSY_TIMEOUT_S = 30.0
# What every PostgreSQL write transaction runs first: one fixed advisory lock key ("aspectnv" in ASCII),
# released at commit or rollback. Advisory locks are per database: other databases do not share it.
POSTGRES_WRITE_LOCK_SQL = f"SELECT pg_advisory_xact_lock({0x6173706563746E76})"
T = TypeVar("T")


class StudyStoreError(AspectNavError):
    """The database cannot be opened, has another schema, or holds a different study."""


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)  # stored as naive UTC everywhere


class Base(DeclarativeBase):
    pass


class MetaRow(Base):
    __tablename__ = "aspectnav_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class StudyRow(Base):
    __tablename__ = "studies"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    fingerprint: Mapped[str] = mapped_column(String(32))
    definition: Mapped[str] = mapped_column(Text)  # JSON: analysis never needs the study file
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class ParticipantRow(Base):
    """One participant; `platform_id` (e.g. Prolific's PROLIFIC_PID) is unique per study, so an id that comes
    back resumes its session and two arrivals with the same id cannot both create one."""

    __tablename__ = "participants"
    __table_args__ = (UniqueConstraint("study_id", "platform_id", name="uq_participants_platform_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    shuffle_seed: Mapped[int] = mapped_column(BigInteger)
    task_order: Mapped[str] = mapped_column(Text)  # JSON list of task ids
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    platform_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    platform_ids: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: every id the platform sent
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)  # an Outcome once finished_at is set


class PresentationRow(Base):
    """The candidate list a participant was shown for a task, fixed the first time it is shown."""

    __tablename__ = "presentations"
    __table_args__ = (UniqueConstraint("participant_id", "task_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id", ondelete="CASCADE"), index=True)
    task_id: Mapped[str] = mapped_column(String(64))
    candidates: Mapped[str] = mapped_column(Text)  # JSON list of Candidate.to_dict(), in shown order
    shown_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    draft: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON picks so far, saved as they are clicked


class AnswerRow(Base):
    """One ranking; the unique key makes a second submission of the same task fail."""

    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("participant_id", "task_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id", ondelete="CASCADE"), index=True)
    task_id: Mapped[str] = mapped_column(String(64))
    ranking: Mapped[str] = mapped_column(Text)  # JSON list of article ids, best first
    candidates: Mapped[str] = mapped_column(Text)  # JSON copy of the shown list (with sources)
    answered_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class QuestionnaireRow(Base):
    """One questionnaire page of a participant: the per-source items after a task (`page` = its id) or the
    once items (`page` = ''). `draft` is saved as they answer, `answers` when they submit the page."""

    __tablename__ = "questionnaire_answers"
    __table_args__ = (UniqueConstraint("participant_id", "page"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id", ondelete="CASCADE"), index=True)
    page: Mapped[str] = mapped_column(String(64))
    draft: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON as the page holds it (lists by letter)
    answers: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON {source: {item: value}} or {item: value}
    submitted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class WithdrawalRow(Base):
    """The audit line of one withdrawal (study.withdrawal): when, why and how many rows went; never who (no platform
    id, no code, no hash of either: a hash of an id is an id) and nothing they answered."""

    __tablename__ = "withdrawals"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    deleted_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    reason: Mapped[str] = mapped_column(String(64))
    participants: Mapped[int] = mapped_column(Integer)
    presentations: Mapped[int] = mapped_column(Integer)
    answers: Mapped[int] = mapped_column(Integer)
    questionnaire_pages: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class StoreConfig:
    """`url`: any SQLAlchemy URL or a file path; None → $ASPECTNAV_STUDY_DB, else the default SQLite file.
    `busy_timeout_s`: how long a writer waits for another's lock before one try fails (SQLite's busy
    timeout, PostgreSQL's lock_timeout); `write_retry`: how participants' writes are tried again after that."""

    url: str | None = None
    echo: bool = False
    create: bool = True  # False: refuse a missing SQLite file instead of creating an empty one
    busy_timeout_s: float = SQLITE_BUSY_TIMEOUT_S
    write_retry: WriteRetry = field(default_factory=WriteRetry)


def default_database_path(study_name: str) -> Path:
    return data_home() / "studies" / f"{check_name(study_name, 'study')}.sqlite"


def resolve_url(study_name: str, url: str | None = None) -> str:
    """An explicit URL, then $ASPECTNAV_STUDY_DB, then <data home>/studies/<study>.sqlite; paths become sqlite URLs."""
    chosen = (url or os.environ.get(DATABASE_ENV, "")).strip()
    if not chosen:
        return f"sqlite:///{default_database_path(study_name)}"
    if "://" not in chosen:
        return f"sqlite:///{Path(chosen).expanduser().resolve()}"
    return chosen


def _sqlite_engine(url: str, echo: bool, create: bool, busy_timeout_s: float) -> Engine:
    database = make_url(url).database
    if database and database != ":memory:":
        if not create and not Path(database).exists():
            raise StudyStoreError(f"No study database at {database}.")
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, echo=echo, connect_args={"timeout": busy_timeout_s})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {round(busy_timeout_s * 1000)}")
        _enable_wal(cursor, busy_timeout_s)
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # A writer takes the write lock up front, so two writers queue (busy_timeout) rather than
        # deadlock on a lock upgrade; readers use a plain BEGIN and never block under WAL.
        read_only = connection.get_execution_options().get("read_only", False)
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine


def _enable_wal(cursor, busy_timeout_s: float) -> None:
    """WAL is a property of the file: set it once. Switching modes needs the file to itself and
    SQLite answers "locked" at once rather than waiting, so participants opening a new database
    together retry here instead of failing."""
    deadline = time.monotonic() + busy_timeout_s
    while cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _postgres_engine(url: str, echo: bool, busy_timeout_s: float) -> Engine:
    # READ COMMITTED whatever the server's default: a writer reads after its lock is granted, and
    # only per-statement snapshots are sure to see what the writer before it committed.
    engine = create_engine(url, echo=echo, pool_pre_ping=True, isolation_level="READ COMMITTED")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Without it a writer stuck behind a held lock would wait forever instead of being retried.
        cursor = dbapi_connection.cursor()
        cursor.execute(f"SET lock_timeout = {max(1, round(busy_timeout_s * 1000))}")
        cursor.close()
        dbapi_connection.commit()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # Writers queue as under SQLite's BEGIN IMMEDIATE; the lock ends with the transaction.
        if not connection.get_execution_options().get("read_only", False):
            connection.exec_driver_sql(POSTGRES_WRITE_LOCK_SQL)

    return engine


# PostgreSQL's SQLSTATEs of a server gone or going: connection exceptions (class 08), shut down, cannot connect now.
_AWAY_STATES = ("08", "57P01", "57P02", "57P03")


def database_away(exc: OperationalError) -> bool:
    """Whether a failed read means the database is (for now) out of reach, which waiting can mend: a lost or refused
    connection, a server shutting down or starting, SQLite locked or busy; not a missing table, a full disk or a
    cancelled query, which are said as they are."""
    reason = str(exc.orig) if exc.orig else ""
    if isinstance(exc.orig, sqlite3.OperationalError):
        return "locked" in reason or "busy" in reason
    state = getattr(exc.orig, "sqlstate", None)
    return exc.connection_invalidated or state is None or state.startswith(_AWAY_STATES)


class StudyStore:
    """A handle on one study database. Build with `open_store`, which creates the schema."""

    def __init__(self, engine: Engine, write_retry: WriteRetry | None = None):
        self.engine = engine
        self.write_retry = write_retry or WriteRetry()
        self._reader = engine.execution_options(read_only=True)

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """One atomic transaction: committed on success, rolled back on any error."""
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def write(self, work: Callable[[Session], T], what: str, retry: WriteRetry | None = None) -> T:
        """`work` in one `writing` transaction, tried again while the database is busy (see
        study.write_retry; `retry` overrides the store's policy); StoreBusyError when it stays busy,
        StorageError when the disk refuses (full, read-only), with nothing written."""

        def transaction() -> T:
            try:
                with self.writing() as session:
                    return work(session)
            except OSError as exc:  # a file the driver opens itself (journal, WAL) on a full or read-only disk
                raise storage_error(exc, f"save {what}") from exc

        return with_retries(transaction, retry or self.write_retry, what)

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A read-only transaction; a database that does not answer (down, unreachable, restarting) is a
        StoreBusyError, as an exhausted write retry is, so pages say "try again in a moment" for both."""
        try:
            with Session(self._reader, expire_on_commit=False) as session, session.begin():
                yield session
        except OperationalError as exc:
            if not database_away(exc):
                raise
            reason = str(exc.orig).splitlines()[0] if exc.orig else type(exc).__name__
            raise StoreBusyError(f"The study database is not answering ({reason}).") from exc

    def schema_version(self) -> int:
        with self.reading() as session:
            return int(session.get(MetaRow, "schema_version").value)

    def register_study(self, study: StudyDefinition) -> int:
        """Store the study's definition; a study that already has participants cannot change."""
        definition = json.dumps(study.to_dict(), sort_keys=True)
        with self.writing() as session:
            row = session.scalars(select(StudyRow).where(StudyRow.name == study.name)).first()
            if row is None:
                row = StudyRow(name=study.name, fingerprint=study.fingerprint(), definition=definition)
                session.add(row)
                session.flush()
            elif row.fingerprint != study.fingerprint():
                started = session.scalar(select(func.count()).where(ParticipantRow.study_id == row.id))
                if started:
                    raise StudyStoreError(
                        f"Study {study.name!r} changed since {started} participant(s) started in {self.url}; "
                        "give the edited study a new name (or use a new database) so answers stay comparable."
                    )
                row.fingerprint, row.definition = study.fingerprint(), definition
            return row.id

    def study_names(self) -> list[str]:
        with self.reading() as session:
            return list(session.scalars(select(StudyRow.name).order_by(StudyRow.id)))

    def stored_study(self, name: str | None = None) -> tuple[int, StudyDefinition]:
        """The stored definition of `name` (or of the only study in the database)."""
        names = self.study_names()
        if name is None:
            if len(names) != 1:
                raise StudyStoreError(
                    f"{self.url} holds {len(names)} studies ({', '.join(names) or 'none'}); name one with --study."
                )
            name = names[0]
        with self.reading() as session:
            row = session.scalars(select(StudyRow).where(StudyRow.name == name)).first()
            if row is None:
                raise StudyStoreError(f"No study {name!r} in {self.url}; it holds: {', '.join(names) or 'none'}.")
            return row.id, study_from_dict(json.loads(row.definition))


# Schema version → the statements that bring it to the next one (plain DDL that SQLite and PostgreSQL share).
_UPGRADES = {
    1: ("ALTER TABLE participants ADD COLUMN platform_id VARCHAR(128)",
        "ALTER TABLE participants ADD COLUMN platform_ids TEXT",
        "ALTER TABLE participants ADD COLUMN outcome VARCHAR(16)",
        "UPDATE participants SET outcome = 'completed' WHERE finished_at IS NOT NULL",
        "CREATE UNIQUE INDEX uq_participants_platform_id ON participants (study_id, platform_id)",
        "ALTER TABLE presentations ADD COLUMN draft TEXT"),
    2: (),  # 3 only adds the questionnaire_answers table, which create_all makes before the upgrade runs
    3: (),  # 4 only adds the withdrawals table, likewise
}


def _upgrade(session: Session, version: int) -> None:
    """Bring an older database to SCHEMA_VERSION in the caller's transaction (all or nothing)."""
    while version < SCHEMA_VERSION:
        for statement in _UPGRADES[version]:
            session.execute(text(statement))
        version += 1


def open_store(study_name: str, config: StoreConfig = StoreConfig()) -> StudyStore:
    """Open (and on first use create) the database of `study_name`, checking the schema version."""
    url = resolve_url(study_name, config.url)
    try:
        backend = make_url(url).get_backend_name()
        if backend == "sqlite":
            engine = _sqlite_engine(url, config.echo, config.create, config.busy_timeout_s)
        elif backend == "postgresql":
            engine = _postgres_engine(url, config.echo, config.busy_timeout_s)
        else:
            engine = create_engine(url, echo=config.echo, pool_pre_ping=True)
    except (ArgumentError, ImportError) as exc:
        raise StudyStoreError(f"Cannot use database URL {url!r}: {exc}") from None
    store = StudyStore(engine, config.write_retry)
    try:
        with store.writing() as session:
            Base.metadata.create_all(session.connection())
            version = session.get(MetaRow, "schema_version")
            if version is None:
                session.add(MetaRow(key="schema_version", value=str(SCHEMA_VERSION)))
            elif int(version.value) in _UPGRADES:
                _upgrade(session, int(version.value))
                version.value = str(SCHEMA_VERSION)
            elif int(version.value) != SCHEMA_VERSION:
                raise StudyStoreError(
                    f"{store.url} has study schema version {version.value}; this AspectNav reads version {SCHEMA_VERSION}."
                )
    except DBAPIDatabaseError as exc:  # unreachable, no such database, no right to create tables, not a database
        raise StudyStoreError(f"Cannot open the study database {store.url}: {exc.orig}") from None
    return store
