#!/usr/bin/env python3
"""Turns the sandbox's first stdout line into a baas-conform target profile and the adapter's env lines.

  python3 sandbox.py > /tmp/py/line.json &  python3 make-profile.py /tmp/py/line.json /tmp/py/profile.json
"""
import json
import os
import sys

OPERATIONS = {
    "approve3ds": {"method": "POST", "path": "/api/v1/cards/3ds/requests/{transaction_id}/approve"},
    "decline3ds": {"method": "POST", "path": "/api/v1/cards/3ds/requests/{transaction_id}/decline"},
    "listActivity": {"method": "GET", "path": "/api/v1/activity"},
    "getActivity": {"method": "GET", "path": "/api/v1/activity/{activity_id}"},
    "activateCard": {"method": "POST", "path": "/api/v1/cards/{card_id}/activate"},
    "blockCard": {"method": "POST", "path": "/api/v1/cards/{card_id}/block"},
    "unblockCard": {"method": "POST", "path": "/api/v1/cards/{card_id}/unblock"},
    "closeCard": {"method": "POST", "path": "/api/v1/cards/{card_id}/close"},
    "listBankAccounts": {"method": "GET", "path": "/api/v1/bank/accounts"},
    "listRecipients": {"method": "GET", "path": "/api/v2/recipients"},
    "getRecipient": {"method": "GET", "path": "/api/v2/recipients/{recipient_id}"},
}


def profile(line, adapter):
    return {
        "name": "python-sandbox",
        "base_url": line["base_url"],
        "pci_url": line["pci_url"],
        "chain_id": line["chain_id"],
        "clients": line["clients"],
        "special_clients": line["special_clients"],
        "s2s_signing_secret": line["s2s_signing_secret"],
        "user_token_signing_secret": line["user_token_signing_secret"],
        "control_adapter": adapter,
        "operations": OPERATIONS,
        "webhook_paths": {"bank_account": "/v2/webhooks/bank-accounts", "wallets": "/v2/webhooks/wallets",
                          "balances": "/v2/webhooks/balances"},
        "wallet_id_param": "wallet_id",
        "rate_limit": line["rate_limit"],
        "idp": {"enabled": True},
        # The card-tokenization environment takes the section 5 S2S token (the spec shows no headers for it).
        "operation_auth": {"tokenizeCard": {"mode": "s2s"}},
        **({"ca_file": line["ca_file"]} if line.get("ca_file") else {}),
    }


if __name__ == "__main__":
    line = json.load(open(sys.argv[1]))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(sys.argv[2], "w") as out:
        json.dump(profile(line, os.path.join(here, "adapter.mjs")), out, indent=2)
    print(f"export PYSANDBOX_API_URL={line['sandbox_api']['url']} PYSANDBOX_API_KEY={line['sandbox_api']['api_key']}")
