"""Real HTTP servers on 127.0.0.1 for the tests: an Oxigraph SPARQL server, a counting proxy in
front of it that can inject faults, and a MediaWiki API that answers from fixture files."""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REFUSED_AGENTS = ("python-requests", "python-urllib", "sparqlwrapper")  # as Wikimedia refuses them


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Fault:
    """What the next request gets instead of a normal answer. `delay_s` alone = a slow answer."""

    status: int | None = None
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


class FixtureServer(ThreadingHTTPServer):
    """Counts requests by key, serves queued faults first, and can hold the N-th request
    (so a test can kill its client while a request is in flight)."""

    daemon_threads = True

    def __init__(self, handler):
        super().__init__(("127.0.0.1", free_port()), handler)
        self.served: Counter[str] = Counter()  # key -> successful answers
        self.received = 0
        self.faults: deque[Fault | None] = deque()  # None: answer that request normally
        self.delay_s = 0.0
        self.hold_at: int | None = None
        self.holding = threading.Event()
        self.release = threading.Event()
        self.agents: list[str] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self) -> "FixtureServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()

    def handle_error(self, request, client_address) -> None:
        pass  # clients that time out or are killed mid-answer are what these tests do

    def reset(self) -> None:
        with self._lock:
            self.served.clear()
            self.faults.clear()
            self.received, self.delay_s, self.hold_at = 0, 0.0, None
            self.holding.clear()
            self.release.clear()
            self.agents.clear()
            if hasattr(self, "wiki"):
                self.wiki.faults = WikiFaults()

    def admit(self) -> tuple[Fault | None, bool]:
        """Register an arriving request: (its fault if any, whether to hold it)."""
        with self._lock:
            self.received += 1
            fault = self.faults.popleft() if self.faults else None
            return fault, self.hold_at is not None and self.received == self.hold_at


class FixtureHandler(BaseHTTPRequestHandler):
    server: FixtureServer

    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def do_GET(self) -> None:
        self._handle(urllib.parse.urlsplit(self.path).query)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._handle(self.rfile.read(length).decode())

    def _handle(self, raw_params: str) -> None:
        agent = self.headers.get("User-Agent", "")
        self.server.agents.append(agent)
        fault, hold = self.server.admit()
        if hold:
            self.server.holding.set()
            self.server.release.wait(30)
            self._send(503, b"held and released", {})  # never counted as served
            return
        if agent.lower().startswith(REFUSED_AGENTS) or not agent:
            self._send(403, b"Please set a User-Agent with contact information", {})
            return
        time.sleep(self.server.delay_s)
        if fault is not None:
            time.sleep(fault.delay_s)
            if fault.status is not None:
                self._send(fault.status, fault.body, fault.headers)
                return
        status, body, content_type = self.answer(raw_params)
        key = request_key(raw_params)
        if status == 200:  # counted before the answer leaves, so a client that has it sees the count
            self._count(key, +1)
        if not self._send(status, body, {"Content-Type": content_type}) and status == 200:
            self._count(key, -1)

    def _count(self, key: str, step: int) -> None:
        with self.server._lock:
            self.server.served[key] += step
            if self.server.served[key] <= 0:
                del self.server.served[key]

    def answer(self, raw_params: str) -> tuple[int, bytes, str]:
        raise NotImplementedError

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> bool:
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            return True
        except OSError:  # the client gave up (timeout test) or was killed
            return False


def request_key(raw_params: str) -> str:
    pairs = urllib.parse.parse_qsl(raw_params, keep_blank_values=True)
    return urllib.parse.urlencode(sorted(pairs))


class MediaWikiHandler(FixtureHandler):
    """The few `action=query` calls the builder makes, answered like formatversion=2 does,
    links paged three at a time so continuation is exercised."""

    LINKS_PER_ANSWER = 3

    def answer(self, raw_params: str) -> tuple[int, bytes, str]:
        params = dict(urllib.parse.parse_qsl(raw_params, keep_blank_values=True))
        result = self.server.wiki.answer(params)
        return 200, json.dumps(result).encode(), "application/json; charset=utf-8"


@dataclass
class WikiFaults:
    """Answers a broken or hostile wiki gives on every request, until the server is reset."""

    empty_extracts: set[str] | None = None  # these titles' leads come back as extract: ""; None: no title
    all_extracts_empty: bool = False
    fullurl: str | None = None  # every page's fullurl, e.g. "javascript:alert(1)"
    endless_continue: bool = False  # every answer asks to be continued with a token never seen before


class WikiFixture:
    def __init__(self, pages_file: Path):
        data = json.loads(Path(pages_file).read_text(encoding="utf-8"))
        self.pages, self.redirects, self.random = data["pages"], data["redirects"], data["random"]
        self.faults = WikiFaults()
        self._tokens = 0

    def answer(self, params: dict) -> dict:
        if params.get("action") != "query" or params.get("format") != "json" or params.get("formatversion") != "2":
            return {"error": {"code": "badparams", "info": "fixture speaks action=query, json, formatversion=2"}}
        if params.get("list") == "random":
            return self._random(params)
        titles = params.get("titles", "").split("|")
        props = params.get("prop", "").split("|")
        cap = 20 if "extracts" in props else 50
        if len(titles) > cap or ("extracts" in props and int(params.get("exlimit", "1")) < len(titles)):
            return {"error": {"code": "toomanyvalues", "info": f"at most {cap} titles"}}
        redirects = [{"from": t, "to": self.redirects[t]} for t in titles if t in self.redirects]
        resolved = [self.redirects.get(t, t) for t in titles]
        pages = []
        for title in dict.fromkeys(resolved):
            page = self.pages.get(title)
            entry: dict = {"ns": 0, "title": title}
            if page is None:
                entry["missing"] = True
            else:
                entry["pageid"] = list(self.pages).index(title) + 1
                if "extracts" in props:
                    empty = self.faults.all_extracts_empty or title in (self.faults.empty_extracts or ())
                    entry["extract"] = "" if empty else page["extract"]
                if "pageprops" in props and page["qid"]:
                    entry["pageprops"] = {"wikibase_item": page["qid"]}
                if "info" in props:
                    entry["fullurl"] = self.faults.fullurl or "https://en.wikipedia.org/wiki/" + title.replace(" ", "_")
                if "redirects" in props:
                    entry["redirects"] = [{"ns": 0, "title": source}
                                          for source, target in self.redirects.items() if target == title]
            pages.append(entry)
        result: dict = {"batchcomplete": True, "query": {"pages": pages}}
        if redirects:
            result["query"]["redirects"] = redirects
        if "links" in props:
            self._page_links(pages, params, result)
        if self.faults.endless_continue:
            self._tokens += 1
            result["continue"] = {"excontinue": str(self._tokens), "continue": "||"}
            result.pop("batchcomplete", None)
        return result

    def _page_links(self, pages: list[dict], params: dict, result: dict) -> None:
        """Links of all pages as one stream, cut into answers of LINKS_PER_ANSWER with plcontinue."""
        stream = [(i, link) for i, entry in enumerate(pages) if not entry.get("missing")
                  for link in self.pages[entry["title"]]["links"]]
        start = int(params.get("plcontinue", "0"))
        chunk = stream[start:start + MediaWikiHandler.LINKS_PER_ANSWER]
        for i, link in chunk:
            pages[i].setdefault("links", []).append({"ns": 0, "title": link})
        if start:  # redirects came with the first answer; later answers carry only links
            for entry in pages:
                entry.pop("redirects", None)
        if start + len(chunk) < len(stream):
            result["continue"] = {"plcontinue": str(start + len(chunk)), "continue": "||"}
            del result["batchcomplete"]

    def _random(self, params: dict) -> dict:
        start = int(params.get("rncontinue", "0"))
        count = int(params.get("rnlimit", "1"))
        titles = self.random[start:start + count]
        drawn = [{"id": list(self.pages).index(title) + 1, "ns": 0, "title": title} for title in titles]
        result: dict = {"batchcomplete": True, "query": {"random": drawn}}
        if start + count < len(self.random):
            result["continue"] = {"rncontinue": str(start + count), "continue": "-||"}
        return result


class SparqlProxyHandler(FixtureHandler):
    """Forwards the SPARQL protocol request to Oxigraph as it came; counts it by query text."""

    def answer(self, raw_params: str) -> tuple[int, bytes, str]:
        request = urllib.request.Request(self.server.upstream, data=raw_params.encode(), method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": self.headers.get("Accept", "application/sparql-results+json"),
        })
        try:
            with urllib.request.urlopen(request, timeout=30) as upstream:
                return upstream.status, upstream.read(), upstream.headers.get("Content-Type", "")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers.get("Content-Type", "text/plain")


def start_mediawiki(pages_file: Path) -> FixtureServer:
    server = FixtureServer(MediaWikiHandler)
    server.wiki = WikiFixture(pages_file)
    return server.start()


def start_sparql_proxy(upstream_query_url: str) -> FixtureServer:
    server = FixtureServer(SparqlProxyHandler)
    server.upstream = upstream_query_url
    return server.start()


class OxigraphServer:
    """`oxigraph serve` on a free loopback port, in memory, loaded with an N-Triples file."""

    def __init__(self, rdf_file: Path):
        self.port = free_port()
        binary = Path(sys.executable).with_name("oxigraph")
        self.binary = str(binary) if binary.exists() else shutil.which("oxigraph")
        if self.binary is None:
            raise RuntimeError("the oxigraph server is not installed: pip install oxigraph")
        self.process = subprocess.Popen([self.binary, "serve", "--bind", f"127.0.0.1:{self.port}"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait_until_up()
            self._load(rdf_file)
        except Exception:
            self.stop()
            raise

    @property
    def query_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/query"

    def _wait_until_up(self, timeout_s: float = 20.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"oxigraph exited with code {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("oxigraph did not start listening")

    def _load(self, rdf_file: Path) -> None:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/store?default", method="POST",
                                         data=Path(rdf_file).read_bytes(),
                                         headers={"Content-Type": "application/n-triples"})
        with urllib.request.urlopen(request, timeout=20) as response:
            if response.status not in (200, 201, 204):
                raise RuntimeError(f"loading the fixture into oxigraph gave HTTP {response.status}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
