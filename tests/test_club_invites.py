"""Invite links over HTTP (server/http/clubs.py): each link keeps the owner's label, a fingerprint (the
first characters of its code's hash, never the code) and its maker, so revoking acts on the right one;
the invitation names the club, its stakes and who sent the link, or says at once why the link joins
nobody; a new friend with no name joins in one step, named by the same request."""

from __future__ import annotations

import hashlib
from pathlib import Path

from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving, session_cookie
from tests.test_clubs import call, new_club, player


def make(server: LiveServer, owner: str, club: str, label: str = "", **extra: object) -> dict[str, object]:
    r = call(server, "POST", f"/api/clubs/{club}/invites", owner, {"label": label, **extra})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def test_invite_links_are_told_apart_and_revoking_acts_on_the_right_one(live_server: LiveServer) -> None:
    owner, mei = player(live_server, "Ann"), player(live_server, "Mei Ling")
    beng = player(live_server, "Beng")
    club = new_club(live_server, owner)["code"]
    for_mei = make(live_server, owner, club, "  for   Mei Ling ")
    for_beng = make(live_server, owner, club, "<b>for Ah Beng</b>")
    unlabelled = make(live_server, owner, club)
    for made in (for_mei, for_beng, unlabelled):  # the fingerprint: the code's hash, never the code
        assert made["fingerprint"] == hashlib.sha256(str(made["invite"]).encode()).hexdigest()[:6]
    assert len({str(m["fingerprint"]) for m in (for_mei, for_beng, unlabelled)}) == 3
    listed = call(live_server, "GET", f"/api/clubs/{club}", owner).json()["invites"]
    assert [(i["id"], i["label"], i["fingerprint"], i["maker"]) for i in listed] == [
        (unlabelled["id"], "", unlabelled["fingerprint"], "Ann"),
        (for_beng["id"], "<b>for Ah Beng</b>", for_beng["fingerprint"], "Ann"),  # text, as typed
        (for_mei["id"], "for Mei Ling", for_mei["fingerprint"], "Ann")]
    assert all(str(m["invite"]) not in str(listed) for m in (for_mei, for_beng, unlabelled))
    assert all(i["created"] and i["expires"] for i in listed)
    # revoking Beng's link leaves Mei Ling's working, and the revoked one says so at once
    r = call(live_server, "POST", f"/api/clubs/{club}/invites/{for_beng['id']}/revoke", owner, {})
    assert r.json() == {"revoked": for_beng["id"]}
    listed = call(live_server, "GET", f"/api/clubs/{club}", owner).json()["invites"]
    assert [i["label"] for i in listed] == ["", "for Mei Ling"]
    r = call(live_server, "POST", "/api/clubs/invitation", beng, {"invite": for_beng["invite"]})
    assert (r.status_code, r.json()["code"]) == (404, "invite_revoked") and "Kaki" not in r.text
    r = call(live_server, "POST", "/api/clubs/join", beng, {"invite": for_beng["invite"]})
    assert (r.status_code, r.json()["code"]) == (404, "invite_revoked")
    assert call(live_server, "POST", "/api/clubs/join", mei, {"invite": for_mei["invite"]}).status_code == 200
    # labels: bounded, one line of visible text; a member may not make links
    r = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {"label": "x" * 41})
    assert (r.status_code, r.json()["code"], r.json()["params"]) == (400, "label_too_long", {"most": 40})
    r = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {"label": "for\u200bMei"})
    assert (r.status_code, r.json()["code"]) == (400, "text_invisible")
    assert call(live_server, "POST", f"/api/clubs/{club}/invites", mei, {"label": "mine"}).status_code == 403


def test_the_invitation_names_the_club_and_sender_or_says_why_not(live_server: LiveServer) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "Thursday kaki", stake=20)["code"]
    link = make(live_server, owner, club, "for Mei Ling")
    r = live_server.post("/api/clubs/invitation", {"invite": link["invite"]})  # a visitor with no session
    assert r.status_code == 200 and session_cookie(r) is None  # reading the invitation makes no identity
    seen = r.json()
    assert seen["club"] == {"name": "Thursday kaki", "preset": "default", "stake": None,
                            "cents_per_point": None, "money": False}  # points first: no stakes in a currency
    assert (seen["inviter"], seen["owner"], seen["members"]) == ("Ah Beng", "Ah Beng", 1)
    assert (seen["member"], seen["url"], seen["needs_name"]) == (False, None, True)
    assert seen["fingerprint"] == link["fingerprint"] and "label" not in seen  # the label is the owner's
    named = player(live_server, "Siew Mei")
    assert call(live_server, "POST", "/api/clubs/invitation", named, {"invite": link["invite"]}).json()[
        "needs_name"] is False
    assert call(live_server, "POST", "/api/clubs/invitation", owner, {"invite": link["invite"]}).json()[
        "url"] == f"/club/{club}"  # a member is shown the way in
    expired = make(live_server, owner, club, days=0.00000001)
    for invite, why in ((expired["invite"], "invite_expired"), ("no-such-link-" * 2, "invite_unknown")):
        r = live_server.post("/api/clubs/invitation", {"invite": invite})
        assert (r.status_code, r.json()["code"]) == (404, why) and "Thursday" not in r.text


def test_a_new_friend_joins_in_one_step_named_by_the_same_request(live_server: LiveServer) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner)["code"]
    link = make(live_server, owner, club)
    # before, a visitor without a name was sent to /me; now the join names them
    r = live_server.post("/api/clubs/join", {"invite": link["invite"]})
    assert (r.status_code, r.json()["code"]) == (400, "name_needed") and session_cookie(r) is None
    r = live_server.post("/api/clubs/join", {"invite": link["invite"], "name": "  Mei   Ling "})
    assert r.status_code == 200 and r.json()["url"] == f"/club/{club}"
    mei = session_cookie(r)
    assert mei is not None
    members = call(live_server, "GET", f"/api/clubs/{club}", mei).json()["members"]
    assert [(m["name"], m["role"]) for m in members] == [("Ah Beng", "owner"), ("Mei Ling", "member")]
    assert call(live_server, "GET", "/api/me", mei).json()["name"] == "Mei Ling"
    # a name the server refuses makes no one; a dead link makes no one either
    r = live_server.post("/api/clubs/join", {"invite": link["invite"], "name": "a\u202eb"})
    assert r.status_code == 400 and session_cookie(r) is None
    call(live_server, "POST", f"/api/clubs/{club}/invites/{link['id']}/revoke", owner, {})
    r = live_server.post("/api/clubs/join", {"invite": link["invite"], "name": "Eve"})
    assert (r.status_code, r.json()["code"]) == (404, "invite_revoked") and session_cookie(r) is None


def test_a_full_club_refuses_with_its_code(tmp_path: Path) -> None:
    with serving(tmp_path / "full.sqlite3", settings=ServerSettings(club_members_max=2)) as server:
        owner = player(server, "Ann")
        club = new_club(server, owner)["code"]
        link = make(server, owner, club)
        assert server.post("/api/clubs/join", {"invite": link["invite"], "name": "Ben"}).status_code == 200
        r = server.post("/api/clubs/join", {"invite": link["invite"], "name": "Cat"})
        assert (r.status_code, r.json()["code"], r.json()["params"]) == (409, "club_full", {"most": 2})
        assert session_cookie(r) is None
