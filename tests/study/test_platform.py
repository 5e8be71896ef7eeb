"""The study file's `platform:` block: ids read from the study URL, return URLs, refusals; and the flow's
use of it against a real database: a returning platform id resumes, a failed check screens out."""
from __future__ import annotations

import threading
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import func, select

from study.definition import StudyDefinitionError, check_study, load_study
from study.platform import Platform, PlatformError, PlatformKind
from study.sessions import MissingPlatformIdError, StudyFinishedError, open_flow
from study.store import Outcome, ParticipantRow, StoreConfig, open_store
from study.synthetic import TINY_DESIGN, SyntheticProvider, tiny_corpus, write_tiny_study

PROLIFIC = {"kind": "prolific", "completion_url": "https://app.prolific.com/submissions/complete",
            "completion_code": "C1OK2345", "screen_out_url": "https://app.prolific.com/submissions/complete",
            "screen_out_code": "CSCREEN9"}
IDS = {"PROLIFIC_PID": "5f1a2b3c4d5e6f7a8b9c0d1e", "STUDY_ID": "60aa11bb22cc33dd44ee55ff",
       "SESSION_ID": "sess0123456789"}


def prolific_study(tmp_path, **platform):
    path = write_tiny_study(tmp_path, **TINY_DESIGN, platform={**PROLIFIC, **platform})
    return check_study(load_study(path), tiny_corpus())


@pytest.fixture
def prolific_flow(tmp_path, db_url):
    study = prolific_study(tmp_path)
    corpus = tiny_corpus()
    return open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)


def test_prolific_ids_are_read_and_the_codes_go_back_on_the_return_url(tmp_path):
    platform = prolific_study(tmp_path).platform
    assert platform.kind is PlatformKind.PROLIFIC
    assert platform.participant_ids({**IDS, "utm_source": "x"}) == IDS
    assert platform.participant_ids({}) is None  # a researcher trying the study
    done = urlsplit(platform.return_url(screened_out=False, ids=IDS))
    assert (done.scheme, done.netloc, done.path) == ("https", "app.prolific.com", "/submissions/complete")
    assert parse_qs(done.query) == {"cc": ["C1OK2345"]}  # no participant id travels back
    assert parse_qs(urlsplit(platform.return_url(screened_out=True, ids=IDS)).query) == {"cc": ["CSCREEN9"]}


def test_mturk_sends_the_assignment_back_with_the_code():
    platform = Platform(kind="mturk", completion_url="https://www.mturk.com/mturk/externalSubmit?foo=1",
                        completion_code="DONE42")
    ids = platform.participant_ids({"workerId": "A1B2C3", "assignmentId": "3XYZ", "hitId": "H9"})
    assert ids == {"workerId": "A1B2C3", "assignmentId": "3XYZ", "hitId": "H9"}
    assert parse_qs(urlsplit(platform.return_url(False, ids)).query) == {
        "foo": ["1"], "assignmentId": ["3XYZ"], "code": ["DONE42"]}
    assert platform.return_url(True, ids) is None  # no screen-out path declared


def test_a_malformed_platform_id_is_refused_with_what_to_do(tmp_path):
    platform = prolific_study(tmp_path).platform
    with pytest.raises(PlatformError, match="malformed PROLIFIC_PID.*Prolific"):
        platform.participant_ids({"PROLIFIC_PID": "<script>alert(1)</script>"})


@pytest.mark.parametrize("change, message", [
    ({"completion_url": "javascript:alert(1)"}, r"'completion_url' must be an http:// or https:// address"),
    ({"completion_url": "ftp://example.org/x"}, r"http:// or https://.*'ftp://example.org/x'"),
    ({"screen_out_url": "https:///no-host"}, r"'screen_out_url' must be an http:// or https:// address with a host"),
    ({"completion_code": "has space"}, r"'completion_code' must be a code of 1 to 64 letters"),
    ({"completion_code": None}, r"a prolific study needs completion_url and completion_code"),
    ({"screen_out_code": None}, r"screen_out_url and screen_out_code go together"),
    ({"screen_out_code": "C1OK2345"}, r"screen_out_code must differ from completion_code"),
    ({"completion_url": "https://x.org/</script><script>alert(1)</script>"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a\"b"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a'b"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a<b"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a\x01b"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a\u2028b"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a`b"}, r"'completion_url' must be an http"),
    ({"completion_url": "https://x.org/a\\b"}, r"'completion_url' must be an http"),
    ({"kind": "qualtrics"}, r"'kind' must be prolific, mturk or none, not 'qualtrics'"),
    ({"redirect": "x"}, r"unknown field 'redirect'"),
    ({"missing_id": "maybe"}, r"'missing_id' must be stop \(the default\) or allow, not 'maybe'"),
])
def test_a_bad_platform_block_is_refused_naming_the_field(tmp_path, change, message):
    platform = {key: value for key, value in {**PROLIFIC, **change}.items() if value is not None}
    with pytest.raises(StudyDefinitionError, match=r"Study 'tiny_study', platform: .*" + message):
        load_study(write_tiny_study(tmp_path, **TINY_DESIGN, platform=platform))


def test_a_screen_out_path_without_a_check_rule_is_refused(tmp_path):
    with pytest.raises(StudyDefinitionError, match="no exclusion rule reads a check"):
        load_study(write_tiny_study(tmp_path, platform=PROLIFIC))


def test_the_platform_block_does_not_change_the_fingerprint(tmp_path):
    with_platform = prolific_study(tmp_path)
    without = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), tiny_corpus())
    assert with_platform.fingerprint() == without.fingerprint()
    assert with_platform.to_dict()["platform"]["kind"] == "prolific"


def test_a_returning_platform_id_resumes_and_never_duplicates(prolific_flow):
    code = prolific_flow.start(IDS)
    assert prolific_flow.returning(IDS) == code
    assert prolific_flow.start(IDS) == code  # a second tab pressing Start again
    assert prolific_flow.start({**IDS, "SESSION_ID": "another-session"}) == code
    assert prolific_flow.returning({"PROLIFIC_PID": "someone-else"}) is None
    status = prolific_flow.status(code)
    assert status.platform_ids == IDS and status.outcome is None


def test_two_arrivals_with_one_platform_id_at_once_make_one_participant(prolific_flow):
    barrier, codes = threading.Barrier(6), []

    def arrive():
        barrier.wait()
        codes.append(prolific_flow.start(IDS))

    threads = [threading.Thread(target=arrive) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(codes) == 6 and len(set(codes)) == 1
    with prolific_flow.store.reading() as session:
        assert session.scalar(select(func.count()).select_from(ParticipantRow)) == 1


def test_a_prolific_study_starts_nobody_without_a_prolific_id(prolific_flow):
    for ids in (None, {}, {"STUDY_ID": IDS["STUDY_ID"], "SESSION_ID": IDS["SESSION_ID"]}):
        with pytest.raises(MissingPlatformIdError, match="does not carry your Prolific ID.*go back to Prolific"):
            prolific_flow.start(ids)
    with prolific_flow.store.reading() as session:
        assert session.scalar(select(func.count()).select_from(ParticipantRow)) == 0


def test_a_study_may_let_people_without_a_platform_id_take_part(tmp_path, db_url):
    study = prolific_study(tmp_path, missing_id="allow")  # a pilot, or the researcher trying the study
    assert not study.platform.requires_id and prolific_study(tmp_path).platform.requires_id
    corpus = tiny_corpus()
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    assert flow.status(flow.start()).platform_ids == {}


def answer_all(flow, code, fail: str | None = None):
    """Answer every task in order; fail the check task `fail` (rank its check article first or not)."""
    while (screen := flow.next_task(code)) is not None:
        task = flow.study.task(screen.task_id)
        ids = [c.id for c in screen.candidates]
        if task.check is not None:
            article = task.check.article
            rest = [i for i in ids if i != article]
            wants_first = (task.check.kind == "attention") != (task.id == fail)
            ids = [article, *rest] if wants_first else rest
        progress = flow.submit(code, screen.task_id, ids[: screen.rank_depth])
    return progress


def test_failing_a_declared_check_screens_out_at_once(prolific_flow):
    code = prolific_flow.start(IDS)
    progress = answer_all(prolific_flow, code, fail="attention")
    assert progress.outcome is Outcome.SCREENED_OUT and progress.finished
    assert prolific_flow.next_task(code) is None
    assert prolific_flow.status(code).outcome is Outcome.SCREENED_OUT
    order = prolific_flow.study.task_order_rows  # the rest of their tasks are never shown
    assert progress.answered < len(order[0]) or order[0][-1] == "attention"
    with pytest.raises(StudyFinishedError):
        prolific_flow.submit(code, "country-france", [])


def test_passing_every_check_completes(prolific_flow):
    code = prolific_flow.start(IDS)
    progress = answer_all(prolific_flow, code)
    assert progress.outcome is Outcome.COMPLETED
    assert prolific_flow.status(code).outcome is Outcome.COMPLETED


def test_without_a_platform_a_failed_check_does_not_end_the_session(flow_with_checks):
    code = flow_with_checks.start()
    progress = answer_all(flow_with_checks, code, fail="attention")
    assert progress.outcome is Outcome.COMPLETED and progress.answered == len(flow_with_checks.study.tasks)


@pytest.fixture
def flow_with_checks(tmp_path, db_url):
    study = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), tiny_corpus())
    corpus = tiny_corpus()
    return open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
