"""The server's VAPID key pair (RFC 8292): a P-256 key, made once and kept in the store
(``Store.vapid_keys``); browsers take the public key as the ``applicationServerKey`` of a
subscription, and push services check each notification's signed token against it."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_keys() -> tuple[str, str]:
    """A new pair: (the private key as PEM, the public key as base64url of its uncompressed point)."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    point = key.public_key().public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    return pem, b64url(point)
