"""Evaluation page: the command when there is no report; one tab per aspect with every metric named in
full, n/a with its reason instead of empty cells, human report names, and the maintainers' hint."""
import json

import pytest

from tests.app_views.live_markup import html_table_cells, html_text


def _plain(markdown: str) -> str:
    """Escaped Markdown as the reader sees it (backslashes and word joiners gone)."""
    return markdown.replace("\\", "").replace("\u2060", "")


def _tables(container) -> list[str]:
    """The HTML fragments of the tables an AppTest container shows (app_views/html_table.py), charts left out."""
    return [element.proto.body for element in container.get("html") if 'class="an-table"' in element.proto.body]


def _table(fragment: str) -> str:
    """A table's headers and cells as one text, as the reader sees it; a bold cell written **so**."""
    return " ".join(f"**{text}**" if how == "strong" else text for text, how in html_table_cells(fragment))


def _charts(container) -> list[str]:
    """The text of the bar charts an AppTest container shows."""
    return [html_text(element.proto.body) for element in container.get("html") if "an-bars" in element.proto.body]


MAINTAINERS_PASSWORD = "maintainers only"


@pytest.fixture
def maintainer(monkeypatch):
    """The maintainers' password configured: the Evaluation page's maintainer section asks for it."""
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", MAINTAINERS_PASSWORD)


def _everything_shown(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "code", "text") for e in getattr(at, kind)]
    return "\n".join(map(str, parts)) + " ".join(element.proto.body for element in at.get("html"))


def test_readers_get_no_maintainer_form_and_no_command_without_a_password(app, monkeypatch):
    """Issue #54 item 1: any visitor could train a space (and read the shell commands) from the Evaluation page."""
    monkeypatch.delenv("ASPECTNAV_STUDY_PASSWORD", raising=False)
    at = app("app_pages/evaluation.py")
    assert "No evaluation report yet" in at.info[0].value
    assert not [e for e in at.expander if e.label.startswith("For maintainers")]
    at = opened_maintainers(at)  # even a session that asks for the section gets nothing
    assert not at.get("form_submit_button") and not at.code and not at.text_input
    assert "python -m" not in _everything_shown(at)


def test_the_maintainers_password_opens_the_commands_and_training(app, maintainer):
    at = app("app_pages/evaluation.py")
    at.session_state["eval_maintainers"] = True
    at.run()
    assert [b.label for b in at.get("form_submit_button")] == ["Unlock"]  # the login alone
    assert not at.code and "python -m" not in _everything_shown(at)
    at = unlock(at, "guess")
    assert at.error[0].value == "Wrong password." and not at.code
    at = unlock(at, MAINTAINERS_PASSWORD)
    assert "python -m training evaluate --corpus fixture" in at.code[0].value


@pytest.fixture
def report_file(isolated_home):
    directory = isolated_home / "training" / "reports"
    directory.mkdir(parents=True)
    spaces = {name: {f"{pool}/{aspect}/{metric}@10": value for pool in ("test", "corpus")
                     for aspect in ("country", "occupation") for metric in ("precision", "recall", "mrr")}
              for name, value in (("generic", 0.4), ("country", 0.7))}
    for name, scores in spaces.items():
        scores |= {"test/country/seeds": 20, "test/country/seeds_without_relevant": 3, "test/country/agts": 0.2,
                   "corpus/country/overlap@50": 1.0 if name == "generic" else 0.3,
                   "test/any:country+occupation/precision@10": 0.5, "test/any:country+occupation/agts": float("nan"),
                   "test/any:country+occupation/seeds": 1}
    spaces["country"]["test/country/map@10"] = 0.6  # generic has no MAP: its cell says so
    path = directory / "fixture-s42.json"
    path.write_text(json.dumps(
        {"corpus": "fixture", "aspects": ["country", "occupation", "any:country+occupation"], "k": 10,
         "split": {"seed": 42, "train": 96, "test": 24}, "spaces": spaces,
         "notes": {"country": "space:country"}}))
    return path


def test_one_tab_per_aspect_with_named_metrics_and_reasons(app, report_file):
    at = app("app_pages/evaluation.py")
    assert [tab.label for tab in at.tabs] == ["country", "occupation", "country or occupation"]
    assert "fixture — evaluation run (split seed 42) (2 rows; your run)" in at.selectbox(key="eval_report").options
    country = _table(_tables(at.tabs[0])[0])
    for header in ("P@10 (precision)", "MRR@10 (mean reciprocal rank)", "MAP@10 (mean average precision)",
                   "AgTS (aspect-guided textual similarity)", "Overlap@50 (overlap with generic)"):
        assert header in country
    assert "n/a: not in this report" in country and "None" not in country and "nan" not in country
    assert "**0.700**" in country  # the best of each column in bold
    assert "**1.000**" not in country and "1.000" in country  # overlap with generic describes: never "best"
    assert [row for row, _ in html_table_cells(_tables(at.tabs[0])[0]) if row in ("generic", "country space")] \
        == ["generic", "country space"]  # rows named as Explore names its columns
    assert "20 test articles are scored as seeds; 3 more" in html_text(at.tabs[0].get("html")[0].proto.body)
    assert not at.tabs[1].children and not at.tabs[2].children  # lazy: only the open tab is drawn
    # a group column: overlap is for single aspects, AgTS of a single seed cannot be measured
    at.session_state["eval_tab"] = at.tabs[2].label  # the reader opens its tab
    at.run()
    group = at.tabs[2]
    assert not at.tabs[0].children
    left_out = " ".join(html_text(element.proto.body) for element in group.get("html"))
    assert ("Overlap@50 (overlap with generic): n/a: measured in the tabs of one aspect and of the seed's own aspects"
            in left_out)
    assert "AgTS (aspect-guided textual similarity): n/a: fewer than 2 labelled test articles" in left_out
    assert "AgTS" not in _table(_tables(group)[0])  # a column no space has a value of is one line
    assert not at.expander[0].children  # "What the numbers mean" is drawn when opened
    at.session_state["eval_meanings"] = True
    at.run()
    meanings = _plain(" ".join(m.value for m in at.expander[0].markdown))
    assert "MRR@10 (mean reciprocal rank of the first relevant article in the top 10)" in meanings
    assert "Spearman correlation" in meanings


def test_the_chart_follows_the_chosen_metric(app, report_file):
    at = app("app_pages/evaluation.py")
    [chart] = _charts(at.tabs[0])
    assert chart.endswith("generic 0.400 country space 0.700"), chart
    at.selectbox(key="eval_metric").set_value("map").run()
    [chart] = _charts(at.tabs[0])
    assert "MAP@10 (mean average precision" in chart and chart.endswith("generic n/a country space 0.600"), chart


def unlock(at, password: str):
    """The maintainers' password given in the opened section's form."""
    at.text_input(key="eval_maintainers_password").input(password)
    next(b for b in at.get("form_submit_button") if b.label == "Unlock").click().run()
    assert not at.exception, at.exception
    return at


def opened_maintainers(at):
    """The page again with the maintainers' expander opened (its body is drawn only then), unlocked where a
    password is configured."""
    at.session_state["eval_maintainers"] = True
    at.run()
    return unlock(at, MAINTAINERS_PASSWORD) if at.text_input else at


def test_the_build_commands_are_for_maintainers_only_and_drawn_when_opened(app, report_file, maintainer):
    at = app("app_pages/evaluation.py")
    [maintainers] = [e for e in at.expander if e.label.startswith("For maintainers")]
    assert not maintainers.children and not at.code  # closed: nothing drawn in it
    at = opened_maintainers(at)
    [maintainers] = [e for e in at.expander if e.label.startswith("For maintainers")]
    assert "Every aspect of this corpus has a space." in maintainers.markdown[0].value  # hostile: the missing ones
    assert "python -m training evaluate" in maintainers.code[0].value


@pytest.mark.slow  # trains a real head on MiniLM embeddings of the fixture (encoded once, seconds)
def test_a_maintainer_trains_a_space_for_an_aspect_without_one(app, report_file, tmp_path, maintainer):
    from explore.corpus.aspect_import import attach_aspect
    from explore.corpus.registry import open_corpus, store_corpus
    from explore.spaces import spaces_for

    labels = tmp_path / "era.csv"
    labels.write_text("id,label\n" + "".join(f"p{i},{('early', 'middle', 'late')[i % 3]}\n" for i in range(90)))
    store_corpus(attach_aspect(open_corpus("fixture"), "era", labels).corpus)
    at = opened_maintainers(app("app_pages/evaluation.py"))
    [maintainers] = [e for e in at.expander if e.label.startswith("For maintainers")]
    assert "No space yet for aspect era." in _plain(maintainers.markdown[0].value)
    assert at.selectbox(key="train_aspect").options == ["era"]
    at.radio(key="train_head").set_value("linear")
    next(b for b in at.get("form_submit_button") if "Train the space" in b.label).click().run()
    assert not at.error, [e.value for e in at.error]
    [done] = at.success
    assert "Space 'era' for aspect 'era' is ready" in _plain(done.value)
    assert "era" in spaces_for(open_corpus("fixture")).names()  # the real engine reopens on it (test_engine_cache)


@pytest.mark.slow
def test_an_aspect_that_cannot_train_says_why_and_builds_nothing(app, report_file, tmp_path, maintainer):
    from explore.corpus.aspect_import import attach_aspect
    from explore.corpus.registry import open_corpus, store_corpus
    from explore.spaces import spaces_for

    labels = tmp_path / "era.csv"
    labels.write_text("id,label\np0,alone\np1,single\n")  # no label is shared: nothing to learn from
    store_corpus(attach_aspect(open_corpus("fixture"), "era", labels).corpus)
    at = opened_maintainers(app("app_pages/evaluation.py"))
    next(b for b in at.get("form_submit_button") if "Train the space" in b.label).click().run()
    assert "era" in _plain(at.error[0].value) and not at.success
    assert "era" not in spaces_for(open_corpus("fixture")).names()


def test_a_report_over_seeds_shows_its_spread_in_the_table_and_as_error_bars(app, report_file):
    data = json.loads(report_file.read_text())
    data["split"] = {"seeds": [42, 43, 44], "train": 96, "test": 24}
    data["spread"] = {name: {key: 0.02 for key in scores} for name, scores in data["spaces"].items()}
    report_file.write_text(json.dumps(data))
    at = app("app_pages/evaluation.py")
    country = _table(_tables(at.tabs[0])[0])
    assert "**0.700\u00a0±\u00a00.020**" in country and "0.400\u00a0±\u00a00.020" in country
    [chart] = _charts(at.tabs[0])
    assert "(mean ± sd over seeds)" in chart and chart.endswith("generic 0.400 ± 0.020 country space 0.700 ± 0.020")
    assert sum(e.proto.body.count('class="an-sd"') for e in at.tabs[0].get("html")) == 2  # the whiskers
    said = " ".join(html_text(element.proto.body) for element in at.get("html"))
    assert "mean ± sd over split seeds 42, 43, 44: 96 train / 24 test articles. File: " in said


def test_the_commands_shown_quote_hostile_aspect_names(hostile, app, maintainer):
    """Issue #25 item 2. The Evaluation page with the hostile corpus (aspect names with backticks, which a
    shell runs): no report, so the evaluate command; no space for its hostile aspects, so the train command."""
    import shlex

    from tests.app_views.live_markup import code_spans

    def intended(*argv: str) -> list[str]:
        return ["python", "-m", *argv]

    at = opened_maintainers(app("app_pages/evaluation.py", corpus=hostile.name))
    shown = [code.value for code in at.code] + [span for md in at.markdown for span in code_spans(md.value)
                                                if span.startswith("python -m")]
    aspects = hostile.aspect_names
    assert intended("training", "evaluate", "--corpus", hostile.name, "--spaces", "generic", "--aspects",
                    ",".join(aspects[:2])) in [shlex.split(command) for command in shown]
    assert intended("training", "train", "--corpus", hostile.name, "--aspects", aspects[1], "--drop-labels-below",
                    "2") in [shlex.split(command) for command in shown]
    assert all(shlex.split(command)[:2] == ["python", "-m"] for command in shown)


def test_judged_columns_show_worth_reading_beside_shares_the_aspect(app, report_file, isolated_home):
    from training.judged_report import JudgedReport
    from training.worth_reading import ColumnFigures, SeedFigures

    figures = {}
    for name, (precision, shares) in {"links": (0.9, 0.3), "generic": (0.8, 0.7), "your mix": (0.85, 0.95),
                                      "aspect:country": (0.8, 1.0)}.items():
        figures[name] = ColumnFigures(name)
        figures[name].per_seed = {f"p{i}": SeedFigures(precision - 0.1 * (i % 2), precision, shares, i % 2, 5)
                                  for i in range(4)}
    report = JudgedReport("fixture", ["judged.json"], 80)
    report.add("Explore's columns, served now", figures)
    report.save(isolated_home / "training" / "reports" / "fixture-s42-judged")
    at = app("app_pages/evaluation.py")
    shown = " ".join(html_text(element.proto.body) for element in at.get("html"))
    assert shown.startswith("Worth reading: Explore's columns on judged seeds Is a card worth reading next?")
    table = _table(_tables(at)[0])
    for cell in ("worth reading: P@5", "shares the aspect@5", "column score", "country space", "your mix",
                 "Wikipedia links", "2 of 20"):  # unjudged cards counted, never guessed
        assert cell in table
    judged = _charts(at)[0]  # the judged bars, then each aspect's chart
    assert "Worth reading and shares the aspect, per column" in judged and "worth reading (P@5): " in judged, judged
    assert len(_charts(at)) == 2 and len(_tables(at)) == 2  # and the open tab's
    assert "Files: judged.json . Worth reading and shares the aspect" in shown
    assert "shares the aspect (@5): 1.00 ± 0.00 Sharing the seed's labels: each space as aspect retrieval" in shown
    assert not at.subheader and at.selectbox(key="judged_block").value == "Explore's columns, served now"
