"""Sign-in against a script (docs/accounts.md, "Limits"): passkey ceremonies are rate-limited per person
and their rows bounded (per address, oldest dropped, and in all, expired ones purged); an account has a
few live link codes at once (a new one revokes the oldest); link-code guessing is limited per address
and per identity with no bucket shared by everyone, so a crowd of guessing addresses never stops a real
user's code; and passkeys are offered on a public host only once their relying party is set (a line at
start, and ``passkeys_off`` from the routes)."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.http import sessions
from sgmahjong.server.http.signin_limits import PersonLimit
from sgmahjong.server.settings import ServerSettings, SettingsError
from sgmahjong.server.store import open_store
from sgmahjong.server.store.accounts import FlowRow
from tests.conftest import LiveServer, serving
from tests.softkey import SoftKey

PROXY = ("127.0.0.0/8",)  # the test is the proxy: each request names its address in X-Forwarded-For


def rows(live: LiveServer, table: str) -> int:
    db = sqlite3.connect(live.database)
    try:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        db.close()


def client(live: LiveServer, address: str | None = None) -> httpx.Client:
    headers = {} if address is None else {"X-Forwarded-For": address}
    return httpx.Client(base_url=live.url, timeout=10, headers=headers)


def account(live: LiveServer, address: str, name: str) -> httpx.Client:
    """A device at ``address`` signed in to a new account ``name`` (with a software passkey)."""
    device = client(live, address)
    key = SoftKey("127.0.0.1", live.url)
    begin = device.post("/api/account/passkeys/begin", json={"name": name})
    assert begin.status_code == 200, begin.text
    done = device.post("/api/account/passkeys/finish",
                       json={"flow": begin.json()["flow"], "credential": key.create(begin.json()["options"])})
    assert done.status_code == 200 and done.json()["signed_in"], done.text
    return device


# -- passkey ceremonies ----------------------------------------------------------------------------
def test_2000_signin_begins_from_one_address_leave_three_rows_and_the_rest_are_429(tmp_path: Path) -> None:
    # a token back every 10 minutes: none during the test
    settings = ServerSettings(trusted_proxies=PROXY, ceremonies_per_hour=6)
    with serving(tmp_path / "flood.sqlite3", settings=settings) as live, client(live) as script:
        answers = [script.post("/api/account/signin/begin", json={}) for _ in range(2000)]
        codes = [r.status_code for r in answers]
        assert codes[:10] == [200] * 10 and codes[10:] == [429] * 1990  # the burst (ceremony_burst), then 429
        refused = answers[-1]
        assert refused.json()["code"] == "rate_limited" and 500 <= int(refused.headers["retry-after"]) <= 600
        assert rows(live, "auth_flows") == settings.ceremonies_per_address == 3  # not 2,000
        kept = {r[0] for r in sqlite3.connect(live.database).execute("SELECT id_hash FROM auth_flows")}
        assert kept == {sessions.digest(r.json()["flow"]) for r in answers[7:10]}  # the newest three
        # someone at another address is not held up by that script
        with client(live, "198.51.100.4") as other:
            assert other.post("/api/account/signin/begin", json={}).status_code == 200


def test_ceremony_rows_are_bounded_per_address_and_in_all(tmp_path: Path) -> None:
    settings = ServerSettings(trusted_proxies=PROXY, ceremony_burst=5000, ceremonies_max=50)
    with serving(tmp_path / "rows.sqlite3", settings=settings) as live:
        with client(live, "203.0.113.9") as one:  # no rate in the way: the rows' own bound
            assert all(one.post("/api/account/signin/begin", json={}).status_code == 200 for _ in range(200))
        assert rows(live, "auth_flows") == 3
        for i in range(40):  # 40 more addresses, 2 each: the cap in all keeps the newest 50
            with client(live, f"198.51.100.{i}") as c:
                assert all(c.post("/api/account/signin/begin", json={}).status_code == 200 for _ in range(2))
        assert rows(live, "auth_flows") == 50


def test_the_store_drops_an_address_s_oldest_ceremony_the_oldest_beyond_the_cap_and_expired_ones(
        database_url: str) -> None:
    store = open_store(database_url)
    try:
        now = time.time()

        def add(flow_id: str, owner: str, expires: float, most: int = 100) -> None:
            store.add_flow(flow_id, FlowRow("signin", "c", None, None, None, expires), now, owner, 2, most)

        add("a1", "A", now + 10)
        add("a2", "A", now + 11)
        add("b1", "B", now + 12)
        add("a3", "A", now + 13)  # A's third: its oldest (a1) goes
        assert store.take_flow("a1", now) is None and store.flow_count() == 3
        add("c1", "C", now + 14, most=3)  # one beyond 3 in all: the oldest (a2) goes
        assert store.take_flow("a2", now) is None and store.flow_count() == 3
        later = now + 13.5  # b1 and a3 have expired by then: the next ceremony purges them
        store.add_flow("d1", FlowRow("signin", "c", None, None, None, later + 10), later, "D", 2, 100)
        assert store.flow_count() == 2
        flow = store.take_flow("c1", later)
        assert flow is not None and flow.kind == "signin"
        assert store.take_flow("c1", later) is None  # once
    finally:
        store.close()


# -- link codes ------------------------------------------------------------------------------------
def test_an_account_has_three_live_link_codes_and_a_fourth_revokes_the_oldest(tmp_path: Path) -> None:
    settings = ServerSettings(trusted_proxies=PROXY)
    with serving(tmp_path / "codes.sqlite3", settings=settings) as live:
        phone = account(live, "198.51.100.1", "Ann")
        codes = [phone.post("/api/account/link-codes", json={}).json()["code"] for _ in range(4)]
        assert rows(live, "link_codes") == settings.link_codes_per_account == 3
        first = client(live, "198.51.100.2").post("/api/account/link", json={"code": codes[0]})
        assert first.status_code == 401 and first.json()["code"] == "sign_in_failed"  # revoked
        for i, code in enumerate(codes[1:]):  # the newest three each sign a device in
            r = client(live, f"198.51.100.{10 + i}").post("/api/account/link", json={"code": code})
            assert r.status_code == 200 and r.json()["name"] == "Ann", r.text


def test_120_guessing_addresses_spend_their_own_budgets_and_a_real_code_still_works(tmp_path: Path) -> None:
    settings = ServerSettings(trusted_proxies=PROXY)
    with serving(tmp_path / "guess.sqlite3", settings=settings) as live:
        phone = account(live, "198.51.100.1", "Bo")
        code = phone.post("/api/account/link-codes", json={}).json()["code"]
        burst = settings.link_guess_burst
        for i in range(120):
            with client(live, f"203.0.113.{i}") as guesser:
                answers = [guesser.post("/api/account/link", json={"code": sessions.new_code()})
                           for _ in range(burst + 2)]
                assert [r.status_code for r in answers] == [401] * burst + [429, 429]
                assert answers[-1].json()["code"] == "rate_limited"
                assert int(answers[-1].headers["retry-after"]) >= 3600 / settings.link_guesses_per_hour - 1
        # 600 guesses later (more than the old global bucket's 60 a minute), a real user's code works
        with client(live, "192.0.2.77") as laptop:
            r = laptop.post("/api/account/link", json={"code": code})
            assert r.status_code == 200 and r.json()["name"] == "Bo", r.text


def test_a_limit_counts_every_key_of_a_person_and_a_forgotten_key_gets_no_fresh_budget() -> None:
    now = [1000.0]
    limit = PersonLimit(per_hour=4, burst=2, size=3, slots=4096, clock=lambda: now[0], salt=bytes(16))
    keys = ["p:7", *(f"a:{i}" for i in (1, 2, 3, *range(10, 30)))]
    assert len({limit.slot_of(k) for k in keys}) == len(keys)  # (with this salt no two share a slot)
    # one identity from ever new addresses: its own key runs out
    assert limit.take(("a:1", "p:7")) == 0 and limit.take(("a:2", "p:7")) == 0
    assert limit.take(("a:3", "p:7")) > 0
    assert limit.take(("a:3",)) == 0  # nothing was spent from a:3 by the refusal
    assert limit.wait(("p:7",)) == pytest.approx(900)  # a token every 15 minutes
    # more addresses still refilling than are held exactly: the rest fold into the slots
    for i in range(10, 30):
        assert limit.take((f"a:{i}",)) == 0 and limit.take((f"a:{i}",)) == 0
    assert limit.tracked() == 3
    assert all(limit.take((f"a:{i}",)) > 0 for i in range(10, 30))  # forgotten, still spent
    now[0] += 1800  # two tokens back: full again
    assert limit.take(("a:10",)) == 0 and limit.take(("a:10",)) == 0 and limit.take(("a:10",)) > 0


def test_the_default_guess_rate_keeps_link_codes_safe_for_years() -> None:
    """The sum of docs/accounts.md ("Limits") from the defaults: 10^4 live codes, guessed from 10^6
    addresses, and from any number (all together at most (tracked + slots) x rate)."""
    s = ServerSettings()
    live_codes, hours_a_year = 10**4, 8766

    def years(guesses_per_hour: float) -> float:
        return 2**sessions.CODE_BITS / (live_codes * guesses_per_hour) / hours_a_year

    assert years(10**6 * s.link_guesses_per_hour) == pytest.approx(6.42, abs=0.01)
    everyone = (s.tracked_addresses + s.limit_slots) * s.link_guesses_per_hour
    assert years(everyone) == pytest.approx(6.07, abs=0.01)
    assert 10**6 * s.link_guess_burst * live_codes / 2**sessions.CODE_BITS < 1e-4  # the first bursts


def test_the_limits_refuse_settings_that_would_switch_them_off() -> None:
    for name in ("link_guesses_per_hour", "ceremonies_per_hour", "sign_ins_per_hour"):
        with pytest.raises(SettingsError, match=name):
            ServerSettings(**{name: 0})
    with pytest.raises(SettingsError, match="link_codes_per_account"):
        ServerSettings(link_codes_per_account=0)


# -- passkeys on a public host ---------------------------------------------------------------------
@pytest.fixture
def plain(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "plain.sqlite3") as live:
        yield live


def test_passkeys_are_off_on_a_public_host_until_the_relying_party_is_set(plain: LiveServer) -> None:
    public = httpx.Client(base_url=plain.url, timeout=10, headers={"Host": "play.example.com"})
    for route, body in (("/api/account/signin/begin", {}), ("/api/account/passkeys/begin", {"name": "Cy"})):
        r = public.post(route, json=body)
        assert r.status_code == 503 and r.json()["code"] == "passkeys_off", r.text
        assert "SGMAHJONG_WEBAUTHN_RP_ID" in r.json()["error"]
    assert public.get("/api/account").json() == {"signed_in": False, "passkeys_off": True}
    for host in ("localhost", "127.0.0.1", "[::1]"):  # trying the server locally: offered
        local = httpx.Client(base_url=plain.url, timeout=10, headers={"Host": f"{host}:{plain.port}"})
        assert local.post("/api/account/signin/begin", json={}).status_code == 200, host
        assert local.get("/api/account").json() == {"signed_in": False}


def test_passkeys_work_on_a_public_host_once_set(tmp_path: Path) -> None:
    settings = ServerSettings(webauthn_rp_id="play.example.com", webauthn_origins=("https://play.example.com",))
    with serving(tmp_path / "set.sqlite3", settings=settings) as live:
        public = httpx.Client(base_url=live.url, timeout=10, headers={"Host": "play.example.com"})
        r = public.post("/api/account/signin/begin", json={})
        assert r.status_code == 200 and r.json()["options"]["rpId"] == "play.example.com"
        assert public.get("/api/account").json() == {"signed_in": False}


def run_serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, host: str) -> None:
    """``sgmahjong serve --host HOST`` up to the point where uvicorn would start listening."""
    import uvicorn

    from sgmahjong.cli import main
    from sgmahjong.commands import serve

    started: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.append(kw))
    monkeypatch.setattr(serve, "tune_gc", lambda interval: None)  # the test process keeps its collector
    monkeypatch.setattr(serve, "log_with_levels", lambda: None)
    assert main(["serve", "--host", host, "--port", "8123", "--database", str(tmp_path / "s.sqlite3")]) == 0
    assert started and started[0]["host"] == host


def test_serve_on_a_public_host_says_in_one_line_that_passkeys_are_off(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("SGMAHJONG_WEBAUTHN_RP_ID", raising=False)
    monkeypatch.delenv("SGMAHJONG_WEBAUTHN_ORIGINS", raising=False)
    with caplog.at_level(logging.WARNING, logger="sgmahjong"):
        run_serve(monkeypatch, tmp_path, "0.0.0.0")
    said = [r.getMessage() for r in caplog.records if "passkeys" in r.getMessage()]
    assert len(said) == 1 and "\n" not in said[0]
    assert "SGMAHJONG_WEBAUTHN_RP_ID" in said[0] and "SGMAHJONG_WEBAUTHN_ORIGINS" in said[0]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sgmahjong"):
        run_serve(monkeypatch, tmp_path, "127.0.0.1")  # a local server: nothing to say
        monkeypatch.setenv("SGMAHJONG_WEBAUTHN_RP_ID", "play.example.com")
        monkeypatch.setenv("SGMAHJONG_WEBAUTHN_ORIGINS", "https://play.example.com")
        run_serve(monkeypatch, tmp_path, "0.0.0.0")  # set: nothing either
    assert not [r for r in caplog.records if "passkeys" in r.getMessage()]


def test_me_on_a_public_host_without_passkeys_hides_their_buttons_and_keeps_the_link_code(
        plain: LiveServer) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PatientBrowser

    errors: list[str] = []
    with sync_playwright() as p:  # play.example is this server, under a name that is not local
        resolve = "--host-resolver-rules=MAP play.example 127.0.0.1"
        browser = PatientBrowser(p.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, resolve]))
        try:
            for lang, text in (("en", "Passkeys are not set up"), ("zh", "尚未启用通行密钥")):
                page = browser.new_context(locale="en-GB" if lang == "en" else "zh-CN").new_page()
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(f"http://play.example:{plain.port}/me")
                expect(page.locator("#passkeys-off")).to_contain_text(text, timeout=20_000)
                expect(page.locator("#link-form")).to_be_visible()
                assert page.locator("#claim-btn, #signin-btn").count() == 0
                page.context.close()
        finally:
            browser.close()
    assert errors == []
