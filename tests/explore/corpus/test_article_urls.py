"""An article's URL is shown as a link: only an absolute http(s) address is accepted (issue #13, item 4)."""
import json

import pytest

from explore.corpus.jsonl_import import import_jsonl
from explore.corpus.model import Article
from explore.errors import CorpusFormatError


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)",
                                 "data:text/html,<script>alert(1)</script>", "vbscript:x", "file:///etc/passwd",
                                 "//evil.example/x", "/wiki/Relative", "en.wikipedia.org/wiki/X", "https://",
                                 "https://en.wikipedia.org/wiki/X\nY", "http://example.org/a b"])
def test_an_article_url_that_is_not_an_http_address_is_refused(url):
    with pytest.raises(CorpusFormatError, match="http"):
        Article("a", "A", "text", url=url)


@pytest.mark.parametrize("url", ["", "https://en.wikipedia.org/wiki/Mercury_(planet)",
                                 "HTTPS://EN.WIKIPEDIA.ORG/wiki/X",
                                 "https://en.wikipedia.org/wiki/Image)![u](http://evil.example/u.png)"])
def test_http_addresses_and_no_address_are_kept(url):
    assert Article("a", "A", "text", url=url).url == url


def test_an_import_with_a_script_url_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"id": "x1", "title": "X", "text": "t", "url": "javascript:alert(1)"}) + "\n")
    with pytest.raises(CorpusFormatError, match=r"c.jsonl, line 1, field 'url'.*javascript:alert\(1\)"):
        import_jsonl(path, "mine")
