"""The laptop's certificate authority and its server certificate, checked by a real TLS
handshake (Python's ssl, as a phone that trusts the authority would)."""

from __future__ import annotations

import socket
import ssl
import threading

from laptop.tls import Authority


def handshake(authority: Authority, server_name: str) -> str:
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(authority.cert)
    client_ctx = ssl.create_default_context(cafile=str(authority.ca_cert))
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept() -> None:
        conn, _ = listener.accept()
        try:
            with server_ctx.wrap_socket(conn, server_side=True) as tls:
                tls.recv(1)
        except (ssl.SSLError, OSError):
            pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        with socket.create_connection(("127.0.0.1", port)) as raw, client_ctx.wrap_socket(
                raw, server_hostname=server_name) as tls:
            version = tls.version()
            tls.send(b"x")
        return version
    finally:
        thread.join(5)
        listener.close()


def test_the_server_certificate_is_trusted_for_the_laptops_names(tmp_path):
    authority = Authority(tmp_path / "tls")
    assert authority.ensure_server_cert(["127.0.0.1", "localhost", "[::1]"])
    assert oct(authority.ca_key.stat().st_mode & 0o777) == "0o600"
    assert oct(authority.cert.stat().st_mode & 0o777) == "0o600"  # holds the key
    assert handshake(authority, "127.0.0.1").startswith("TLSv1.")
    assert handshake(authority, "localhost").startswith("TLSv1.")


def test_a_new_address_gets_a_new_certificate_from_the_same_authority(tmp_path):
    authority = Authority(tmp_path / "tls")
    authority.ensure_server_cert(["localhost"])
    ca = authority.ca_cert.read_bytes()
    assert not authority.ensure_server_cert(["localhost"])  # nothing changed: kept
    try:
        handshake(authority, "127.0.0.1")
        raise AssertionError("an address not in the certificate must fail")
    except ssl.SSLCertVerificationError:
        pass
    assert authority.ensure_server_cert(["localhost", "127.0.0.1"])
    assert authority.ca_cert.read_bytes() == ca
    assert handshake(authority, "127.0.0.1")
    assert len(authority.fingerprint().split(":")) == 32
