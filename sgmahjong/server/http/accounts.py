"""Account routes (docs/accounts.md): claim an account with a passkey, sign in with a passkey or a
device link code, list and remove devices and passkeys, sign out (here or everywhere).

Every state-changing route is a POST or DELETE with a JSON body, so the guard middleware's Origin and
content-type checks stand in front of it (CSRF), and the session cookie is SameSite=Lax. Signing in
never takes a name: a passkey names its account itself, a code its own; every failed sign-in answers
the same 401. Sign-in attempts are rate-limited per client address, and link codes also in all.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..protocol import ProtocolError
from ..settings import ServerSettings
from ..store.accounts import FlowRow
from ..table.seats import clean_name
from . import passkeys, sessions
from .limits import AddressBuckets, TokenBucket
from .players import claim_browser
from .sessions import Signed

SIGN_IN_FAILED = "sign-in failed: that passkey or code is not (or no longer) valid"


class Begin(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=100)] | None = None


class Finish(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    flow: Annotated[str, Field(min_length=20, max_length=64)]
    credential: dict[str, Any]


class Link(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: Annotated[str, Field(min_length=1, max_length=40)]


class Empty(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def guarded(handler: Any) -> Any:
    """``handler`` answering a bad body (:class:`ProtocolError`) with a 400 and its message."""
    async def run(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except ProtocolError as exc:
            return _error(400, exc.message, exc.code, exc.params)
    return run


def _error(status: int, message: str, code: str | None = None,
           params: dict[str, object] | None = None) -> JSONResponse:
    body: dict[str, object] = {"error": message} if code is None else {"error": message, "code": code}
    return JSONResponse(body if not params else {**body, "params": params}, status_code=status)


async def read_body(request: Request, model: type[BaseModel]) -> Any:
    raw = await request.body()
    try:
        return model.model_validate(json.loads(raw or b"{}"))
    except ValueError as exc:
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            raise ProtocolError("invalid", f"{where}: {first['msg']}") from None
        raise ProtocolError("bad_json", "request body is not valid JSON") from None


def _account_json(store: Any, signed: Signed) -> dict[str, Any]:
    now = time.time()
    return {
        "signed_in": True, "name": signed.account.name, "created": signed.account.created,
        "passkeys": [{"id": p.id, "label": p.label, "created": p.created, "last_used": p.last_used}
                     for p in store.passkeys(signed.account.id)],
        "devices": [{"ref": sessions.device_ref(s), "label": s.label, "created": s.created,
                     "last_seen": s.last_seen, "current": s.id_hash == signed.session.id_hash}
                    for s in store.sessions(signed.account.id, now)],
    }


def routes(server: Any) -> list[Route]:
    """The account routes, for ``server`` (the app's TableServer)."""
    settings: ServerSettings = server.settings
    attempts = AddressBuckets(settings.sign_ins_per_hour / 3600, settings.sign_in_burst,
                              settings.tracked_addresses)
    per_minute = settings.link_guesses_per_minute
    guesses = TokenBucket(per_minute / 60, max(1, round(per_minute)))

    def limited(request: Request, everyone: TokenBucket | None = None) -> Response | None:
        address = request.client.host if request.client else "?"
        if attempts.take(address) and (everyone is None or everyone.take()):
            return None
        wait = max(1, round(max(attempts.wait(address), everyone.wait() if everyone else 0)))
        return JSONResponse({"error": f"too many sign-in attempts; try again in {wait} s",
                             "code": "rate_limited"}, status_code=429, headers={"Retry-After": str(wait)})

    def signed_in(request: Request) -> Signed | None:
        return sessions.current(request, server.store, settings)

    def new_flow(flow: FlowRow) -> str:
        flow_id = secrets.token_urlsafe(32)
        server.store.add_flow(sessions.digest(flow_id), flow, time.time())
        return flow_id

    def signed_in_answer(request: Request, account_id: int, **extra: Any) -> Response:
        fresh = not claim_browser(request, server.store, account_id)
        account = server.store.account(account_id)
        response = JSONResponse({"signed_in": True, "name": account.name, "fresh_identity": fresh, **extra})
        sessions.start(request, response, server.store, settings, account_id)
        return response

    async def state(request: Request) -> Response:
        signed = signed_in(request)
        if signed is None:
            return JSONResponse({"signed_in": False})
        return JSONResponse(_account_json(server.store, signed))

    async def passkey_begin(request: Request) -> Response:
        """A new passkey: for the signed-in account, else for a new account named ``name``."""
        body = await read_body(request, Begin)
        party = passkeys.party(request, settings)
        signed = signed_in(request)
        store = server.store
        if signed is not None:
            if len(store.passkeys(signed.account.id)) >= settings.passkeys_per_account:
                return _error(409, f"an account has at most {settings.passkeys_per_account} passkeys")
            account = signed.account
            challenge, options = passkeys.registration(party, account.name, account.handle,
                                                       store.passkeys(account.id))
            flow = FlowRow("register", challenge, account.id, None, None, 0.0)
        else:
            if (refused := limited(request)) is not None:
                return refused
            if body.name is None:
                return _error(400, "a new account needs a name")
            name = clean_name(body.name, settings.text_max_marks)
            if store.account_named(sessions.name_key(name)):
                return _error(409, "an account already has that name; choose another", "name_taken")
            handle = passkeys.new_handle()
            challenge, options = passkeys.registration(party, name, handle, [])
            flow = FlowRow("register", challenge, None, name, handle, 0.0)
        flow.expires = time.time() + settings.auth_flow_seconds
        return JSONResponse({"flow": new_flow(flow), "options": options})

    async def passkey_finish(request: Request) -> Response:
        body = await read_body(request, Finish)
        store = server.store
        flow = store.take_flow(sessions.digest(body.flow), time.time())
        if flow is None or flow.kind != "register":
            return _error(400, "this passkey request has expired; start again")
        try:
            party = passkeys.party(request, settings)
            new = passkeys.check_registration(party, flow.challenge, body.credential)
        except passkeys.PasskeyRefused:
            return _error(400, "the passkey could not be checked; try again")
        label = sessions.device_label(request)
        if flow.account_id is not None:  # another passkey of the signed-in account
            signed = signed_in(request)
            if signed is None or signed.account.id != flow.account_id:
                return _error(401, "sign in first")
            store.add_passkey(flow.account_id, new.credential_id, new.public_key, new.sign_count, label)
            return JSONResponse(_account_json(store, signed))
        assert flow.name is not None and flow.handle is not None
        account_id = store.create_account(flow.name, sessions.name_key(flow.name), flow.handle)
        if account_id is None:
            return _error(409, "an account already has that name; choose another", "name_taken")
        store.add_passkey(account_id, new.credential_id, new.public_key, new.sign_count, label)
        return signed_in_answer(request, account_id)

    async def signin_begin(request: Request) -> Response:
        await read_body(request, Empty)
        challenge, options = passkeys.authentication(passkeys.party(request, settings))
        flow = FlowRow("signin", challenge, None, None, None, time.time() + settings.auth_flow_seconds)
        return JSONResponse({"flow": new_flow(flow), "options": options})

    async def signin_finish(request: Request) -> Response:
        if (refused := limited(request)) is not None:
            return refused
        body = await read_body(request, Finish)
        store = server.store
        flow = store.take_flow(sessions.digest(body.flow), time.time())
        cred = passkeys.credential_id(body.credential)
        key = store.passkey(cred) if cred is not None else None
        if flow is None or flow.kind != "signin" or key is None:
            return _error(401, SIGN_IN_FAILED, "sign_in_failed")
        try:
            count = passkeys.check_authentication(passkeys.party(request, settings), flow.challenge,
                                                  body.credential, key)
        except passkeys.PasskeyRefused:
            return _error(401, SIGN_IN_FAILED, "sign_in_failed")
        store.use_passkey(key.id, count)
        return signed_in_answer(request, key.account_id)

    async def link_code(request: Request) -> Response:
        await read_body(request, Empty)
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        code = sessions.new_code()
        expires = time.time() + settings.link_code_seconds
        server.store.add_link_code(sessions.digest(code), signed.account.id, expires)
        return JSONResponse({"code": code, "expires_in": settings.link_code_seconds})

    async def link(request: Request) -> Response:
        if (refused := limited(request, guesses)) is not None:
            return refused
        body = await read_body(request, Link)
        code = sessions.normalize_code(body.code)
        account_id = None if code is None else server.store.use_link_code(sessions.digest(code), time.time())
        if account_id is None:
            return _error(401, SIGN_IN_FAILED, "sign_in_failed")
        return signed_in_answer(request, account_id)

    async def signout(request: Request) -> Response:
        await read_body(request, Empty)
        signed = signed_in(request)
        if signed is not None:
            server.store.end_sessions(signed.account.id, signed.session.id_hash)
        response = JSONResponse({"signed_in": False})
        sessions.clear(request, response)
        return response

    async def signout_all(request: Request) -> Response:
        await read_body(request, Empty)
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        ended = server.store.end_sessions(signed.account.id)
        response = JSONResponse({"signed_in": False, "ended": ended})
        sessions.clear(request, response)
        return response

    async def remove_device(request: Request) -> Response:
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        ref = request.path_params["ref"]
        store = server.store
        found = [s for s in store.sessions(signed.account.id, time.time()) if sessions.device_ref(s) == ref]
        if not found:
            return _error(404, "no such device")
        store.end_sessions(signed.account.id, found[0].id_hash)
        if found[0].id_hash != signed.session.id_hash:
            return JSONResponse(_account_json(store, signed))
        response = JSONResponse({"signed_in": False})
        sessions.clear(request, response)
        return response

    async def remove_passkey(request: Request) -> Response:
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        if not server.store.delete_passkey(signed.account.id, int(request.path_params["id"])):
            return _error(404, "no such passkey")
        return JSONResponse(_account_json(server.store, signed))

    return [
        Route("/api/account", guarded(state), methods=["GET"]),
        Route("/api/account/passkeys/begin", guarded(passkey_begin), methods=["POST"]),
        Route("/api/account/passkeys/finish", guarded(passkey_finish), methods=["POST"]),
        Route("/api/account/passkeys/{id:int}", guarded(remove_passkey), methods=["DELETE"]),
        Route("/api/account/signin/begin", guarded(signin_begin), methods=["POST"]),
        Route("/api/account/signin/finish", guarded(signin_finish), methods=["POST"]),
        Route("/api/account/link-codes", guarded(link_code), methods=["POST"]),
        Route("/api/account/link", guarded(link), methods=["POST"]),
        Route("/api/account/signout", guarded(signout), methods=["POST"]),
        Route("/api/account/signout-all", guarded(signout_all), methods=["POST"]),
        Route("/api/account/devices/{ref:str}", guarded(remove_device), methods=["DELETE"]),
    ]
