"""The signed manifest: a Sigstore bundle beside models.jsonl vouches for its bytes, or the build
is refused with one line naming the bundle and the reason.

Every key pair and certificate is made here, with ``cryptography``; the pins are those of the test
key, except in the differential test, which keeps the reference's own pins.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa
from cryptography.x509.oid import NameOID

from conftest import ROOT
from differential_support import valid_archive

from benchmark_leaderboard.problems import Problem
from benchmark_leaderboard.read import signature
from benchmark_leaderboard.read.manifest import ManifestError, read_manifest
from benchmark_leaderboard.read.signature import MAX_BUNDLE_BYTES, bundle_problems, check_bundle, skip_requested
from benchmark_leaderboard.settings import DEFAULT_IDENTITY, DEFAULT_KEY

IDENTITY = "https://github.com/example/leaderboard/.github/workflows/manifest-refresh.yml@refs/heads/main"
EMAIL = "manifest-bot@example.org"
MANIFEST = b'{"repo_id": "OpenMed/model-a", "family": "PII", "reproducibility_hash": "sha256:' + b"ab" * 32 + b'"}\n'
BUNDLE = "models.jsonl.sigstore.json"
NO_SKIP: dict[str, str] = {}


# --- Keys, certificates, bundles ------------------------------------------------------------

def new_key(kind: str):
    if kind == "ed25519":
        return ed25519.Ed25519PrivateKey.generate()
    if kind == "p256":
        return ec.generate_private_key(ec.SECP256R1())
    if kind == "p384":
        return ec.generate_private_key(ec.SECP384R1())
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


KEYS = {kind: new_key(kind) for kind in ("ed25519", "p256", "p384", "rsa")}
OTHER_KEY = ed25519.Ed25519PrivateKey.generate()


def pin(private_key) -> str:
    """The key pin: sha256 of the public key's DER SubjectPublicKeyInfo."""
    der = private_key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return "sha256:" + hashlib.sha256(der).hexdigest()


def certificate(private_key, names: list[x509.GeneralName] | None = None) -> bytes:
    """A self-signed DER certificate of ``private_key`` with these subject alternative names
    (none: no such extension). Its dates are fixed: nothing here reads the clock."""
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "manifest signer")])
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
               .public_key(private_key.public_key()).serial_number(7)
               .not_valid_before(datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc))
               .not_valid_after(datetime.datetime(2027, 1, 1, tzinfo=datetime.timezone.utc)))
    if names is not None:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    algorithm = None if isinstance(private_key, (ed25519.Ed25519PrivateKey, ed448.Ed448PrivateKey)) else hashes.SHA256()
    return builder.sign(private_key, algorithm).public_bytes(serialization.Encoding.DER)


def sign(private_key, data: bytes) -> bytes:
    if isinstance(private_key, ec.EllipticCurvePrivateKey):
        return private_key.sign(data, ec.ECDSA(hashes.SHA256()))
    if isinstance(private_key, rsa.RSAPrivateKey):
        return private_key.sign(data, padding.PKCS1v15(), hashes.SHA256())
    return private_key.sign(data)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def bundle(manifest: bytes, private_key, der: bytes | None = None, chain: bool = False,
           algorithm: str = "SHA2_256", identity: str = IDENTITY) -> dict[str, Any]:
    """A detached Sigstore bundle signing ``manifest`` with ``private_key``."""
    der = der if der is not None else certificate(private_key, [x509.UniformResourceIdentifier(identity)])
    material = ({"x509CertificateChain": {"certificates": [{"rawBytes": b64(der)}, {"rawBytes": "ignored"}]}} if chain
                else {"certificate": {"rawBytes": b64(der)}})
    return {
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": material,
        "messageSignature": {
            "messageDigest": {"algorithm": algorithm, "digest": b64(hashlib.sha256(manifest).digest())},
            "signature": b64(sign(private_key, manifest)),
        },
    }


def write(folder: Path, manifest: bytes | None, document: Any = None, raw: bytes | None = None) -> Path:
    """models.jsonl and, when given, its bundle (a JSON value, or raw bytes) below ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "models.jsonl"
    if manifest is not None:
        path.write_bytes(manifest)
    if raw is not None:
        (folder / BUNDLE).write_bytes(raw)
    elif document is not None:
        (folder / BUNDLE).write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def lines(path: Path, key: str = pin(KEYS["ed25519"]), identity: str = IDENTITY) -> list[str]:
    """The problem lines ``read_manifest`` gives for the manifest at ``path``."""
    rows, problems = read_manifest(str(path), identity=identity, key=key, environ=NO_SKIP)
    assert not rows or not problems
    return [str(problem) for problem in problems]


ROWS = {"OpenMed/model-a": {"repo_id": "OpenMed/model-a", "family": "PII", "reproducibility_hash": "sha256:" + "ab" * 32}}


# --- Accepted ---------------------------------------------------------------------------------

@pytest.mark.parametrize("chain", [False, True], ids=["certificate", "x509CertificateChain"])
@pytest.mark.parametrize("kind", sorted(KEYS))
def test_a_bundle_signed_by_the_pinned_key_and_identity_is_accepted(kind: str, chain: bool, tmp_path: Path):
    private_key = KEYS[kind]
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, private_key, chain=chain))
    assert read_manifest(str(path), identity=IDENTITY, key=pin(private_key), environ=NO_SKIP) == (ROWS, [])


@pytest.mark.parametrize("algorithm", ["SHA2_256", "SHA_256", "SHA256"])
def test_each_spelling_of_sha256_is_accepted(algorithm: str, tmp_path: Path):
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"], algorithm=algorithm))
    assert lines(path) == []


def test_an_email_identity_is_accepted(tmp_path: Path):
    der = certificate(KEYS["p256"], [x509.DNSName("example.org"), x509.RFC822Name(EMAIL)])
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["p256"], der))
    assert lines(path, key=pin(KEYS["p256"]), identity=EMAIL) == []


def test_a_certificate_with_several_identities_is_accepted_for_any_of_them(tmp_path: Path):
    der = certificate(KEYS["ed25519"], [x509.UniformResourceIdentifier("https://example.org/other"),
                                        x509.UniformResourceIdentifier(IDENTITY), x509.RFC822Name(EMAIL)])
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"], der))
    assert lines(path) == [] and lines(path, identity=EMAIL) == []


def test_the_manifest_crlf_bytes_are_what_is_signed(tmp_path: Path):
    manifest = MANIFEST.replace(b"\n", b"\r\n") + b"\r\n  \r\n"
    path = write(tmp_path, manifest, bundle(manifest, KEYS["ed25519"]))
    assert read_manifest(str(path), identity=IDENTITY, key=pin(KEYS["ed25519"]), environ=NO_SKIP) == (ROWS, [])


# --- Refused: the exact line of each reason -------------------------------------------------

def test_bundle_not_json(tmp_path: Path):
    assert lines(write(tmp_path, MANIFEST, raw=b"{not json")) == [
        f"{BUNDLE}: is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"]


def test_bundle_not_utf8(tmp_path: Path):
    assert lines(write(tmp_path, MANIFEST, raw=b'{"a": "\xff"}')) == [f"{BUNDLE}: is not UTF-8 text (byte 7)"]


def test_bundle_with_a_byte_order_mark_is_not_json(tmp_path: Path):
    raw = b"\xef\xbb\xbf" + json.dumps(bundle(MANIFEST, KEYS["ed25519"])).encode()
    assert lines(write(tmp_path, MANIFEST, raw=raw)) == [
        f"{BUNDLE}: is not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at line 1 column 1"]


@pytest.mark.parametrize("document, kind", [([], "an empty array"), ([1], "an array"), ("bundle", "a string"),
                                            (None, "null"), (3, "a number"), (True, "a boolean")])
def test_bundle_not_an_object(document: Any, kind: str, tmp_path: Path):
    assert lines(write(tmp_path, MANIFEST, raw=json.dumps(document).encode())) == [
        f"{BUNDLE}: must hold a JSON object (a Sigstore bundle), found {kind}"]


def test_bundle_without_any_field(tmp_path: Path):
    assert lines(write(tmp_path, MANIFEST, {})) == [
        f"{BUNDLE}: /messageSignature: is missing",
        f"{BUNDLE}: /verificationMaterial: is missing",
    ]


def test_every_missing_field_is_named(tmp_path: Path):
    assert lines(write(tmp_path, MANIFEST, {"messageSignature": {"messageDigest": {}}, "verificationMaterial": {}})) == [
        f"{BUNDLE}: /messageSignature/messageDigest/algorithm: is missing",
        f"{BUNDLE}: /messageSignature/messageDigest/digest: is missing",
        f"{BUNDLE}: /messageSignature/signature: is missing",
        f"{BUNDLE}: /verificationMaterial: holds no signing certificate: neither certificate nor x509CertificateChain",
    ]


def test_fields_of_the_wrong_type(tmp_path: Path):
    document = {"messageSignature": {"messageDigest": None, "signature": 5},
                "verificationMaterial": {"certificate": {"rawBytes": ["x"]}}}
    assert lines(write(tmp_path, MANIFEST, document)) == [
        f"{BUNDLE}: /messageSignature/messageDigest: must be a JSON object, found null",
        f"{BUNDLE}: /messageSignature/signature: must be a base64 string, found a number",
        f"{BUNDLE}: /verificationMaterial/certificate/rawBytes: must be a base64 string, found an array",
    ]


@pytest.mark.parametrize("certificates, line", [
    ([], "/verificationMaterial/x509CertificateChain/certificates: must be a non-empty array, found an empty array"),
    ({"0": {}}, "/verificationMaterial/x509CertificateChain/certificates: must be a non-empty array, found an object"),
    (["MIIB"], "/verificationMaterial/x509CertificateChain/certificates/0: must be a JSON object, found a string"),
    ([{}], "/verificationMaterial/x509CertificateChain/certificates/0/rawBytes: is missing"),
])
def test_a_malformed_certificate_chain(certificates: Any, line: str, tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"])
    document["verificationMaterial"] = {"x509CertificateChain": {"certificates": certificates}}
    assert lines(write(tmp_path, MANIFEST, document)) == [f"{BUNDLE}: {line}"]


def test_a_null_certificate_falls_back_to_the_chain(tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"], chain=True)
    document["verificationMaterial"]["certificate"] = None
    assert lines(write(tmp_path, MANIFEST, document)) == []


@pytest.mark.parametrize("value", ["not base64!", "AB=", "AB==\n", " AB==", "q80-_w==", "é"])
def test_bad_base64(value: str, tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"])
    document["messageSignature"]["messageDigest"]["digest"] = value
    assert lines(write(tmp_path, MANIFEST, document)) == [f"{BUNDLE}: /messageSignature/messageDigest/digest: is not valid base64"]


def test_a_malformed_field_is_named_before_the_algorithm_is_looked_at(tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"], algorithm="MD5")
    document["messageSignature"]["signature"] = "%%%"
    assert lines(write(tmp_path, MANIFEST, document)) == [f"{BUNDLE}: /messageSignature/signature: is not valid base64"]


@pytest.mark.parametrize("algorithm, shown", [("MD5", '"MD5"'), ("sha2_256", '"sha2_256"'), (None, "null"), (256, "256"),
                                              (["SHA2_256"], "an array"), ("SHA2_256\n" + "x" * 80, '"SHA2_256\\n' + "x" * 46 + "...")])
def test_unknown_digest_algorithm(algorithm: Any, shown: str, tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"])
    document["messageSignature"]["messageDigest"]["algorithm"] = algorithm
    assert lines(write(tmp_path, MANIFEST, document)) == [
        f"{BUNDLE}: /messageSignature/messageDigest/algorithm: is {shown}, not one of SHA2_256, SHA_256, SHA256"]


def test_the_manifest_edited_by_one_byte_no_longer_matches_the_digest(tmp_path: Path):
    edited = MANIFEST.replace(b'"PII"', b'"PIJ"')
    assert len(edited) == len(MANIFEST) and sum(a != b for a, b in zip(edited, MANIFEST)) == 1
    path = write(tmp_path, edited, bundle(MANIFEST, KEYS["ed25519"]))
    assert lines(path) == [
        f"{BUNDLE}: /messageSignature/messageDigest/digest: is not the sha256 of models.jsonl "
        f"(sha256:{hashlib.sha256(edited).hexdigest()}): the manifest is not the file that was signed"]


def test_a_certificate_that_does_not_parse(tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"], der=b"not a certificate")
    assert lines(write(tmp_path, MANIFEST, document)) == [
        f"{BUNDLE}: /verificationMaterial/certificate/rawBytes: is not a DER X.509 certificate"]
    document = bundle(MANIFEST, KEYS["ed25519"], der=b"", chain=True)
    assert lines(write(tmp_path, MANIFEST, document)) == [
        f"{BUNDLE}: /verificationMaterial/x509CertificateChain/certificates/0/rawBytes: is not a DER X.509 certificate"]


@pytest.mark.parametrize("kind", sorted(KEYS))
def test_a_key_other_than_the_pinned_one(kind: str, tmp_path: Path):
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS[kind]))
    assert lines(path, key=pin(OTHER_KEY)) == [
        f"{BUNDLE}: is not signed by the pinned key {pin(OTHER_KEY)}: its certificate's key is {pin(KEYS[kind])}"]


def test_the_reference_pins_refuse_a_bundle_made_here(tmp_path: Path):
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["p256"], identity=DEFAULT_IDENTITY))
    assert read_manifest(str(path), environ=NO_SKIP) == ({}, [Problem(
        BUNDLE, "", f"is not signed by the pinned key {DEFAULT_KEY}: its certificate's key is {pin(KEYS['p256'])}")])


def test_another_identity(tmp_path: Path):
    der = certificate(KEYS["ed25519"], [x509.UniformResourceIdentifier(IDENTITY + "x"), x509.RFC822Name(EMAIL),
                                        x509.DNSName("example.org")])
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"], der))
    assert lines(path) == [
        f'{BUNDLE}: is not signed by the pinned identity {IDENTITY}: its certificate names "{IDENTITY}x", "{EMAIL}"']


def test_a_certificate_that_names_only_a_dns_name(tmp_path: Path):
    der = certificate(KEYS["ed25519"], [x509.DNSName("example.org")])
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"], der))
    assert lines(path) == [
        f"{BUNDLE}: is not signed by the pinned identity {IDENTITY}: its certificate names no URI or e-mail address"]


def test_a_certificate_without_subject_alternative_names(tmp_path: Path):
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"], certificate(KEYS["ed25519"], None)))
    assert lines(path) == [f"{BUNDLE}: is not signed by the pinned identity {IDENTITY}: its certificate names no identity"]


def test_the_key_is_checked_before_the_identity(tmp_path: Path):
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"], certificate(KEYS["ed25519"], None)))
    assert lines(path, key=pin(OTHER_KEY)) == [
        f"{BUNDLE}: is not signed by the pinned key {pin(OTHER_KEY)}: its certificate's key is {pin(KEYS['ed25519'])}"]


@pytest.mark.parametrize("kind", sorted(KEYS))
def test_a_bad_signature(kind: str, tmp_path: Path):
    document = bundle(MANIFEST, KEYS[kind])
    document["messageSignature"]["signature"] = b64(sign(KEYS[kind], MANIFEST + b"\n"))
    assert lines(write(tmp_path, MANIFEST, document), key=pin(KEYS[kind])) == [
        f"{BUNDLE}: /messageSignature/signature: does not verify over the bytes of models.jsonl"]


def test_a_signature_by_another_key_than_the_certificate(tmp_path: Path):
    document = bundle(MANIFEST, KEYS["ed25519"])
    document["messageSignature"]["signature"] = b64(sign(OTHER_KEY, MANIFEST))
    assert lines(write(tmp_path, MANIFEST, document)) == [
        f"{BUNDLE}: /messageSignature/signature: does not verify over the bytes of models.jsonl"]


def test_an_empty_signature(tmp_path: Path):
    document = bundle(MANIFEST, KEYS["rsa"])
    document["messageSignature"]["signature"] = ""
    assert lines(write(tmp_path, MANIFEST, document), key=pin(KEYS["rsa"])) == [
        f"{BUNDLE}: /messageSignature/signature: does not verify over the bytes of models.jsonl"]


def test_a_pinned_key_of_another_kind_is_refused(tmp_path: Path):
    private_key = ed448.Ed448PrivateKey.generate()
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, private_key))
    assert lines(path, key=pin(private_key)) == [f"{BUNDLE}: is signed with a key that is not ECDSA, RSA or Ed25519"]


def test_a_huge_bundle_is_one_line_and_not_read_whole(tmp_path: Path):
    path = write(tmp_path, MANIFEST, raw=b" " * (MAX_BUNDLE_BYTES + 1))
    assert lines(path) == [f"{BUNDLE}: is larger than {MAX_BUNDLE_BYTES} bytes, too large for a signature bundle"]


def test_a_deeply_nested_bundle_is_one_line(tmp_path: Path):
    path = write(tmp_path, MANIFEST, raw=b"[" * 200_000 + b"]" * 200_000)
    assert lines(path) == [f"{BUNDLE}: is not usable JSON: nested too deeply"]


# --- What the bundle is, on disk --------------------------------------------------------------

@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """Every path ``os.open`` or ``open`` is called with, in order."""
    import builtins

    calls: list[str] = []

    def recording(real):
        def call(path, *args, **kwargs):
            calls.append(os.fspath(path) if isinstance(path, (str, bytes, os.PathLike)) else repr(path))
            return real(path, *args, **kwargs)
        return call

    monkeypatch.setattr(os, "open", recording(os.open))
    monkeypatch.setattr(builtins, "open", recording(builtins.open))
    return calls


def test_the_manifest_and_the_bundle_are_each_read_once(tmp_path: Path, opened: list[str]):
    path = write(tmp_path, MANIFEST, bundle(MANIFEST, KEYS["ed25519"]))
    assert lines(path) == []
    assert opened.count(str(path)) == 1 and opened.count(str(path) + ".sigstore.json") == 1


def test_a_fifo_named_like_the_bundle_is_refused_without_being_opened(tmp_path: Path, opened: list[str]):
    path = write(tmp_path, MANIFEST)
    os.mkfifo(tmp_path / BUNDLE)
    assert lines(path) == [f"{BUNDLE}: is a FIFO, not a signature bundle file; it was not read"]
    assert str(tmp_path / BUNDLE) not in opened


def test_a_folder_named_like_the_bundle_is_refused(tmp_path: Path):
    path = write(tmp_path, MANIFEST)
    (tmp_path / BUNDLE).mkdir()
    assert lines(path) == [f"{BUNDLE}: is a folder, not a signature bundle file; it was not read"]


def test_a_link_to_a_bundle_is_followed(tmp_path: Path):
    path = write(tmp_path, MANIFEST)
    (tmp_path / "elsewhere.json").write_text(json.dumps(bundle(MANIFEST, KEYS["ed25519"])), encoding="utf-8")
    os.symlink(tmp_path / "elsewhere.json", tmp_path / BUNDLE)
    assert lines(path) == []
    (tmp_path / "elsewhere.json").write_bytes(b"[]")
    assert lines(path) == [f"{BUNDLE}: must hold a JSON object (a Sigstore bundle), found an empty array"]


def test_a_link_that_leads_nowhere_is_no_bundle(tmp_path: Path):
    path = write(tmp_path, MANIFEST)
    os.symlink(tmp_path / "missing.json", tmp_path / BUNDLE)
    assert read_manifest(str(path), identity=IDENTITY, key=pin(KEYS["ed25519"]), environ=NO_SKIP) == (ROWS, [])
    os.unlink(tmp_path / BUNDLE)
    os.symlink(BUNDLE, tmp_path / BUNDLE)  # a link to itself
    assert read_manifest(str(path), identity=IDENTITY, key=pin(KEYS["ed25519"]), environ=NO_SKIP) == (ROWS, [])


def test_the_bundle_is_named_after_the_manifest_and_printed_on_one_line(tmp_path: Path):
    path = tmp_path / "my\nmodels.jsonl"
    path.write_bytes(MANIFEST)
    Path(str(path) + ".sigstore.json").write_bytes(b"{}")
    (tmp_path / BUNDLE).write_text(json.dumps(bundle(MANIFEST, KEYS["ed25519"])), encoding="utf-8")  # not its bundle
    assert lines(path) == ["my\\nmodels.jsonl.sigstore.json: /messageSignature: is missing",
                           "my\\nmodels.jsonl.sigstore.json: /verificationMaterial: is missing"]


# --- When there is nothing to check -----------------------------------------------------------

def test_no_bundle_means_no_check(tmp_path: Path):
    path = write(tmp_path, MANIFEST)
    assert read_manifest(str(path), environ=NO_SKIP) == (ROWS, [])
    assert bundle_problems(str(path), MANIFEST) == []


def test_no_manifest_means_no_check(tmp_path: Path):
    path = write(tmp_path, None, raw=b"{not json")
    assert read_manifest(str(path), environ=NO_SKIP) == ({}, [])


def test_a_fifo_as_the_manifest_stops_the_build_without_being_opened(tmp_path: Path, opened: list[str]):
    os.mkfifo(tmp_path / "models.jsonl")
    with pytest.raises(ManifestError) as raised:
        read_manifest(str(tmp_path / "models.jsonl"), environ=NO_SKIP)
    assert str(raised.value) == f"the manifest {tmp_path / 'models.jsonl'} is not a regular file"
    assert str(tmp_path / "models.jsonl") not in opened


def test_a_refused_bundle_keeps_every_row_of_the_manifest_unused(tmp_path: Path):
    manifest = MANIFEST + b"{not json\n"
    path = write(tmp_path, manifest, bundle(MANIFEST, KEYS["ed25519"]))
    rows, problems = read_manifest(str(path), identity=IDENTITY, key=pin(KEYS["ed25519"]), environ=NO_SKIP)
    assert rows == {} and [str(problem) for problem in problems] == [
        f"{BUNDLE}: /messageSignature/messageDigest/digest: is not the sha256 of models.jsonl "
        f"(sha256:{hashlib.sha256(manifest).hexdigest()}): the manifest is not the file that was signed"]


def test_a_signed_manifest_still_has_its_line_problems(tmp_path: Path):
    manifest = MANIFEST + b"[1]\n"
    path = write(tmp_path, manifest, bundle(manifest, KEYS["ed25519"]))
    assert read_manifest(str(path), identity=IDENTITY, key=pin(KEYS["ed25519"]), environ=NO_SKIP) == (
        ROWS, [Problem("models.jsonl line 2", "", "must be a JSON object")])


# --- The skip variable ------------------------------------------------------------------------

SKIP_WARNING = ("warning: OPENMED_SKIP_MODEL_VERIFY is set: models.jsonl is used without checking its signature "
                "bundle models.jsonl.sigstore.json\n")


@pytest.mark.parametrize("value", ["1", "true", "TRUE", " yes ", "on", "2", "skip"])
def test_the_skip_variable_skips_the_check_with_one_warning(value: str, tmp_path: Path, capsys):
    path = write(tmp_path, MANIFEST, raw=b"{not json")
    assert read_manifest(str(path), environ={"OPENMED_SKIP_MODEL_VERIFY": value}) == (ROWS, [])
    assert capsys.readouterr() == ("", SKIP_WARNING)


@pytest.mark.parametrize("value", ["", "0", "false", "False", " no ", "OFF"])
def test_a_false_skip_variable_checks(value: str, tmp_path: Path, capsys):
    path = write(tmp_path, MANIFEST, raw=b"{not json")
    rows, problems = read_manifest(str(path), environ={"OPENMED_SKIP_MODEL_VERIFY": value})
    assert rows == {} and len(problems) == 1 and problems[0].file == BUNDLE
    assert capsys.readouterr() == ("", "")


def test_the_skip_variable_without_a_bundle_says_nothing(tmp_path: Path, capsys):
    path = write(tmp_path, MANIFEST)
    assert read_manifest(str(path), environ={"OPENMED_SKIP_MODEL_VERIFY": "1"}) == (ROWS, [])
    assert capsys.readouterr() == ("", "")


def test_skip_requested_reads_the_process_environment_by_default(monkeypatch):
    monkeypatch.setenv("OPENMED_SKIP_MODEL_VERIFY", "yes")
    assert skip_requested()
    monkeypatch.setenv("OPENMED_SKIP_MODEL_VERIFY", "no")
    assert not skip_requested()
    monkeypatch.delenv("OPENMED_SKIP_MODEL_VERIFY")
    assert not skip_requested()


# --- The pins -------------------------------------------------------------------------------

def test_the_defaults_are_the_reference_pins():
    assert DEFAULT_IDENTITY == "https://github.com/maziyarpanahi/openmed/.github/workflows/manifest-refresh.yml@refs/heads/master"
    assert DEFAULT_KEY == "sha256:86eb2319be26d7cabe775ce344cdbc0edcf63fa3ed038b318472755bd19ffed1"


@pytest.mark.parametrize("identity, key, message", [
    (IDENTITY, "sha256:" + "AB" * 32, "the pinned manifest key sha256:" + "AB" * 32 + " is not sha256: and 64 lower-case hex digits"),
    (IDENTITY, "86eb2319", "the pinned manifest key 86eb2319 is not sha256: and 64 lower-case hex digits"),
    (IDENTITY, None, "the pinned manifest key None is not sha256: and 64 lower-case hex digits"),
    ("", DEFAULT_KEY, "the pinned manifest identity  is not a URI or e-mail address"),
    ("a\nb", DEFAULT_KEY, "the pinned manifest identity a\\nb is not a URI or e-mail address"),
])
def test_unusable_pins_stop_the_build_with_one_line(identity: Any, key: Any, message: str, tmp_path: Path):
    with pytest.raises(ManifestError) as raised:
        read_manifest(str(write(tmp_path, MANIFEST)), identity=identity, key=key, environ=NO_SKIP)
    assert str(raised.value) == message
    with pytest.raises(ValueError, match="^the pinned manifest"):
        check_bundle(BUNDLE, b"{}", "models.jsonl", MANIFEST, identity, key)


def test_check_bundle_is_a_function_of_its_bytes():
    document = json.dumps(bundle(MANIFEST, KEYS["p384"])).encode()
    assert check_bundle(BUNDLE, document, "models.jsonl", MANIFEST, IDENTITY, pin(KEYS["p384"])) == []
    assert [str(problem) for problem in check_bundle("b.json", document, "m.jsonl", MANIFEST + b" ", IDENTITY,
                                                     pin(KEYS["p384"]))] == [
        f"b.json: /messageSignature/messageDigest/digest: is not the sha256 of m.jsonl "
        f"(sha256:{hashlib.sha256(MANIFEST + b' ').hexdigest()}): the manifest is not the file that was signed"]


# --- Against the reference renderer -----------------------------------------------------------

# The reference's command line, archive after archive in one process (importing openmed takes
# seconds): its main() with the arguments given, in the environment given; an exception it
# raises is a refusal, as its command line would exit 1 with it.
REFERENCE = """
import json, os, sys
from openmed.eval.leaderboard import main
outcomes = []
for argv, skip in json.loads(sys.argv[1]):
    os.environ.pop("OPENMED_SKIP_MODEL_VERIFY", None)
    if skip:
        os.environ["OPENMED_SKIP_MODEL_VERIFY"] = skip
    try:
        main(argv)
    except Exception as error:
        outcomes.append(type(error).__name__)
    else:
        outcomes.append(None)
print(json.dumps(outcomes))
"""


def environment(skip: str | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "OPENMED_SKIP_MODEL_VERIFY"}
    return env if skip is None else {**env, "OPENMED_SKIP_MODEL_VERIFY": skip}


@pytest.mark.oracle
def test_both_renderers_refuse_a_bundle_the_reference_pins_reject_and_publish_without_it(tmp_path: Path):
    case = valid_archive(1003, 5)
    reports, manifest = case.write(tmp_path / case.name)
    archives = [(reports, manifest.read_bytes() if manifest.exists() else b'{"repo_id": "nobody"}\n', case.release_tag or "v0"),
                (ROOT / "content" / "benchmarks", (ROOT / "models.jsonl").read_bytes(), "v0")]
    # Signed by a key made here, for the reference's own identity: only the key check fails; a
    # bundle that is not even JSON; none; a bundle skipped by the variable. Each run has its own
    # manifest folder, as the reference runs after all of them.
    scenarios = [[("signed-here", None), ("absent", None), ("skipped", "1")],
                 [("signed-here", None), ("not-json", None), ("absent", None)]]
    runs, ours = [], []
    for index, (reports, data, tag) in enumerate(archives):
        for name, skip in scenarios[index]:
            folder = tmp_path / f"{index}-{name}"
            if name == "not-json":
                manifest = write(folder, data, raw=b"{not json")
            elif name == "absent":
                manifest = write(folder, data)
            else:
                manifest = write(folder, data, bundle(data, KEYS["p256"], identity=DEFAULT_IDENTITY))
            runs.append(([f"--reports-dir={reports}", f"--output-dir={folder / 'reference'}", f"--manifest={manifest}",
                          f"--release-tag={tag}"], skip))
            result = subprocess.run([str(Path(sys.executable).parent / "invoke"), "build", "--reports-dir", str(reports),
                                     "--output-dir", str(folder / "ours"), "--manifest", str(manifest), "--release-tag", tag],
                                    cwd=ROOT, env=environment(skip), capture_output=True, encoding="utf-8",
                                    errors="replace", timeout=120)
            ours.append((name, result, folder))
    reference = subprocess.run([sys.executable, "-c", REFERENCE, json.dumps(runs)],
                               cwd=ROOT, env=environment(None), capture_output=True, encoding="utf-8", timeout=300)
    assert reference.returncode == 0, reference.stderr
    outcomes = json.loads(reference.stdout.splitlines()[-1])

    assert len(outcomes) == len(ours) == 6
    for (name, result, folder), refused in zip(ours, outcomes):
        if name in ("signed-here", "not-json"):
            assert refused == "ModelIntegrityError", (name, refused)
            assert result.returncode == 1, result.stderr
            assert "Traceback" not in result.stderr and not (folder / "ours").exists()
            problem_lines = [line for line in result.stderr.splitlines() if line.startswith(BUNDLE + ": ")]
            expected = (f"is not signed by the pinned key {DEFAULT_KEY}: its certificate's key is {pin(KEYS['p256'])}"
                        if name == "signed-here" else
                        "is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2")
            assert problem_lines == [f"{BUNDLE}: {expected}"], result.stderr
        else:
            assert refused is None and result.returncode == 0, (name, refused, result.stderr)
            assert (folder / "ours" / "leaderboard.json").read_bytes() == (folder / "reference" / "leaderboard.json").read_bytes()
            warned = [line for line in result.stderr.splitlines() if line.startswith("warning: OPENMED_SKIP_MODEL_VERIFY")]
            assert len(warned) == (name == "skipped"), result.stderr
