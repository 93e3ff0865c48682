"""The signed manifest: a detached Sigstore bundle beside ``models.jsonl``, verified offline.

When ``<manifest>.sigstore.json`` lies beside the manifest, the manifest is used only if the bundle
signs exactly its bytes with the pinned key, on behalf of the pinned identity. The checks run in
the contract's order and the first one that fails is the reason the bundle is refused, except that
every missing or malformed field of the bundle is named at once:

1. the bundle is a regular file of UTF-8 JSON holding an object with a message digest, a
   signature and a signing certificate, each in base64;
2. the digest algorithm is SHA2_256 (spelled ``SHA2_256``, ``SHA_256`` or ``SHA256``);
3. the digest is the sha256 of the manifest's bytes;
4. the certificate is DER X.509;
5. the sha256 of its public key (DER SubjectPublicKeyInfo) is the pinned key;
6. one of its subject alternative names (URI or e-mail) is the pinned identity;
7. the signature verifies over the manifest's bytes: ECDSA or RSA PKCS#1 v1.5 with SHA-256,
   or Ed25519.

No bundle, no check: the manifest is used as it is.
"""

from __future__ import annotations

import base64
import binascii
import errno
import hashlib
import json
import os
import re
from typing import Any, Mapping

from ..problems import Problem, json_error_words, one_line, pointer
from ..regular_file import NotRegular, TooLarge, kind_of, read_regular
from ..settings import DEFAULT_IDENTITY, DEFAULT_KEY


BUNDLE_SUFFIX = ".sigstore.json"
DIGEST_ALGORITHMS = ("SHA2_256", "SHA_256", "SHA256")
# Set to a true value, the bundle is not checked (with a warning), as the reference does.
SKIP_VARIABLE = "OPENMED_SKIP_MODEL_VERIFY"
# Values of SKIP_VARIABLE that leave the check on (after stripping white space, ignoring case).
FALSE_VALUES = frozenset({"", "0", "false", "no", "off"})
# A Sigstore bundle is a few kilobytes; a file far larger than that is not one, and is not read
# into memory to find out.
MAX_BUNDLE_BYTES = 1 << 20

# How much of an identity a certificate names is shown, when it is not the pinned one.
IDENTITY_SHOWN = 200

KEY_PIN = re.compile(r"sha256:[0-9a-f]{64}")


def bundle_path(manifest_path: str) -> str:
    """Where the manifest's bundle lies: beside it, named like it plus ``.sigstore.json``."""
    return manifest_path + BUNDLE_SUFFIX


def skip_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``OPENMED_SKIP_MODEL_VERIFY`` asks to skip the check: set and not a false value."""
    value = environ.get(SKIP_VARIABLE)
    return value is not None and value.strip().lower() not in FALSE_VALUES


def pin_problem(identity: Any, key: Any) -> str | None:
    """Why the pins cannot be used (a sentence), or None: the key must be ``sha256:`` and 64
    lower-case hex digits, the identity printable text."""
    if not isinstance(key, str) or not KEY_PIN.fullmatch(key):
        return f"the pinned manifest key {one_line(str(key))} is not sha256: and 64 lower-case hex digits"
    if not isinstance(identity, str) or not identity or not identity.isprintable():
        return f"the pinned manifest identity {one_line(str(identity))} is not a URI or e-mail address"
    return None


def bundle_present(manifest_path: str) -> bool:
    """Whether something named like the manifest's bundle lies beside it."""
    try:
        return _examined(bundle_path(manifest_path)) is not None
    except OSError:
        return True  # there, but it cannot be examined: checking it says why


def _examined(path: str) -> os.stat_result | None:
    """The status of the file at ``path``, links followed; None when there is none: nothing by
    that name, or a link that leads nowhere (or round in a loop), as the reference sees it."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            return None
        raise


def bundle_problems(manifest_path: str, manifest_bytes: bytes, identity: str = DEFAULT_IDENTITY,
                    key: str = DEFAULT_KEY) -> list[Problem]:
    """Why the bundle beside ``manifest_path`` does not vouch for ``manifest_bytes``, the bytes
    read from it: no problem when it does, or when there is no bundle. The bundle is read at most
    once, and only when it is a regular file."""
    path = bundle_path(manifest_path)
    name = one_line(os.path.basename(path))
    data, problem = _read_bundle(path, name)
    if problem is not None:
        return [problem]
    if data is None:
        return []
    return check_bundle(name, data, one_line(os.path.basename(manifest_path)), manifest_bytes, identity, key)


def _read_bundle(path: str, name: str) -> tuple[bytes | None, Problem | None]:
    """The bundle's bytes; (None, None) when there is none. Whatever is not a regular file is
    refused before it is opened (a FIFO would block, a device could be read forever); what is
    opened is checked again, in case it was swapped meanwhile."""
    try:
        found = _examined(path)
    except OSError as error:
        return None, Problem(name, "", f"cannot be examined: {error.strerror or error}")
    if found is None:
        return None, None
    kind = kind_of(found.st_mode)
    if kind:
        return None, Problem(name, "", f"is {kind}, not a signature bundle file; it was not read")
    try:
        # Links followed, as the reference follows them.
        return read_regular(path, MAX_BUNDLE_BYTES, follow_links=True), None
    except NotRegular as error:
        return None, Problem(name, "", f"is {error.kind}, not a signature bundle file; it was not read")
    except TooLarge:
        return None, Problem(name, "", f"is larger than {MAX_BUNDLE_BYTES} bytes, too large for a signature bundle")
    except OSError as error:
        return None, Problem(name, "", f"cannot be read: {error.strerror or error}")


def check_bundle(name: str, data: bytes, manifest_name: str, manifest_bytes: bytes, identity: str = DEFAULT_IDENTITY,
                 key: str = DEFAULT_KEY) -> list[Problem]:
    """Why the bundle ``data`` (the file ``name``) does not vouch for ``manifest_bytes`` (the file
    ``manifest_name``): a pure function of its arguments; no problem when it does."""
    refused = pin_problem(identity, key)
    if refused:
        raise ValueError(refused)
    document, problem = _parse(name, data)
    if problem is not None:
        return [problem]
    fields, problems = _fields(name, document)
    if problems:
        return problems
    algorithm, digest, signature, certificate_der, certificate_at = fields

    if not isinstance(algorithm, str) or algorithm not in DIGEST_ALGORITHMS:
        return [Problem(name, "/messageSignature/messageDigest/algorithm",
                        f"is {_shown(algorithm)}, not one of {', '.join(DIGEST_ALGORITHMS)}")]
    actual = hashlib.sha256(manifest_bytes).digest()
    if digest != actual:
        return [Problem(name, "/messageSignature/messageDigest/digest",
                        f"is not the sha256 of {manifest_name} (sha256:{actual.hex()}): the manifest is not the file that was signed")]

    # cryptography is imported only when there is a bundle to verify: most builds have none.
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

    try:
        certificate = x509.load_der_x509_certificate(certificate_der)
    except ValueError:
        return [Problem(name, certificate_at, "is not a DER X.509 certificate")]
    try:
        public_key = certificate.public_key()
        key_der = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    except (ValueError, UnsupportedAlgorithm):
        return [Problem(name, certificate_at, "holds a certificate whose public key cannot be read")]
    signed_by = "sha256:" + hashlib.sha256(key_der).hexdigest()
    if signed_by != key:
        return [Problem(name, "", f"is not signed by the pinned key {key}: its certificate's key is {signed_by}")]

    try:
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return [Problem(name, "", f"is not signed by the pinned identity {identity}: its certificate names no identity")]
    except (ValueError, x509.DuplicateExtension, x509.UnsupportedGeneralNameType):
        return [Problem(name, certificate_at, "holds a certificate whose extensions cannot be read")]
    identities = sorted(set(names.get_values_for_type(x509.UniformResourceIdentifier))
                        | set(names.get_values_for_type(x509.RFC822Name)))
    if identity not in identities:
        shown = ", ".join(_shown(each, IDENTITY_SHOWN) for each in identities[:3]) + (", ..." if len(identities) > 3 else "")
        return [Problem(name, "", f"is not signed by the pinned identity {identity}: its certificate names "
                                  + (shown or "no URI or e-mail address"))]

    try:
        if isinstance(public_key, ec.EllipticCurvePublicKey):
            public_key.verify(signature, manifest_bytes, ec.ECDSA(hashes.SHA256()))
        elif isinstance(public_key, rsa.RSAPublicKey):
            public_key.verify(signature, manifest_bytes, padding.PKCS1v15(), hashes.SHA256())
        elif isinstance(public_key, ed25519.Ed25519PublicKey):
            public_key.verify(signature, manifest_bytes)
        else:
            return [Problem(name, "", "is signed with a key that is not ECDSA, RSA or Ed25519")]
    except (InvalidSignature, ValueError):
        return [Problem(name, "/messageSignature/signature", f"does not verify over the bytes of {manifest_name}")]
    return []


def _parse(name: str, data: bytes) -> tuple[Any, Problem | None]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, Problem(name, "", f"is not UTF-8 text (byte {error.start})")
    try:
        return json.loads(text), None
    except json.JSONDecodeError as error:
        return None, Problem(name, "", f"is not valid JSON: {json_error_words(error)}")
    except RecursionError:
        return None, Problem(name, "", "is not usable JSON: nested too deeply")
    except ValueError as error:
        return None, Problem(name, "", f"is not usable JSON: {one_line(str(error))}")


def _fields(name: str, document: Any) -> tuple[tuple[Any, bytes, bytes, bytes, str], list[Problem]]:
    """The digest algorithm, the digest, the signature, the certificate's DER bytes and where the
    certificate was found; or every field that is missing or malformed."""
    if not isinstance(document, dict):
        return (None, b"", b"", b"", ""), [Problem(name, "", f"must hold a JSON object (a Sigstore bundle), found {_kind(document)}")]
    problems: list[Problem] = []

    def member(parent: Any, *path: str | int) -> Any:
        """The object at ``path`` (``parent`` is the value at its parent path), or None with the
        problem noted."""
        last = path[-1]
        if isinstance(parent, list):
            found, value = last < len(parent), parent[last] if last < len(parent) else None
        else:
            found, value = last in parent, parent.get(last)
        if not found:
            problems.append(Problem(name, pointer(*path), "is missing"))
        elif not isinstance(value, dict):
            problems.append(Problem(name, pointer(*path), f"must be a JSON object, found {_kind(value)}"))
            return None
        return value

    def decoded(parent: dict[str, Any] | None, *path: str | int) -> bytes:
        if parent is None:
            return b""
        value = parent.get(path[-1])
        if path[-1] not in parent:
            problems.append(Problem(name, pointer(*path), "is missing"))
        elif not isinstance(value, str):
            problems.append(Problem(name, pointer(*path), f"must be a base64 string, found {_kind(value)}"))
        else:
            try:
                return base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                problems.append(Problem(name, pointer(*path), "is not valid base64"))
        return b""

    message = member(document, "messageSignature")
    digest_info = member(message, "messageSignature", "messageDigest") if message is not None else None
    if digest_info is not None and "algorithm" not in digest_info:
        problems.append(Problem(name, "/messageSignature/messageDigest/algorithm", "is missing"))
    algorithm = digest_info.get("algorithm") if digest_info is not None else None
    digest = decoded(digest_info, "messageSignature", "messageDigest", "digest")
    signature = decoded(message, "messageSignature", "signature")

    material = member(document, "verificationMaterial")
    certificate_der, certificate_at = b"", ""
    if material is not None:
        if material.get("certificate") is not None:
            certificate = member(material, "verificationMaterial", "certificate")
            certificate_at = "/verificationMaterial/certificate/rawBytes"
            certificate_der = decoded(certificate, "verificationMaterial", "certificate", "rawBytes")
        elif material.get("x509CertificateChain") is None:
            problems.append(Problem(name, "/verificationMaterial",
                                    "holds no signing certificate: neither certificate nor x509CertificateChain"))
        else:
            chain = member(material, "verificationMaterial", "x509CertificateChain")
            certificates = chain.get("certificates") if chain is not None else None
            where = "/verificationMaterial/x509CertificateChain/certificates"
            if chain is None:
                pass
            elif not isinstance(certificates, list) or not certificates:
                problems.append(Problem(name, where, f"must be a non-empty array, found {_kind(certificates)}"))
            else:
                first = member(certificates, "verificationMaterial", "x509CertificateChain", "certificates", 0)
                certificate_at = where + "/0/rawBytes"
                certificate_der = decoded(first, "verificationMaterial", "x509CertificateChain", "certificates", 0, "rawBytes")
    return (algorithm, digest, signature, certificate_der, certificate_at), problems


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an empty array" if not value else "an array"
    return "an object"


def _shown(value: Any, limit: int = 60) -> str:
    """A value of the bundle as JSON text on one line, cut short when longer than ``limit``."""
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, (dict, list)) else _kind(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
