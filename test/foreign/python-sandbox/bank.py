"""Section 3 SEPA activation: direct activation, wallet-linking init/complete, provider completion."""
import hashlib
import hmac
import secrets

import auth
from state import new_id
from web import ApiError, Response, field_error

ACCOUNT_TYPES = ("Sepa", "Ach", "FasterPayment", "Spei")


def wrong_path(status):
    return ApiError(400, "ErrorInvalidState", f"This activation path does not apply to SepaAccount status {status}")


def wallet_signature(state, wallet_address, message):
    """The sandbox's stand-in for the Smart Wallet's signature (the sandbox API signs on the user's behalf)."""
    key = (state.s2s_secret + wallet_address.lower()).encode()
    return "0x" + hmac.new(key, message.encode(), hashlib.sha256).hexdigest()


def open_account(state, user, account_type, status):
    account = {"details_id": new_id("bad"), "user_id": user.id, "account_type": account_type, "status": status,
               "iban": None, "bic": None, "created_at": state.clock.now_s()}
    state.bank_accounts[account["details_id"]] = account
    return account


def sepa_account(state, user):
    return next((a for a in state.bank_accounts.values() if a["user_id"] == user.id and a["account_type"] == "Sepa"), None)


def provision(state, account):
    """The provider reports the SEPA details: the account becomes usable and the bank account webhook fires."""
    user = state.users[account["user_id"]]
    account["status"] = "Active"
    account["iban"] = account["iban"] or "DE89370400440" + f"{secrets.randbelow(10**9):09d}"
    account["bic"] = "COBADEFFXXX"
    user.sepa_status = "Active"
    state.webhooks.emit("/v2/webhooks/bank-accounts", {
        "type": "BankAccountActivated", "user_id": user.id, "user_address": user.address,
        "details_id": account["details_id"], "account_type": "Sepa", "status": "Active",
        "iban": account["iban"], "bic": account["bic"]})


def _chain(state, body):
    chain = body.get("chain")
    if chain is None:
        raise field_error("ErrorMissingField", "chain_id is required", "chain_id", row=True)
    if not isinstance(chain, str) or not chain.isdigit():
        raise field_error("ErrorInvalidField", "chain_id must be a numeric chain id",
                          "chain" if "chain-field" in state.faults else "chain_id", row=True)
    return chain


def register(app, state):
    R = app.route

    @R("POST", "/api/v1/bank/accounts")
    def create(req):
        user = auth.require_user(state, req)
        account_type = req.json().get("account_type")
        if account_type is None:
            raise field_error("ErrorMissingField", "account_type is required", "account_type")
        if account_type not in ACCOUNT_TYPES:
            raise field_error("ErrorInvalidField", "account_type must be Sepa, Ach, FasterPayment or Spei", "account_type")
        if account_type != "Sepa":
            return Response(201, {"details_id": open_account(state, user, account_type, "Active")["details_id"]})
        if user.sepa_status == "ActivationNotStarted":
            account = sepa_account(state, user) or open_account(state, user, "Sepa", "Pending")
            user.sepa_status = "InProgress"
            return Response(201, {"details_id": account["details_id"]})
        if user.sepa_status in ("InProgress", "Active"):
            account = sepa_account(state, user) or open_account(state, user, "Sepa", "Pending")
            return Response(200, {"details_id": account["details_id"]})
        raise wrong_path(user.sepa_status)

    @R("GET", "/api/v1/bank/accounts")
    def list_accounts(req):
        user = auth.require_user(state, req)
        return Response(200, {"data": [{k: v for k, v in a.items() if k != "user_id"}
                                       for a in state.bank_accounts.values() if a["user_id"] == user.id]})

    @R("POST", "/api/v1/bank/accounts/init")
    def init(req):
        user = auth.require_user(state, req)
        _chain(state, req.json())
        if user.sepa_status != "ExternalProviderVerificationRequired":
            raise wrong_path(user.sepa_status)
        wallet = user.primary_wallet()
        if wallet is None:
            raise ApiError(400, "ErrorNotFound", "The user has no Primary Smart Wallet")
        challenge = f"python-sandbox wants you to link {wallet['wallet_address']} (nonce {secrets.token_hex(8)})"
        user.pending_challenge = (challenge, wallet["wallet_address"])
        return Response(200, {"challenge": challenge, "wallet_address": wallet["wallet_address"]})

    @R("POST", "/api/v1/bank/accounts/complete")
    def complete(req):
        user = auth.require_user(state, req)
        body = req.json()
        _chain(state, body)
        signed = body.get("signed_challenge")
        if not isinstance(signed, str) or not signed:
            raise field_error("ErrorMissingField", "signed_challenge is required", "signed_challenge")
        if user.sepa_status != "ExternalProviderVerificationRequired":
            raise wrong_path(user.sepa_status)
        wallet = user.primary_wallet()
        if wallet is None:
            raise ApiError(400, "ErrorNotFound", "The user has no Primary Smart Wallet")
        pending = user.pending_challenge
        if pending is None or pending[1] != wallet["wallet_address"] or \
                not hmac.compare_digest(wallet_signature(state, pending[1], pending[0]), signed):
            raise field_error("ErrorInvalidField", "signed_challenge is not a signature of the challenge", "signed_challenge")
        user.pending_challenge = None
        account = sepa_account(state, user) or open_account(state, user, "Sepa", "Pending")
        user.sepa_status = "InProgress"
        return Response(201, {"details_id": account["details_id"]})
