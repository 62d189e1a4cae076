"""A software passkey for the HTTP tests: what a browser's authenticator answers to
``navigator.credentials.create/get`` (attestation "none", ES256), built with the ``cryptography`` and
CBOR helpers the ``webauthn`` package brings. The browser tests use Chromium's virtual authenticator."""

from __future__ import annotations

import hashlib
import json
import os
import struct
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url, encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40


class SoftKey:
    """One discoverable ES256 credential of ``rp_id`` used from ``origin``."""

    def __init__(self, rp_id: str, origin: str) -> None:
        self.rp_id, self.origin = rp_id, origin
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.count = 0
        self.user_handle: str | None = None

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create({publicKey: options})``."""
        self.user_handle = options["user"]["id"]
        numbers = self.private.public_key().public_numbers()
        cose = encode_cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + cose
        auth = hashlib.sha256(self.rp_id.encode()).digest() + bytes([UP | UV | AT]) + struct.pack(">I", 0)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth + attested})
        cid = bytes_to_base64url(self.credential_id)
        return {"id": cid, "rawId": cid, "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": bytes_to_base64url(self._client_data("webauthn.create",
                                                                                    options["challenge"])),
                             "attestationObject": bytes_to_base64url(attestation)}}

    def get(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get({publicKey: options})``."""
        self.count += 1
        auth = hashlib.sha256(self.rp_id.encode()).digest() + bytes([UP | UV]) + struct.pack(">I", self.count)
        client = self._client_data("webauthn.get", options["challenge"])
        signature = self.private.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        cid = bytes_to_base64url(self.credential_id)
        return {"id": cid, "rawId": cid, "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": bytes_to_base64url(client),
                             "authenticatorData": bytes_to_base64url(auth),
                             "signature": bytes_to_base64url(signature),
                             "userHandle": self.user_handle}}
