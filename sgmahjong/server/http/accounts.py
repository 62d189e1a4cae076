"""Account routes (docs/accounts.md): claim an account with a passkey, sign in with a passkey or a
device link code, list and remove devices and passkeys, sign out (here or everywhere).

Every state-changing route is a POST or DELETE with a JSON body, so the guard middleware's Origin and
content-type checks stand in front of it (CSRF), and the session cookie is SameSite=Lax. Signing in
never takes a name: a passkey names its account itself, a code its own; every failed sign-in answers
the same 401. Every ceremony, sign-in attempt and link code tried is rate-limited per person (address
and identity: :mod:`.signin_limits`), and the ceremonies kept are bounded per address and in all.
Passkeys are offered on the local machine, or anywhere once the relying party is set
(:func:`.passkeys.offered`); otherwise the passkey routes answer 503 ``passkeys_off``.
"""

from __future__ import annotations

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
from . import identity, passkeys, sessions
from .common import error, json_body, row_id
from .sessions import Signed
from .signin_limits import PersonLimit, SignInLimits, refuse

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
    data = await json_body(request)  # bounded in size and depth; an empty body is {}
    try:
        return model.model_validate({} if data is None and not await request.body() else data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise ProtocolError("invalid", f"{where}: {first['msg']}") from None


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
    limits = SignInLimits(settings)

    def limited(request: Request, limit: PersonLimit | None = None) -> Response | None:
        """429 when this person (address, identity) is over ``limit`` (default: sign-in attempts)."""
        return refuse(limits.attempts if limit is None else limit, identity.person_keys(server, request))

    def ceremony_refused(request: Request) -> Response | None:
        """Why a passkey ceremony may not begin (passkeys off, or too many), or None."""
        if not passkeys.offered(request, settings):
            return error(503, passkeys.OFF, "passkeys_off")
        return limited(request, limits.ceremonies)

    def signed_in(request: Request) -> Signed | None:
        return sessions.current(server, request)

    def new_flow(request: Request, flow: FlowRow) -> str:
        flow_id = secrets.token_urlsafe(32)
        owner = sessions.digest(identity.address_of(request))
        server.store.add_flow(sessions.digest(flow_id), flow, time.time(), owner,
                              settings.ceremonies_per_address, settings.ceremonies_max)
        return flow_id

    def signed_in_answer(request: Request, account_id: int, **extra: Any) -> Response:
        """Sign this device in to ``account_id``: a guest's player (and its history) becomes the
        account's; a device signed in to another account gets a new player. The session is replaced
        (its device lineage kept)."""
        store = server.store
        who = identity.visitor(server, request)
        player = None
        if who is not None and (who.account.id == account_id if who.account is not None
                                else store.claim_player(who.player_id, account_id)):
            player = who.player_id
        account = store.account(account_id)
        if player is None:
            player = store.new_guest(account.name)
            store.claim_player(player, account_id)
        identity.replace(server, request, player, account_id)
        return JSONResponse({"signed_in": True, "name": account.name, **extra})

    async def signed_out(request: Request, gone: set[str], **extra: Any) -> Response:
        """This device is a new guest now (the same device: its lineage is kept); the sockets opened
        with the ``gone`` sessions (this device's among them) are sent away."""
        signed = signed_in(request)
        identity.replace(server, request, server.store.new_guest(), None)
        await server.sessions_ended(gone | ({signed.session.id_hash} if signed is not None else set()))
        return JSONResponse({"signed_in": False, **extra})

    async def state(request: Request) -> Response:
        signed = signed_in(request)
        off = {} if passkeys.offered(request, settings) else {"passkeys_off": True}
        if signed is None:
            return JSONResponse({"signed_in": False, **off})
        return JSONResponse({**_account_json(server.store, signed), **off})

    async def passkey_begin(request: Request) -> Response:
        """A new passkey: for the signed-in account, else for a new account named ``name``."""
        if (refused := ceremony_refused(request)) is not None:
            return refused
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
        return JSONResponse({"flow": new_flow(request, flow), "options": options})

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
        label = identity.device_label(request)
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
        if (refused := ceremony_refused(request)) is not None:
            return refused
        await read_body(request, Empty)
        challenge, options = passkeys.authentication(passkeys.party(request, settings))
        flow = FlowRow("signin", challenge, None, None, None, time.time() + settings.auth_flow_seconds)
        return JSONResponse({"flow": new_flow(request, flow), "options": options})

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
        if (refused := limited(request, limits.ceremonies)) is not None:
            return refused
        code = sessions.new_code()
        expires = time.time() + settings.link_code_seconds
        server.store.add_link_code(sessions.digest(code), signed.account.id, expires,
                                   settings.link_codes_per_account)
        return JSONResponse({"code": code, "expires_in": settings.link_code_seconds})

    async def link(request: Request) -> Response:
        if (refused := limited(request, limits.guesses)) is not None:
            return refused
        body = await read_body(request, Link)
        code = sessions.normalize_code(body.code)
        account_id = None if code is None else server.store.use_link_code(sessions.digest(code), time.time())
        if account_id is None:
            return _error(401, SIGN_IN_FAILED, "sign_in_failed")
        return signed_in_answer(request, account_id)

    async def signout(request: Request) -> Response:
        await read_body(request, Empty)
        if signed_in(request) is None:
            return JSONResponse({"signed_in": False})
        return await signed_out(request, set())

    async def signout_all(request: Request) -> Response:
        await read_body(request, Empty)
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        server.store.remove_subscriptions(identity.player_ids_of(server, request))  # no more notifications
        hashes = {s.id_hash for s in server.store.sessions(signed.account.id, time.time())}
        ended = server.store.end_sessions(signed.account.id)
        return await signed_out(request, hashes, ended=ended)

    async def remove_device(request: Request) -> Response:
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        ref = request.path_params["ref"]
        store = server.store
        found = [s for s in store.sessions(signed.account.id, time.time()) if sessions.device_ref(s) == ref]
        if not found:
            return _error(404, "no such device")
        if found[0].id_hash == signed.session.id_hash:
            return await signed_out(request, set())
        store.end_sessions(signed.account.id, found[0].id_hash)
        await server.sessions_ended({found[0].id_hash})
        return JSONResponse(_account_json(store, signed))

    async def remove_passkey(request: Request) -> Response:
        signed = signed_in(request)
        if signed is None:
            return _error(401, "sign in first")
        passkey = row_id(str(request.path_params["id"]))
        if passkey is None or not server.store.delete_passkey(signed.account.id, passkey):
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
