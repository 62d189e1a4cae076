"""Passkeys (WebAuthn) with the ``webauthn`` package: the options the browser's
``navigator.credentials`` takes, and the checks of what it answers.

Registration asks for a discoverable credential (a resident key) with user verification, so that
signing in needs no name: the browser offers the passkeys it holds for this site and the answer names
its account by the credential. The relying party is ``webauthn_rp_id`` (default: the request's host
name) and the allowed origins ``webauthn_origins`` (default: the request's own origin). Those defaults
serve only a server tried locally: for any other host name passkeys are offered only once both
settings are set (:func:`offered`), so that a production site never registers passkeys bound to
whatever host name a request carried.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..settings import ServerSettings
from ..store.accounts import PasskeyRow

RP_NAME = "sgmahjong"
TIMEOUT_MS = 120_000


class PasskeyRefused(Exception):
    """What the browser answered does not check out (one message for every reason)."""


@dataclass
class Party:
    rp_id: str
    origins: list[str]


LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
OFF = ("passkeys are off on this server (SGMAHJONG_WEBAUTHN_RP_ID and SGMAHJONG_WEBAUTHN_ORIGINS are not"
       " set); sign in with a device link code")


def configured(settings: ServerSettings) -> bool:
    """Whether the relying party and its origins are set (passkeys work on any host name)."""
    return bool(settings.webauthn_rp_id and settings.webauthn_origins)


def offered(request: Request, settings: ServerSettings) -> bool:
    """Whether passkeys may be used for this request: when configured, or on the local machine."""
    return configured(settings) or (request.url.hostname or "").lower() in LOCAL_HOSTS


def party(request: Request, settings: ServerSettings) -> Party:
    host = request.url.hostname or "localhost"
    origin = f"{request.url.scheme}://{request.url.netloc}"
    return Party(settings.webauthn_rp_id or host, list(settings.webauthn_origins) or [origin])


def new_handle() -> str:
    """A new account's WebAuthn user handle (random: it says nothing of the account)."""
    return bytes_to_base64url(secrets.token_bytes(32))


def registration(party: Party, name: str, handle: str,
                 existing: list[PasskeyRow]) -> tuple[str, dict[str, Any]]:
    """(challenge, options as JSON) for a new passkey of the account ``handle``."""
    options = generate_registration_options(
        rp_id=party.rp_id, rp_name=RP_NAME, user_name=name, user_display_name=name,
        user_id=base64url_to_bytes(handle), timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id))
                             for p in existing],
    )
    return bytes_to_base64url(options.challenge), json.loads(options_to_json(options))


def authentication(party: Party) -> tuple[str, dict[str, Any]]:
    """(challenge, options as JSON) to sign in with any passkey of this site (none is named)."""
    options = generate_authentication_options(
        rp_id=party.rp_id, timeout=TIMEOUT_MS, user_verification=UserVerificationRequirement.PREFERRED)
    return bytes_to_base64url(options.challenge), json.loads(options_to_json(options))


@dataclass
class NewPasskey:
    credential_id: str
    public_key: str
    sign_count: int


def check_registration(party: Party, challenge: str, credential: dict[str, Any]) -> NewPasskey:
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=party.rp_id, expected_origin=party.origins)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return NewPasskey(bytes_to_base64url(verified.credential_id),
                      bytes_to_base64url(verified.credential_public_key), verified.sign_count)


def credential_id(credential: dict[str, Any]) -> str | None:
    """The credential id an answer names (base64url), or None."""
    raw = credential.get("rawId", credential.get("id"))
    if not isinstance(raw, str) or not 1 <= len(raw) <= 1400:
        return None
    try:
        return bytes_to_base64url(base64url_to_bytes(raw))
    except ValueError:
        return None


def check_authentication(party: Party, challenge: str, credential: dict[str, Any], key: PasskeyRow) -> int:
    """The passkey's new signature count, if the answer is its valid signature of ``challenge``."""
    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=party.rp_id, expected_origin=party.origins,
            credential_public_key=base64url_to_bytes(key.public_key),
            credential_current_sign_count=key.sign_count)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return int(verified.new_sign_count)
