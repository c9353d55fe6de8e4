"""Section 5 authentication: the token endpoint, S2S and user tokens, the identity-provider exchange."""
import json
import re
import time
import urllib.request

import jose
from web import ApiError

S2S_TTL = 172800
USER_TTL = 3600
BEARER = re.compile(r"^[Bb]earer +([^\s]+)\s*$")
_jwks_cache = {}


def issue_s2s(state, company):
    now = state.clock.now_s()
    ttl = 86400 if "token-24h" in state.faults else S2S_TTL
    claims = {"iss": state.issuer, "sub": company.client_id, "azp": company.client_id,
              "company_id": company.id, "scope": "partner:full", "iat": now, "exp": now + ttl}
    return jose.hs256_sign(claims, state.s2s_secret), now + ttl


def issue_user_token(state, user):
    now = state.clock.now_s()
    claims = {"iss": state.issuer, "user_id": user.id, "email": user.email, "user_address": user.address,
              "company_id": user.company_id, "iat": now, "exp": now + USER_TTL}
    return {"access_token": jose.hs256_sign(claims, state.user_secret), "expires_at": now + USER_TTL}


def bearer(req, header="Authorization", missing="Missing Authorization Headers"):
    value = req.header(header)
    if not value:
        raise ApiError(400, "ErrorMissingField", missing)
    match = BEARER.match(value)
    if not match:
        raise ApiError(400, "ErrorInvalidField", "Bearer token is not in the correct format")
    return match.group(1)


def _bad_signature():
    return ApiError(401, "ErrorPermissionDenied", "Token signature is not valid")


def decode_partner_token(state, token):
    """Returns ('s2s', company, claims) or ('user', company, claims)."""
    try:
        header, claims, signing_input, signature = jose.split(token)
    except jose.MalformedToken:
        raise _bad_signature()
    if header.get("alg") != "HS256":
        raise _bad_signature()
    if jose.hs256_valid(signing_input, signature, state.s2s_secret):
        kind = "s2s"
    elif jose.hs256_valid(signing_input, signature, state.user_secret):
        kind = "user"
    else:
        raise _bad_signature()
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or exp <= state.clock.now():
        raise ApiError(401, "ErrorExpired", "Token is expired")
    if kind == "s2s":
        if not claims.get("azp"):
            raise ApiError(401, "ErrorMissingField", "Client id claim is missing")
        if not claims.get("company_id"):
            raise ApiError(401, "ErrorMissingField", "Company id claim is missing")
    else:
        for claim, label in (("user_id", "User id"), ("email", "User email"), ("user_address", "User address")):
            if not claims.get(claim):
                raise ApiError(401, "ErrorMissingField", f"{label} claim is missing")
    company = state.company(claims.get("company_id"))
    if company is None:
        raise ApiError(401, "ErrorPermissionDenied", "Token company is not known")
    return kind, company, claims


def require_s2s(state, req):
    kind, company, claims = decode_partner_token(state, bearer(req))
    if kind != "s2s":
        raise ApiError(401, "ErrorPermissionDenied", "This operation needs a server-to-server token")
    return company


def require_chain(req):
    chain = req.header("X-Chain-Id")
    if not chain:
        raise ApiError(400, "ErrorMissingField", "X-Chain-Id header is missing")
    if not chain.isdigit():
        raise ApiError(400, "ErrorInvalidField", "X-Chain-Id header must be a numeric chain id",
                       [{"key": "field", "details": "X-Chain-Id"}])
    return int(chain)


def require_user(state, req):
    """User identity: a user token, or an S2S token with exactly one user header. Both need X-Chain-Id."""
    kind, company, claims = decode_partner_token(state, bearer(req))
    require_chain(req)
    not_found = ApiError(400, "ErrorNotFound", "Requested user was not found")
    if kind == "user":
        user = state.users.get(claims["user_id"])
        if user is None or user.company_id != company.id:
            raise not_found
        return user
    given = {name: req.header(name) for name in ("X-User-Wallet", "X-User-Email", "X-User-Id")}
    given = {k: v for k, v in given.items() if v}
    if len(given) > 1 and "first-user-header" in state.faults:
        given = dict([next(iter(given.items()))])
    if len(given) > 1:
        raise ApiError(400, "ErrorInvalidField", "Multiple user identifiers provided in headers. Only one is allowed",
                       [{"key": "field", "details": "user_identifier"}])
    if not given:
        raise ApiError(400, "ErrorMissingField", "No valid user identifier provided",
                       [{"key": "field", "details": "user_identifier"}])
    (name, value), = given.items()
    user = state.find_user(company.id, address=value if name == "X-User-Wallet" else None,
                           email=value if name == "X-User-Email" else None,
                           user_id=value if name == "X-User-Id" else None)
    if user is None:
        raise not_found
    return user


def require_any_partner_token(state, req):
    return decode_partner_token(state, bearer(req))[1]


# --- identity provider --------------------------------------------------------------------------

def _jwks(url, refresh=False):
    cached = _jwks_cache.get(url)
    if cached and not refresh and time.time() - cached[0] < 30:
        return cached[1]
    try:
        with urllib.request.urlopen(url, timeout=5) as res:
            keys = json.loads(res.read()).get("keys", [])
    except Exception:
        keys = []
    _jwks_cache[url] = (time.time(), keys)
    return keys


def _verify_es256(token, jwks_url, which):
    bad = ApiError(401, "ErrorPermissionDenied", f"{which} signature is not valid")
    try:
        header, claims, signing_input, signature = jose.split(token)
    except jose.MalformedToken:
        raise bad
    if header.get("alg") != "ES256":
        raise bad
    for refresh in (False, True):
        keys = [k for k in _jwks(jwks_url, refresh) if not header.get("kid") or k.get("kid") == header.get("kid")]
        if any(jose.es256_valid(signing_input, signature, k) for k in keys):
            return claims
    raise bad


def _linked_accounts(claims):
    linked = claims.get("linked_accounts")
    if isinstance(linked, str):
        try:
            linked = json.loads(linked)
        except ValueError:
            linked = None
    return linked if isinstance(linked, list) and linked else None


def idp_identity(state, req):
    """Verifies the provider tokens; returns (company, email, wallet, provider subject)."""
    access = bearer(req)
    identity = bearer(req, "Identity", "Missing Identity Headers")
    try:
        access_claims_unverified = jose.split(access)[1]
    except jose.MalformedToken:
        raise ApiError(401, "ErrorPermissionDenied", "Access token signature is not valid")
    aud = access_claims_unverified.get("aud")
    auds = aud if isinstance(aud, list) else [aud]
    company = next((c for c in state.companies if c.idp_app_id and c.idp_app_id in auds), None)
    if company is None:
        raise ApiError(500, "ErrorConfigurationInvalid", "Client application not registered")
    now = state.clock.now()
    access_claims = _verify_es256(access, company.idp_jwks_url, "Access token")
    if not isinstance(access_claims.get("exp"), (int, float)) or access_claims["exp"] <= now:
        raise ApiError(401, "ErrorExpired", "Access token is expired")
    id_claims = _verify_es256(identity, company.idp_jwks_url, "Id token")
    if not isinstance(id_claims.get("exp"), (int, float)) or id_claims["exp"] <= now:
        raise ApiError(401, "ErrorExpired", "Id token is expired")
    linked = _linked_accounts(id_claims)
    if linked is None:
        raise ApiError(401, "ErrorMissingField", "Linked accounts claim is missing")
    email = next((a.get("address") for a in linked if isinstance(a, dict) and a.get("type") == "email"), None)
    email = email or id_claims.get("email") or access_claims.get("email")
    wallet = next((a.get("address") for kind in ("wallet", "smart_wallet") for a in linked
                   if isinstance(a, dict) and a.get("type") == kind and a.get("address")), None)
    if not email or not wallet:
        raise ApiError(400, "ErrorMissingField", "Not all identifiers found in linked accounts")
    return company, email, wallet, access_claims.get("sub")


# --- token endpoint -------------------------------------------------------------------------------

def token_endpoint(state, req):
    ctype = (req.header("content-type") or "").lower()
    if "application/x-www-form-urlencoded" in ctype:
        from urllib.parse import parse_qs
        body = {k: v[0] for k, v in parse_qs(req.raw.decode("utf-8", "replace")).items()}
    else:
        body = req.json()
    client_id = body.get("client_id")
    for key, limit in ((f"ip:{req.client_ip}", state.rate["per_ip"]),
                       (f"client:{client_id}", state.rate["per_client"]) if isinstance(client_id, str) else (None, 0)):
        if key is None:
            continue
        wait = state.rate_limited(key, limit)
        if wait:
            raise ApiError(429, "ErrorRateLimited", "Too many token requests, retry later",
                           headers={"retry-after": str(wait)})
    if not isinstance(client_id, str) or not client_id:
        raise ApiError(400, "ErrorMissingField", "client id is required", [{"key": "field", "details": "client_id"}])
    secret = body.get("client_secret")
    if not isinstance(secret, str) or not secret:
        raise ApiError(400, "ErrorMissingField", "client secret is required",
                       [{"key": "field", "details": "client_secret"}])
    if body.get("grant_type") != "client_credentials":
        raise ApiError(400, "ErrorInvalidField", "Invalid value for grant type",
                       [{"key": "field", "details": "grant_type"}])
    if "audience" in body and not isinstance(body["audience"], str):
        raise ApiError(400, "ErrorInvalidField", "audience must be a string", [{"key": "field", "details": "audience"}])
    company = state.company_by_client(client_id)
    if company is None:
        raise ApiError(401, "ErrorPermissionDenied", "Invalid client credentials")
    if company.type != "partner":
        raise ApiError(401, "ErrorNotSupported", "Client credentials are not supported for this company type")
    if company.secret is None:
        raise ApiError(401, "ErrorPermissionDenied", "Client credentials access is not enabled for this account")
    if not secrets_equal(company.secret, secret):
        raise ApiError(401, "ErrorPermissionDenied", "Invalid client credentials")
    token, expires_at = issue_s2s(state, company)
    return {"access_token": token, "token_type": "Bearer", "expires_at": expires_at}


def secrets_equal(a, b):
    import hmac
    return hmac.compare_digest(a.encode(), b.encode())
