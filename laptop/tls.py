"""HTTPS on the hall's network: a certificate authority made once on this laptop, and a server
certificate for the laptop's current addresses, issued again when they change.

Phones trust the authority once (the page on the HTTP port, ``laptop.capage``); from then on
the console runs in a secure context, so its service worker can reopen it without network.
The private keys stay in the data folder with mode 600.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 5 * 365
SERVER_DAYS = 397  # phones refuse server certificates valid for longer than 398 days


def _write(path: Path, data: bytes, *, private: bool) -> None:
    partial = path.with_name(f".{path.name}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(partial, path)


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


class Authority:
    """The files of the local CA and the server certificate in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ca_cert = folder / "ca.pem"
        self.ca_key = folder / "ca-key.pem"
        # Key and certificate in one file, replaced at once: gunicorn reads it for every new
        # connection, so a re-issued certificate is live without a restart.
        self.cert = folder / "server.pem"

    def ensure_ca(self) -> x509.Certificate:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if self.ca_cert.is_file() and self.ca_key.is_file():
            return x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Monopoly Championship"),
            x509.NameAttribute(NameOID.COMMON_NAME,
                               f"Monopoly Championship local CA ({socket.gethostname()})"),
        ])
        now = dt.datetime.now(dt.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=True, key_cert_sign=True, crl_sign=True,
                content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .sign(key, hashes.SHA256())
        )
        _write(self.ca_key, _key_pem(key), private=True)
        _write(self.ca_cert, cert.public_bytes(serialization.Encoding.PEM), private=False)
        return cert

    def ca_der(self) -> bytes:
        cert = x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        return cert.public_bytes(serialization.Encoding.DER)

    def fingerprint(self) -> str:
        cert = x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        digest = cert.fingerprint(hashes.SHA256()).hex().upper()
        return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))

    def names_of_server_cert(self) -> set[str]:
        if not self.cert.is_file():
            return set()
        cert = x509.load_pem_x509_certificate(self.cert.read_bytes())
        if cert.not_valid_after_utc < dt.datetime.now(dt.UTC) + dt.timedelta(days=7):
            return set()
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        return {str(v) for v in san.get_values_for_type(x509.IPAddress)} | set(
            san.get_values_for_type(x509.DNSName))

    def ensure_server_cert(self, names: list[str]) -> bool:
        """A certificate valid for ``names`` (addresses and host names); True when issued."""
        wanted = {n.strip("[]") for n in names}
        if wanted <= self.names_of_server_cert():
            return False
        ca_cert = self.ensure_ca()
        ca_key = serialization.load_pem_private_key(self.ca_key.read_bytes(), password=None)
        key = ec.generate_private_key(ec.SECP256R1())
        alt: list[x509.GeneralName] = []
        for name in sorted(wanted):
            try:
                alt.append(x509.IPAddress(ipaddress.ip_address(name)))
            except ValueError:
                alt.append(x509.DNSName(name))
        now = dt.datetime.now(dt.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                        socket.gethostname() or "laptop")]))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        _write(self.cert, _key_pem(key) + cert.public_bytes(serialization.Encoding.PEM),
               private=True)
        return True
