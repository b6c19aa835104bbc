"""The laptop's certificate authority and its server certificate, checked by a real TLS
handshake (Python's ssl, as a phone that trusts the authority would)."""

from __future__ import annotations

import socket
import ssl
import threading

import pytest

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


# --------------------------------------------------------------------- issue 26 (5)


def _rogue(authority: Authority, name: str) -> None:
    """What a copy of the authority's key would be used for: a certificate for another name."""
    import datetime as dt
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    ca = x509.load_pem_x509_certificate(authority.ca_cert.read_bytes())
    ca_key = serialization.load_pem_private_key(authority.ca_key.read_bytes(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    try:
        alt = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        alt = x509.DNSName(name)
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "rogue")]))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([alt]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    authority.cert.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                          serialization.NoEncryption())
        + cert.public_bytes(serialization.Encoding.PEM))


def test_the_authority_signs_only_for_the_laptop_and_lives_days(tmp_path):
    """Issue 26 (5): it could sign any name for five years; a stolen laptop's key could then
    intercept every banker phone's TLS. Now the phones refuse anything else it signs."""
    import datetime as dt

    from cryptography import x509

    from laptop import tls

    authority = Authority(tmp_path / "tls")
    authority.ensure_server_cert(["192.168.1.20", "127.0.0.1", "localhost", "mylaptop",
                                  "mylaptop.local"])
    ca = x509.load_pem_x509_certificate(authority.ca_cert.read_bytes())
    lifetime = ca.not_valid_after_utc - ca.not_valid_before_utc
    assert lifetime <= dt.timedelta(days=tls.CA_DAYS, hours=1) <= dt.timedelta(days=8)
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    assert handshake(authority, "127.0.0.1").startswith("TLSv1.")
    assert handshake(authority, "localhost").startswith("TLSv1.")
    for stranger in ("bank.example", "mylaptop.evil.example", "8.8.8.8"):
        _rogue(authority, stranger)
        with pytest.raises(ssl.SSLCertVerificationError):
            handshake(authority, stranger)
    _rogue(authority, "mylaptop.local")  # its own names still work
    assert handshake(authority, "mylaptop.local").startswith("TLSv1.")


def test_an_old_unconstrained_authority_and_a_name_it_may_not_sign_make_a_new_one(tmp_path):
    import datetime as dt

    from cryptography import x509

    from laptop import tls

    authority = Authority(tmp_path / "tls")
    original = tls.CA_DAYS
    tls.CA_DAYS = 5 * 365
    authority.folder.mkdir()
    try:  # as made before: for five years
        authority._make_ca(["localhost"])
    finally:
        tls.CA_DAYS = original
    old = authority.fingerprint()
    with authority.ca_cert.open("rb") as handle:
        assert x509.load_pem_x509_certificate(handle.read()).not_valid_after_utc > (
            dt.datetime.now(dt.UTC) + dt.timedelta(days=1000))
    authority.ensure_server_cert(["localhost", "127.0.0.1"])
    assert authority.renewed_ca and authority.fingerprint() != old
    kept = authority.fingerprint()
    assert authority.ensure_server_cert(["localhost", "127.0.0.1", "10.1.2.3"])
    assert not authority.renewed_ca and authority.fingerprint() == kept  # a private address
    assert authority.ensure_server_cert(["localhost", "203.0.113.77"])  # a public one: new
    assert authority.renewed_ca and authority.fingerprint() != kept
    assert handshake(authority, "203.0.113.77").startswith("TLSv1.")


def test_the_removal_steps_name_both_phones_and_the_end(tmp_path):
    authority = Authority(tmp_path / "tls")
    authority.ensure_server_cert(["localhost"])
    steps = authority.removal_steps()
    assert "Android" in steps and "iPhone" in steps and "entfernen" in steps
    assert str(authority.folder) in steps and " UTC" in steps
