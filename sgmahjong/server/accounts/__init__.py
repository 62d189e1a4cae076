"""Accounts without passwords (docs/accounts.md): server-side sessions in a cookie, passkeys
(WebAuthn, ``passkeys.py``) and one-time device link codes (``sessions.py``). The HTTP routes are
server/http/accounts.py; the rows and their SQL server/store/accounts.py."""
