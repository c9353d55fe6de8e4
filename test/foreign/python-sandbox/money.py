"""Cards, 3DS, recipients, card tokenization, card transfers, activity feed."""
import re
import secrets
import threading

import auth
from api import CHALLENGE_TTL, _str, aliased
from state import new_id
from web import ApiError, Response, field_error

AMOUNT = re.compile(r"^\d+(\.\d{1,2})?$")


def card_view(card):
    return {k: v for k, v in card.items() if k != "user_id"}


def settle(state, activity_id):
    activity = state.activities.get(activity_id)
    if activity is None:
        return None
    if activity["status"] != "Completed":
        activity["status"] = "Completed"
        activity["completed_at"] = state.clock.now_s()
        user = state.users[activity["user_id"]]
        state.webhooks.emit("/v2/webhooks/activities", dict(activity, activity_id=activity["id"],
                                                            user_address=user.address))
    return activity


def register(app, state):
    R = app.route

    def own_card(req):
        user = auth.require_user(state, req)
        card = state.cards.get(req.params["card_id"])
        if card is None or card["user_id"] != user.id:
            raise ApiError(400, "ErrorNotFound", "Card was not found")
        return card

    @R("GET", "/api/v1/cards")
    def list_cards(req):
        user = auth.require_user(state, req)
        return Response(200, {"data": [card_view(c) for c in state.cards.values() if c["user_id"] == user.id]})

    @R("POST", "/api/v1/cards/virtual")
    def create_virtual(req):
        user = auth.require_user(state, req)
        name = _str(req.json(), "card_name")
        card = {"id": new_id("card"), "user_id": user.id, "status": "Active", "last_four": f"{secrets.randbelow(10000):04d}",
                "card_data": {"card_name": name, "format": "virtual"}, "created_at": state.clock.now_s()}
        state.cards[card["id"]] = card
        return Response(201, card_view(card))

    transitions = {"activate": ({"Inactive", "Active"}, "Active"), "block": ({"Active", "Blocked"}, "Blocked"),
                   "unblock": ({"Blocked", "Active"}, "Active"), "close": ({"Active", "Blocked", "Inactive"}, "Closed")}

    def card_action(action):
        def handler(req):
            card = own_card(req)
            allowed, target = transitions[action]
            if card["status"] not in allowed and not ("reopen-card" in state.faults and action == "activate"):
                raise ApiError(400, "ErrorInvalidState", f"Card cannot {action} from status {card['status']}")
            card["status"] = target
            return Response(200, card_view(card))
        return handler

    for action in transitions:
        R("POST", f"/api/v1/cards/{{card_id}}/{action}")(card_action(action))

    @R("GET", "/api/v1/cards/{card_id}")
    def get_card(req):
        return Response(200, card_view(own_card(req)))

    # --- 3DS ------------------------------------------------------------------------------------
    def pending(challenge):
        return challenge["status"] == "Pending" and challenge["expires_at"] > state.clock.now()

    @R("GET", "/api/v1/cards/3ds/requests")
    def list_3ds(req):
        user = auth.require_user(state, req)
        return Response(200, [c for c in state.challenges.values() if c["user_id"] == user.id and pending(c)])

    def decide(decision):
        def handler(req):
            # Section 7 other rule 1: "3DS approve and decline never return 401." The specific rule
            # wins over the token tables' 401 rows here: the same refusal, answered 400.
            try:
                user = auth.require_user(state, req)
            except ApiError as e:
                if e.status != 401:
                    raise
                raise ApiError(400, e.reason, e.message, e.details, e.headers)
            challenge = state.challenges.get(req.params["transaction_id"])
            replayable = "replay-3ds" in state.faults and challenge is not None and challenge["status"] != "Pending"
            if challenge is None or challenge["user_id"] != user.id or not (pending(challenge) or replayable):
                raise ApiError(400, "ErrorNotFound", "3DS request was not found")
            challenge["status"] = decision
            return Response(200, {"transaction_id": challenge["transaction_id"], "status": decision})
        return handler

    R("POST", "/api/v1/cards/3ds/requests/{transaction_id}/approve")(decide("Approved"))
    R("POST", "/api/v1/cards/3ds/requests/{transaction_id}/decline")(decide("Declined"))

    # --- recipients -------------------------------------------------------------------------------
    @R("POST", "/api/v2/recipients")
    def create_recipient(req):
        user = auth.require_user(state, req)
        body = req.json()
        first, last = _str(body, "first_name"), _str(body, "last_name")
        is_business = body.get("is_business", False)
        if not isinstance(is_business, bool):
            raise field_error("ErrorInvalidField", "is_business must be a boolean", "is_business")
        kind = _str(body, "type")
        detail = {"id": new_id("pd"), "type": kind, "currencies": ["EUR"], "card": None, "sepa": None}
        crypto = aliased(body, "recipient_address", "address", False)
        if kind == "Card":
            token = _str(body, "card_token")
            card = state.card_tokens.get(token)
            if card is None:
                raise field_error("ErrorInvalidField", "card_token is not a known card token", "card_token")
            detail["card"] = {"last_four": card["card_number"][-4:], "network": "Visa"}
        elif kind == "Sepa":
            sepa = body.get("sepa")
            if not isinstance(sepa, dict):
                raise field_error("ErrorMissingField", "sepa {iban, bic} is required for a Sepa recipient", "sepa")
            detail["sepa"] = {"iban": _str(sepa, "iban"), "bic": _str(sepa, "bic")}
        elif kind == "Crypto":
            if crypto is None:
                raise field_error("ErrorMissingField", "recipient_address is required", "recipient_address")
            detail["currencies"] = ["USDC"]
        else:
            raise field_error("ErrorInvalidField", "type must be Card, Sepa or Crypto", "type")
        recipient = {"id": new_id("rcp"), "user_id": user.id, "personal_info": {"first_name": first, "last_name": last},
                     "is_business": is_business, "payment_details": [detail],
                     "recipient_address": crypto, "address": crypto, "created_at": state.clock.now_s()}
        state.recipients[recipient["id"]] = recipient
        view = {k: v for k, v in recipient.items() if k != "user_id"}
        state.webhooks.emit("/v2/webhooks/recipients", dict(view, type="RecipientCreated", user_id=user.id))
        return Response(201, view)

    @R("GET", "/api/v2/recipients")
    def list_recipients(req):
        user = auth.require_user(state, req)
        return Response(200, {"data": [{k: v for k, v in r.items() if k != "user_id"}
                                       for r in state.recipients.values() if r["user_id"] == user.id]})

    @R("GET", "/api/v2/recipients/{recipient_id}")
    def get_recipient(req):
        user = auth.require_user(state, req)
        recipient = state.recipients.get(req.params["recipient_id"])
        if recipient is None or recipient["user_id"] != user.id:
            raise ApiError(400, "ErrorNotFound", "Recipient was not found")
        return Response(200, {k: v for k, v in recipient.items() if k != "user_id"})

    # --- card transfer ------------------------------------------------------------------------------
    @R("POST", "/api/v1/cards/transfer/estimate")
    def estimate(req):
        user = auth.require_user(state, req)
        body = req.json()
        pd_id = body.get("payment_details_id") or body.get("recipient_payment_details_id")
        if not isinstance(pd_id, str):
            raise field_error("ErrorMissingField", "payment_details_id is required", "payment_details_id")
        owner = next((r for r in state.recipients.values() if r["user_id"] == user.id
                      and any(d["id"] == pd_id for d in r["payment_details"])), None)
        if owner is None:
            raise field_error("ErrorInvalidField", "payment_details_id is not a payment detail of yours", "payment_details_id")
        amount = str(body.get("amount", ""))
        if not AMOUNT.match(amount) or float(amount) <= 0:
            raise field_error("ErrorInvalidField", "amount must be a positive decimal", "amount")
        est = {"estimation_id": new_id("est"), "user_id": user.id, "payment_details_id": pd_id, "amount": amount,
               "currency": body.get("currency") or "EUR", "used": False, "expires_at": state.clock.now_s() + 600}
        state.estimates[est["estimation_id"]] = est
        rates = [{"token_symbol": "USDC", "rate": "1.0842", "source_amount": f"{float(amount) * 1.0842:.2f}"},
                 {"token_symbol": "EURe", "rate": "1.0000", "source_amount": amount}]
        return Response(200, {"estimation_id": est["estimation_id"], "rates": rates, "expires_at": est["expires_at"]})

    @R("POST", "/api/v1/cards/transfer")
    def execute(req):
        user = auth.require_user(state, req)
        est_id = _str(req.json(), "estimation_id")
        est = state.estimates.get(est_id)
        if est is None or est["user_id"] != user.id or est["used"] or est["expires_at"] <= state.clock.now():
            raise field_error("ErrorInvalidField", "estimation_id is unknown, used or expired", "estimation_id")
        est["used"] = True
        activity = {"id": new_id("act"), "user_id": user.id, "type": "CardTransaction", "direction": "Outbound",
                    "status": "Pending", "amount": est["amount"], "currency": est["currency"],
                    "payment_details_id": est["payment_details_id"], "created_at": state.clock.now_s(),
                    "completed_at": None}
        state.activities[activity["id"]] = activity
        if state.auto_settle:
            timer = threading.Timer(state.auto_settle, lambda: _locked_settle(app, state, activity["id"]))
            timer.daemon = True
            timer.start()
        return Response(201, {"activity_id": activity["id"]})

    # --- activity -------------------------------------------------------------------------------
    def public_activity(a):
        return {k: v for k, v in a.items() if k != "user_id"}

    @R("GET", "/api/v1/activity")
    def feed(req):
        user = auth.require_user(state, req)
        pages = {}
        for name, default, top in (("page_number", 1, 10**6), ("page_size", 20, 100)):
            raw = req.query.get(name, str(default))
            if not raw.isdigit() or not 1 <= int(raw) <= top:
                raise field_error("ErrorInvalidField", f"{name} must be an integer from 1 to {top}", name)
            pages[name] = int(raw)
        items = sorted((a for a in state.activities.values() if a["user_id"] == user.id),
                       key=lambda a: a["created_at"], reverse=True)
        start = (pages["page_number"] - 1) * pages["page_size"]
        return Response(200, {"data": [public_activity(a) for a in items[start:start + pages["page_size"]]],
                              "page_number": pages["page_number"], "page_size": pages["page_size"],
                              "total": len(items)})

    @R("GET", "/api/v1/activity/{activity_id}")
    def activity(req):
        user = auth.require_user(state, req)
        item = state.activities.get(req.params["activity_id"])
        if item is None or item["user_id"] != user.id:
            raise ApiError(400, "ErrorNotFound", "Activity was not found")
        return Response(200, public_activity(item))


def _locked_settle(app, state, activity_id):
    with app.lock:
        settle(state, activity_id)


def register_pci(app, state):
    @app.route("POST", "/b2b/cards/oct")
    def tokenize(req):
        if state.pci_auth == "s2s":
            auth.require_s2s(state, req)
        body = req.json()
        number = str(body.get("card_number") or "").replace(" ", "")
        if not number:
            raise field_error("ErrorMissingField", "card_number is required", "card_number")
        if not number.isdigit() or not 12 <= len(number) <= 19:
            raise field_error("ErrorInvalidField", "card_number must be 12 to 19 digits", "card_number")
        token = "ctok_" + secrets.token_urlsafe(18)
        state.card_tokens[token] = {"card_number": number}
        return Response(201, {"card_token": token})
