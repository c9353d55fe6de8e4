"""Section 4 endpoints of the Partner API."""
import secrets

import auth
from state import User, eth_address, new_id
from web import ApiError, Response, field_error

CHALLENGE_TTL = 300
WITHDRAWAL_DELAY = 4


def _str(body, name, required=True):
    value = body.get(name)
    if value is None:
        if required:
            raise field_error("ErrorMissingField", f"{name} is required", name)
        return None
    if not isinstance(value, str) or not value.strip():
        raise field_error("ErrorInvalidField", f"{name} must be a non-empty string", name)
    return value


def aliased(body, new, old, required=True):
    """Section 4 rule 4: a new name and its deprecated alias in one request must agree."""
    a, b = _str(body, new, False), _str(body, old, False)
    if a is not None and b is not None and a != b:
        raise field_error("ErrorInvalidField", f"{new} and {old} must have the same value", new, row=True)
    value = a if a is not None else b
    if value is None and required:
        raise field_error("ErrorMissingField", f"{new} is required", new)
    return value


def user_payload(state, user, capabilities=False):
    data = user.public()
    if "drop-alias" in state.faults:
        data.pop("wallet_address")
    if capabilities:
        data["capabilities"] = [{"type": "VisaVirtualCard", "status": "Active"},
                                {"type": "SepaAccount", "status": user.sepa_status}]
    return data


def wallet_view(w):
    return dict(w, balances=[{"token_symbol": "USDC", "token_address": "0x036cbd53842c5426634e7929541ec2318f3dcf7e",
                              "balance": "250.00"},
                             {"token_symbol": "EURe", "token_address": "0x1d1d5fd5b1a2f3c1c7f3f1a8f1b2e4a9b3d1c0e2",
                              "balance": "0.00"}])


def register(app, state):
    R = app.route

    @R("POST", "/api/v1/token")
    def token(req):
        return Response(200, auth.token_endpoint(state, req))

    def create_user(req, chain):
        company = auth.require_s2s(state, req)
        if chain:
            auth.require_chain(req)
        body = req.json()
        email = _str(body, "email")
        if "@" not in email:
            raise field_error("ErrorInvalidField", "email is not a valid address", "email")
        country = _str(body, "country")
        if len(country) != 2 or not country.isalpha():
            raise field_error("ErrorInvalidField", "country must be a two-letter code", "country")
        address = aliased(body, "user_address", "wallet_address")
        if state.find_user(company.id, email=email) or state.find_user(company.id, address=address):
            raise ApiError(400, "ErrorAlreadyExists", "A user with this email or address already exists")
        user = User(company, email, country.upper(), address)
        user.created_at = state.clock.now_s()
        state.users[user.id] = user
        announce(user)
        return user

    def announce(user):
        state.webhooks.emit("/v2/webhooks/user", dict(user_payload(state, user), owner=user.address,
                                                      type="UserCreated"))
        for wallet in user.wallets:
            state.webhooks.emit("/v2/webhooks/wallets", {"type": "WalletCreated", "user_id": user.id,
                                                         "wallet_id": wallet["id"], "wallet_address": wallet["wallet_address"],
                                                         "role": wallet["role"]})
            state.webhooks.emit("/v2/webhooks/balances", {"type": "BalanceUpdated", "user_id": user.id,
                                                          "wallet_address": wallet["wallet_address"],
                                                          "balances": wallet_view(wallet)["balances"]})

    @R("POST", "/api/v1/user")
    def create_user_v1(req):
        return Response(201, user_payload(state, create_user(req, True)))

    @R("POST", "/api/v2/user")
    def create_user_v2(req):
        user = create_user(req, False)
        return Response(201, {"id": user.id, "user_id": user.id})

    @R("GET", "/api/v1/user")
    def get_user_v1(req):
        return Response(200, user_payload(state, auth.require_user(state, req)))

    @R("GET", "/api/v2/user")
    def get_user_v2(req):
        return Response(200, user_payload(state, auth.require_user(state, req), True))

    @R("POST", "/api/v1/user/retail/validate")
    def validate_retail(req):
        return Response(200, user_payload(state, auth.require_user(state, req)))

    @R("POST", "/api/v1/user/authorize")
    def authorize(req):
        token = auth.bearer(req)
        alg = None
        try:
            alg = auth.jose.split(token)[0].get("alg")
        except auth.jose.MalformedToken:
            pass
        if alg == "HS256":
            user = auth.require_user(state, req)
            return Response(200, auth.issue_user_token(state, user))
        company, email, wallet, subject = auth.idp_identity(state, req)
        auth.require_chain(req)
        user = state.find_user(company.id, address=wallet)
        if user is None:
            raise ApiError(400, "ErrorNotFound", "Requested user was not found")
        return Response(200, auth.issue_user_token(state, user))

    @R("POST", "/api/v1/user/retail")
    def register_retail(req):
        company, email, wallet, subject = auth.idp_identity(state, req)
        auth.require_chain(req)
        country = _str(req.json(), "country")
        if len(country) != 2 or not country.isalpha():
            raise field_error("ErrorInvalidField", "country must be a two-letter code", "country")
        if state.find_user(company.id, address=wallet) or state.find_user(company.id, email=email):
            raise ApiError(400, "ErrorAlreadyExists", "A user with this email or address already exists")
        user = User(company, email, country.upper(), wallet)
        user.idp_subject = subject
        state.users[user.id] = user
        announce(user)
        return Response(201, {"id": user.id})

    @R("GET", "/api/v1/config")
    def config(req):
        auth.require_any_partner_token(state, req)
        return Response(200, {"environment": "sandbox", "chains": [{"chain_id": 84532, "name": "base-sepolia"}],
                              "features": {"cards": True, "sepa": True, "push_to_card": True}})

    @R("GET", "/api/v1/validation/rules")
    def validation_rules(req):
        auth.require_any_partner_token(state, req)
        return Response(200, {"rules": [{"field": "country", "pattern": "^[A-Z]{2}$"},
                                        {"field": "chain", "pattern": "^[0-9]+$"}]})

    # --- wallets ----------------------------------------------------------------------------

    @R("GET", "/api/v1/wallet")
    def get_wallet(req):
        user = auth.require_user(state, req)
        wanted = req.query.get("wallet_id")
        if wanted:
            wallet = next((w for w in user.wallets if w["id"] == wanted), None)
            if wallet is None:
                raise ApiError(400, "ErrorNotFound", "Wallet was not found")
        else:
            wallet = user.primary_wallet() or user.wallets[0]
        return Response(200, wallet_view(wallet))

    @R("GET", "/api/v1/wallets")
    def list_wallets(req):
        user = auth.require_user(state, req)
        return Response(200, {"data": [wallet_view(w) for w in user.wallets]})

    @R("POST", "/api/v1/wallets")
    def create_wallet(req):
        user = auth.require_user(state, req)
        body = req.json()
        is_global = body.get("global", False)
        if not isinstance(is_global, bool):
            raise field_error("ErrorInvalidField", "global must be a boolean", "global")
        wallet = {"id": new_id("wal"), "wallet_address": eth_address(), "role": None, "chain_id": 84532,
                  "is_global": is_global}
        user.wallets.append(wallet)
        return Response(201, wallet_view(wallet))

    @R("POST", "/api/v1/accounts")
    def create_xrpl(req):
        auth.require_user(state, req)
        return Response(201, {"account_id": new_id("xrpl"), "chain": "xrpl",
                              "wallet_address": "r" + secrets.token_hex(16)})

    # --- withdrawals, fx, statement ----------------------------------------------------------
    @R("GET", "/api/v1/withdrawal/requests")
    def withdrawals(req):
        user = auth.require_user(state, req)
        return Response(200, {"data": [w for w in state.withdrawals.values()
                                       if w["user_id"] == user.id and w["status"] == "Requested"]})

    @R("POST", "/api/v1/fx/estimate")
    def fx_estimate(req):
        auth.require_user(state, req)
        body = req.json()
        destination = aliased(body, "destination_address", "deposit_address")
        return Response(200, {"estimation_id": new_id("fxe"), "destination_address": destination,
                              "deposit_address": destination, "rate": "0.9231", "fee": "0.50",
                              "expires_at": state.clock.now_s() + 60})

    @R("POST", "/api/v1/activity/statement/full")
    def statement(req):
        user = auth.require_user(state, req)
        body = req.json()
        start, end = body.get("start"), body.get("end")
        for name, value in (("start", start), ("end", end)):
            if value is None:
                raise field_error("ErrorMissingField", f"{name} is required", name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise field_error("ErrorInvalidField", f"{name} must be Unix seconds", name)
        if start > end:
            raise field_error("ErrorInvalidField", "start must not be after end", "start")
        aliased(body, "user_address", "owner", False)
        aliased(body, "wallet_address", "account_address", False)
        wallet = (user.primary_wallet() or user.wallets[0])["wallet_address"]
        items = [a for a in state.activities.values() if a["user_id"] == user.id and start <= a["created_at"] <= end]
        return Response(200, {"user_address": user.address, "owner": user.address, "wallet_address": wallet,
                              "account_address": wallet, "start": start, "end": end, "data": items})
