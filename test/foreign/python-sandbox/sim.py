"""The sandbox-simulation API (/sandbox/v1): this vendor's own shapes, protected by the sandbox API key."""
import datetime
import hmac

import bank
import money
from api import CHALLENGE_TTL, WITHDRAWAL_DELAY, user_payload
from state import SEPA_STATUSES, eth_address, new_id
from web import ApiError, Response

SNAKE = {s: "".join("_" + ch.lower() if ch.isupper() else ch for ch in s).lstrip("_") for s in SEPA_STATUSES}
FROM_SNAKE = {v: k for k, v in SNAKE.items()}


def iso(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def register(app, state):
    def R(method, path):
        def wrap(fn):
            def guarded(req):
                given = req.header("Authorization") or ""
                if not hmac.compare_digest(given.encode(), f"Bearer {state.sandbox_key}".encode()):
                    raise ApiError(401, "ErrorPermissionDenied", "A valid sandbox API key is required")
                return fn(req)
            return app.route(method, "/sandbox/v1" + path)(guarded)
        return wrap

    def body(req):
        return req.json()

    def user_of(req):
        user = state.users.get(req.params.get("user_id") or body(req).get("user_id"))
        if user is None:
            raise ApiError(400, "ErrorNotFound", "No such sandbox user")
        return user

    def clock():
        return {"current_time": iso(state.clock.now()), "offset_seconds": int(state.clock.offset)}

    @R("GET", "/clock")
    def get_clock(req):
        return Response(200, clock())

    @R("POST", "/clock/advance")
    def advance(req):
        seconds = body(req).get("seconds")
        if not isinstance(seconds, (int, float)) or seconds < 0:
            raise ApiError(400, "ErrorInvalidField", "seconds must be a non-negative number")
        state.clock.offset += seconds
        return Response(200, clock())

    @R("POST", "/clock/reset")
    def reset(req):
        state.clock.offset = 0.0
        return Response(200, clock())

    @R("PUT", "/webhook-endpoint")
    def webhook_endpoint(req):
        url = body(req).get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ApiError(400, "ErrorInvalidField", "url must be an http(s) URL")
        state.webhooks.base_url = url
        return Response(200, {"url": url})

    @R("PUT", "/clients/{client_id}/identity-provider")
    def identity_provider(req):
        company = state.company_by_client(req.params["client_id"])
        if company is None:
            raise ApiError(400, "ErrorNotFound", "No such client")
        data = body(req)
        company.idp_app_id = data.get("application_id") or None
        company.idp_jwks_url = data.get("jwks_uri") or None
        return Response(200, {"client_id": company.client_id, "application_id": company.idp_app_id,
                              "jwks_uri": company.idp_jwks_url})

    @R("GET", "/users/{user_id}")
    def get_user(req):
        user = user_of(req)
        return Response(200, dict(user_payload(state, user, True), wallets=user.wallets))

    @R("PUT", "/users/{user_id}/capabilities/sepa")
    def sepa(req):
        user = user_of(req)
        wanted = FROM_SNAKE.get(body(req).get("state"))
        if wanted is None:
            raise ApiError(400, "ErrorInvalidField", f"state must be one of {sorted(FROM_SNAKE)}")
        # The status and the user's SEPA account move together: an account exists in InProgress (pending
        # the provider) and Active (usable) only, whichever order the statuses are set in.
        account = bank.sepa_account(state, user)
        if wanted not in ("InProgress", "Active"):
            if account:
                del state.bank_accounts[account["details_id"]]
        else:
            account = account or bank.open_account(state, user, "Sepa", "Pending")
            account["status"] = "Active" if wanted == "Active" else "Pending"
            if wanted == "Active":
                account["iban"] = account["iban"] or "DE02120300000000202051"
        user.sepa_status = wanted
        return Response(200, {"user_id": user.id, "state": SNAKE[wanted]})

    @R("PUT", "/users/{user_id}/primary-wallet")
    def primary(req):
        user = user_of(req)
        enabled = body(req).get("enabled")
        if not isinstance(enabled, bool):
            raise ApiError(400, "ErrorInvalidField", "enabled must be a boolean")
        for wallet in user.wallets:
            if wallet["role"] == "Primary":
                wallet["role"] = None
        if enabled:
            user.wallets[0]["role"] = "Primary"
        return Response(200, {"user_id": user.id, "primary": user.primary_wallet()})

    @R("GET", "/users/{user_id}/bank-accounts")
    def accounts(req):
        user = user_of(req)
        return Response(200, {"items": [{"account_id": a["details_id"], "kind": a["account_type"], "state": a["status"]}
                                        for a in state.bank_accounts.values() if a["user_id"] == user.id]})

    @R("POST", "/bank-accounts/{account_id}/provision")
    def provision(req):
        account = state.bank_accounts.get(req.params["account_id"])
        if account is None:
            raise ApiError(400, "ErrorNotFound", "No such bank account")
        if state.users[account["user_id"]].sepa_status != "InProgress":
            raise ApiError(400, "ErrorInvalidState", "Only an account in progress can be provisioned")
        bank.provision(state, account)
        return Response(202, {"account_id": account["details_id"], "state": "Active"})

    @R("POST", "/wallets/{address}/sign")
    def sign(req):
        address = req.params["address"]
        if not any(w["wallet_address"].lower() == address.lower() for u in state.users.values() for w in u.wallets):
            raise ApiError(400, "ErrorNotFound", "No such wallet")
        message = body(req).get("message")
        if not isinstance(message, str):
            raise ApiError(400, "ErrorInvalidField", "message must be a string")
        return Response(200, {"signature": bank.wallet_signature(state, address, message)})

    @R("POST", "/3ds")
    def create_3ds(req):
        user = user_of(req)
        data = body(req)
        card = next((c for c in state.cards.values() if c["user_id"] == user.id and c["status"] != "Closed"), None)
        if card is None:
            card = {"id": new_id("card"), "user_id": user.id, "status": "Active", "last_four": "4242",
                    "card_data": {"card_name": "Sandbox 3DS card", "format": "virtual"},
                    "created_at": state.clock.now_s()}
            state.cards[card["id"]] = card
        now = state.clock.now_s()
        challenge = {"transaction_id": new_id("tds"), "user_id": user.id, "card_id": card["id"],
                     "amount": data.get("amount", 10), "currency": data.get("currency", "EUR"),
                     "merchant_name": "Sandbox Merchant", "status": "Pending", "created_at": now,
                     "expires_at": now + CHALLENGE_TTL, "user_address": user.address, "owner": user.address}
        state.challenges[challenge["transaction_id"]] = challenge
        state.webhooks.emit("/v2/webhooks/3ds", dict(challenge, type="ThreeDsChallengeCreated"))
        return Response(201, {"challenge": {"id": challenge["transaction_id"], "expires": iso(challenge["expires_at"])}})

    @R("POST", "/users/{user_id}/withdrawals")
    def withdrawal(req):
        user = user_of(req)
        to = body(req).get("to") or eth_address()
        wallet = (user.primary_wallet() or user.wallets[0])["wallet_address"]
        now = state.clock.now_s()
        item = {"id": new_id("wdr"), "user_id": user.id, "status": "Requested",
                "call_data": "0xa9059cbb" + to[2:].rjust(64, "0") + "0" * 63 + "1",
                "valid_after": now + (0 if "no-delay" in state.faults else WITHDRAWAL_DELAY), "requested_at": now, "wallet_address": wallet,
                "account_address": wallet, "destination_address": to, "to_address": to,
                "token_symbol": "USDC", "amount": "1.00"}
        if state.iso_timestamps:  # Pydantic's datetime: ISO 8601 with an offset
            item["valid_after"], item["requested_at"] = iso(item["valid_after"]), iso(item["requested_at"])
        state.withdrawals[item["id"]] = item
        state.webhooks.emit("/v2/webhooks/erc-withdrawals", dict(item, type="WithdrawalRequested"))
        return Response(201, item)

    @R("POST", "/activities/{activity_id}/settle")
    def settle(req):
        if money.settle(state, req.params["activity_id"]) is None:
            raise ApiError(400, "ErrorNotFound", "No such activity")
        return Response(202, {"activity_id": req.params["activity_id"], "state": "settled"})

    @R("POST", "/webhooks/emit")
    def emit(req):
        data = body(req)
        user = user_of(req)
        topic = data.get("topic")
        base = {"user_id": user.id, "type": "SandboxTest"}
        if topic == "user":
            state.webhooks.emit("/v2/webhooks/user", dict(user_payload(state, user), owner=user.address, type="UserUpdated"))
        elif topic == "3ds":
            state.webhooks.emit("/v2/webhooks/3ds", dict(base, transaction_id=new_id("tds"), user_address=user.address,
                                                         owner=user.address))
        elif topic == "erc-withdrawals":
            wallet = user.wallets[0]["wallet_address"]
            to = eth_address()
            state.webhooks.emit("/v2/webhooks/erc-withdrawals", dict(base, status="Requested", wallet_address=wallet,
                                account_address=wallet, destination_address=to, to_address=to))
        elif topic == "recipients":
            address = eth_address()
            state.webhooks.emit("/v2/webhooks/recipients", dict(base, id=new_id("rcp"), recipient_address=address,
                                                                address=address))
        else:
            raise ApiError(400, "ErrorInvalidField", "topic must be user, 3ds, erc-withdrawals or recipients")
        return Response(202, {"queued": topic})
