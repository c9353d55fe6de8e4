"""JWT helpers: base64url, HS256 sign/verify, ES256 (P-256 ECDSA) verification in pure Python."""
import base64
import hashlib
import hmac
import json


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    pad = "=" * (-len(text) % 4)
    return base64.urlsafe_b64decode(text + pad)


class MalformedToken(Exception):
    pass


def split(token: str):
    """Returns (header, claims, signing_input, signature) or raises MalformedToken."""
    parts = token.split(".")
    if len(parts) != 3:
        raise MalformedToken("token must have three segments")
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except (ValueError, TypeError) as exc:
        raise MalformedToken(str(exc)) from exc
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise MalformedToken("header and claims must be objects")
    return header, claims, (parts[0] + "." + parts[1]).encode("ascii"), signature


def hs256_sign(claims: dict, secret: str) -> str:
    header = b64url_encode(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url_encode(json.dumps(claims, separators=(",", ":")).encode())
    mac = hmac.new(secret.encode(), f"{header}.{body}".encode(), hashlib.sha256).digest()
    return f"{header}.{body}.{b64url_encode(mac)}"


def hs256_valid(signing_input: bytes, signature: bytes, secret: str) -> bool:
    expected = hmac.new(secret.encode(), signing_input, hashlib.sha256).digest()
    return hmac.compare_digest(expected, signature)


# --- P-256 (secp256r1) -------------------------------------------------------
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def _on_curve(pt) -> bool:
    x, y = pt
    return 0 <= x < P and 0 <= y < P and (y * y - (x * x * x + A * x + B)) % P == 0


def _add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    x1, y1 = p1
    x2, y2 = p2
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        lam = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return x3, (lam * (x1 - x3) - y1) % P


def _mul(k: int, pt):
    result = None
    addend = pt
    while k:
        if k & 1:
            result = _add(result, addend)
        addend = _add(addend, addend)
        k >>= 1
    return result


def es256_valid(signing_input: bytes, signature: bytes, jwk: dict) -> bool:
    if len(signature) != 64 or jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
        return False
    try:
        q = (int.from_bytes(b64url_decode(jwk["x"]), "big"), int.from_bytes(b64url_decode(jwk["y"]), "big"))
    except (KeyError, ValueError, TypeError):
        return False
    if not _on_curve(q):
        return False
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:], "big")
    if not (1 <= r < N and 1 <= s < N):
        return False
    z = int.from_bytes(hashlib.sha256(signing_input).digest(), "big")
    w = pow(s, -1, N)
    point = _add(_mul(z * w % N, G), _mul(r * w % N, q))
    return point is not None and point[0] % N == r
