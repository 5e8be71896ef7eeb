"""The first-open encoding bar: what it says at each step, and that it is drawn into its placeholder."""
from app_views.encoding_progress import EncodingProgress, encoding_text


def test_the_text_gives_done_rate_and_time_left():
    assert encoding_text("mine", 0, 6000, 0.0).endswith("(first open only): loading the model (a machine's first "
                                                        "large encode also times the encoder backends, once)…")
    text = encoding_text("mine", 1200, 6000, 8.0)
    assert text == ("Encoding the 6,000 articles of *mine* for its spaces (first open only): "
                    "1,200 done · 150 articles/s · about 32 s left")
    assert encoding_text("mine", 100, 6000, 10.0).endswith("about 10 min left")
    assert encoding_text("mine", 6000, 6000, 40.0).endswith("saving")


def test_a_corpus_name_is_escaped():
    assert "\\*\\*bold\\*\\*" in encoding_text("**bold**", 1, 2, 1.0)


class Slot:
    def __init__(self):
        self.drawn = []

    def progress(self, value, text):
        self.drawn.append((value, text))


def test_each_batch_redraws_the_bar_in_its_slot():
    slot = Slot()
    progress = EncodingProgress(slot, "mine")
    for done in (0, 50, 100):
        progress(done, 100)
    assert [value for value, _ in slot.drawn] == [0.0, 0.5, 1.0]
    assert "loading the model" in slot.drawn[0][1] and "50 done" in slot.drawn[1][1]
