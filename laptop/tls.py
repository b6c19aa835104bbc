"""HTTPS on the hall's network: a certificate authority made once on this laptop, and a server
certificate for the laptop's current addresses, issued again when they change.

Phones trust the authority once (the page on the HTTP port, ``laptop.capage``); from then on
the console runs in a secure context, so its service worker can reopen it without network.
The private keys stay in the data folder with mode 600. The authority may sign for this
laptop's names and the hall's private addresses only (``NameConstraints``) and lives for
``CA_DAYS`` days: a copy of its key cannot be used against the phones' other connections, nor
for long; ``serve`` prints how to remove it when it stops.
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

#: The authority lives for an event, not for years: every banker's phone trusts it, so whoever
#: copies ``ca-key.pem`` (a stolen laptop) could otherwise read those phones' traffic long after.
CA_DAYS = 7
RENEW_BEFORE = dt.timedelta(hours=12)  # an authority with less left is made anew at a start
SERVER_DAYS = 397  # phones refuse server certificates valid for longer than 398 days
#: Addresses the authority may certify besides the laptop's own when it was made: the private
#: ranges a hall's router hands out (so a new address from another router keeps the phones'
#: trust) and loopback. Names: only the laptop's own (``NameConstraints``).
PRIVATE_NETWORKS = tuple(ipaddress.ip_network(net) for net in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "127.0.0.0/8",
    "::1/128", "fc00::/7"))
CA_NAME = "Monopoly Championship local CA"


def _split(names) -> tuple[set, set[str]]:
    """(addresses, DNS names) of ``names``; wildcards and empty names are left out."""
    addresses, dns = set(), set()
    for raw in names:
        name = str(raw).strip().strip("[]").lstrip(".").lower()
        if not name or "*" in name:
            continue
        try:
            addresses.add(ipaddress.ip_address(name))
        except ValueError:
            dns.add(name)
    return addresses, dns


def _permits(constraints: x509.NameConstraints, names) -> bool:
    addresses, dns = _split(names)
    subtrees = constraints.permitted_subtrees or []
    networks = [tree.value for tree in subtrees if isinstance(tree, x509.IPAddress)]
    domains = [tree.value.lower() for tree in subtrees if isinstance(tree, x509.DNSName)]
    return all(any(address in net for net in networks) for address in addresses) and all(
        any(name == domain or name.endswith("." + domain) for domain in domains)
        for name in dns)


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
        self.renewed_ca = False

    def current_ca(self) -> x509.Certificate | None:
        if self.ca_cert.is_file() and self.ca_key.is_file():
            return x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        return None

    def ensure_ca(self, names=()) -> x509.Certificate:
        """The authority, made anew when there is none, when it ends within ``RENEW_BEFORE``,
        or when it may not certify one of ``names`` (then phones must trust the new one)."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        cert = self.current_ca()
        if cert is not None and self._usable(cert, names):
            return cert
        return self._make_ca(names)

    def _usable(self, cert: x509.Certificate, names) -> bool:
        if cert.not_valid_after_utc - dt.datetime.now(dt.UTC) < RENEW_BEFORE:
            return False
        if cert.not_valid_after_utc - cert.not_valid_before_utc > dt.timedelta(days=CA_DAYS + 1):
            return False  # made for years (before this version)
        try:
            constraints = cert.extensions.get_extension_for_class(x509.NameConstraints).value
        except x509.ExtensionNotFound:  # made before the constraints: for any name, for years
            return False
        return _permits(constraints, names)

    def _make_ca(self, names) -> x509.Certificate:
        """An authority that may sign only for the laptop's names and addresses (its own and
        the private ranges), for ``CA_DAYS`` days."""
        addresses, dns = _split([*names, "localhost"])
        networks = list(PRIVATE_NETWORKS) + [
            ipaddress.ip_network(address) for address in sorted(addresses, key=str)
            if not any(address in net for net in PRIVATE_NETWORKS)]
        permitted: list[x509.GeneralName] = [x509.DNSName(name) for name in sorted(dns)]
        permitted += [x509.IPAddress(net) for net in networks]
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Monopoly Championship"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"{CA_NAME} ({socket.gethostname()})"),
        ])
        now = dt.datetime.now(dt.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.NameConstraints(permitted_subtrees=permitted,
                                                excluded_subtrees=None), critical=True)
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
        self.cert.unlink(missing_ok=True)  # signed by the old one
        return cert

    def removal_steps(self) -> str:
        """What the organizer does after the event (printed when ``serve`` ends)."""
        cert = self.current_ca()
        until = cert.not_valid_after_utc.strftime("%Y-%m-%d %H:%M UTC") if cert else "-"
        return (
            f"\nAfter the event, remove the certificate “{CA_NAME}” from every phone that "
            "trusted it / Nach dem Turnier das Zertifikat von jedem Handy entfernen:\n"
            "  Android: Settings → Security → Encryption & credentials → User credentials → "
            "the certificate → Remove / Einstellungen → Sicherheit → Verschlüsselung & "
            "Anmeldedaten → Nutzeranmeldedaten → Zertifikat → Entfernen\n"
            "  iPhone: Settings → General → VPN & Device Management → the profile → Remove "
            "Profile / Einstellungen → Allgemein → VPN & Geräteverwaltung → Profil → Profil "
            "entfernen\n"
            f"  It expires by itself on / Es läuft von selbst ab am {until}. To end it on this "
            f"laptop now / Um es auf dem Laptop jetzt zu beenden: delete / löschen {self.folder}"
            " (a new one is made at the next start with HTTPS / beim nächsten Start mit HTTPS "
            "wird ein neues erstellt).\n"
        )

    def ca_der(self) -> bytes:
        cert = x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        return cert.public_bytes(serialization.Encoding.DER)

    def fingerprint(self) -> str:
        cert = x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        digest = cert.fingerprint(hashes.SHA256()).hex().upper()
        return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))

    def names_of_server_cert(self, ca: x509.Certificate | None = None) -> set[str]:
        """The names of the server certificate while it is valid and signed by ``ca``."""
        if not self.cert.is_file():
            return set()
        cert = x509.load_pem_x509_certificate(self.cert.read_bytes())
        if cert.not_valid_after_utc < dt.datetime.now(dt.UTC) + dt.timedelta(hours=1):
            return set()
        if ca is not None:
            try:
                signer = cert.extensions.get_extension_for_class(
                    x509.AuthorityKeyIdentifier).value.key_identifier
            except x509.ExtensionNotFound:
                return set()
            own = x509.SubjectKeyIdentifier.from_public_key(ca.public_key()).digest
            if signer != own:
                return set()
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        return {str(v) for v in san.get_values_for_type(x509.IPAddress)} | set(
            san.get_values_for_type(x509.DNSName))

    def ensure_server_cert(self, names: list[str]) -> bool:
        """A certificate valid for ``names`` (addresses and host names); True when issued.
        ``renewed_ca`` then says whether the authority itself was made anew (phones must
        trust it again)."""
        wanted = {n.strip("[]") for n in names}
        before = self.current_ca()
        ca_cert = self.ensure_ca(sorted(wanted))
        self.renewed_ca = before is None or before.fingerprint(hashes.SHA256()) != \
            ca_cert.fingerprint(hashes.SHA256())
        if wanted <= self.names_of_server_cert(ca_cert):
            return False
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
            # Not a host name: TLS clients would check it against the name constraints.
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                        "Monopoly Championship server")]))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(min(now + dt.timedelta(days=SERVER_DAYS),
                                 ca_cert.not_valid_after_utc))
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
