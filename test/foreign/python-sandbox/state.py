"""In-memory sandbox state: companies, users, wallets, cards, recipients, activities, the simulated clock."""
import json
import queue
import secrets
import threading
import time
import urllib.request
import uuid

SEPA_STATUSES = ["ActivationNotStarted", "ExternalProviderVerificationRequired",
                 "ExternalProviderRegistrationPending", "InProgress", "Active"]


def new_id(prefix):
    return f"{prefix}_{secrets.token_hex(10)}"


def eth_address():
    return "0x" + secrets.token_hex(20)


class Clock:
    """Real time plus an offset the sandbox API can move forward (and reset)."""

    def __init__(self):
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def now_s(self) -> int:
        return int(self.now())


class Company:
    def __init__(self, label, client_id, secret, company_type="partner"):
        self.id = str(uuid.uuid4())
        self.label = label
        self.client_id = client_id
        self.secret = secret  # None: client credentials not enabled
        self.type = company_type
        self.idp_app_id = None
        self.idp_jwks_url = None


class User:
    def __init__(self, company, email, country, address):
        self.id = str(uuid.uuid4())
        self.company_id = company.id
        self.email = email
        self.country = country
        self.address = address
        self.idp_subject = None
        self.created_at = int(time.time())
        self.sepa_status = "ActivationNotStarted"
        self.wallets = [{"id": new_id("wal"), "wallet_address": eth_address(), "role": "Primary",
                         "chain_id": 84532, "is_global": False}]
        self.pending_challenge = None

    def primary_wallet(self):
        return next((w for w in self.wallets if w["role"] == "Primary"), None)

    def public(self):
        return {"id": self.id, "user_id": self.id, "user_address": self.address,
                "wallet_address": self.address, "email": self.email, "country": self.country,
                "created_at": self.created_at}


class Webhooks:
    """Delivers JSON by POST to base_url + path from one background thread, three attempts each."""

    def __init__(self, base_url=None):
        self.base_url = base_url
        self.exclude_none = False
        self.queue = queue.Queue(maxsize=10000)
        threading.Thread(target=self._run, daemon=True).start()

    def emit(self, path, payload):
        if not self.base_url:
            return
        body = dict(payload, event_id=str(uuid.uuid4()))
        if self.exclude_none:
            from web import strip_none
            body = strip_none(body)
        try:
            self.queue.put_nowait((self.base_url.rstrip("/") + path, body))
        except queue.Full:
            pass

    def _run(self):
        while True:
            url, body = self.queue.get()
            data = json.dumps(body).encode()
            for attempt in range(3):
                try:
                    req = urllib.request.Request(url, data=data, method="POST",
                                                 headers={"content-type": "application/json",
                                                          "user-agent": "python-sandbox-webhooks/1.0"})
                    with urllib.request.urlopen(req, timeout=5) as res:
                        if res.status < 500:
                            break
                except Exception:
                    time.sleep(0.3 * (attempt + 1))


class State:
    def __init__(self, opts):
        self.clock = Clock()
        self.faults = set(opts.fault or [])
        self.s2s_secret = secrets.token_urlsafe(32)
        self.user_secret = secrets.token_urlsafe(32)
        self.sandbox_key = "sbx_" + secrets.token_urlsafe(24)
        self.issuer = "https://auth.python-sandbox.test"
        self.companies = [Company("company-a", str(uuid.uuid4()), secrets.token_urlsafe(18)),
                          Company("company-b", str(uuid.uuid4()), secrets.token_urlsafe(18)),
                          Company("company-no-secret", str(uuid.uuid4()), None),
                          Company("company-retail", str(uuid.uuid4()), secrets.token_urlsafe(18), "retail")]
        self.users = {}
        self.cards = {}
        self.card_tokens = {}
        self.recipients = {}
        self.challenges = {}
        self.estimates = {}
        self.activities = {}
        self.withdrawals = {}
        self.bank_accounts = {}
        self.webhooks = Webhooks(opts.webhook_base_url)
        self.rate = {"per_ip": opts.rate_limit_per_ip, "per_client": opts.rate_limit_per_client,
                     "window_seconds": opts.rate_limit_window}
        self.rate_hits = {}
        self.auto_settle = opts.auto_settle_seconds
        self.pci_auth = opts.pci_auth
        self.iso_timestamps = opts.iso_timestamps

    def company(self, company_id):
        return next((c for c in self.companies if c.id == company_id), None)

    def company_by_client(self, client_id):
        return next((c for c in self.companies if c.client_id == client_id), None)

    def find_user(self, company_id, *, user_id=None, email=None, address=None):
        for user in self.users.values():
            if user.company_id != company_id:
                continue
            if user_id is not None and user.id == user_id:
                return user
            if email is not None and user.email.lower() == email.lower():
                return user
            if address is not None and user.address.lower() == address.lower():
                return user
        return None

    def rate_limited(self, key, limit):
        """Sliding window on the sandbox clock; returns seconds to wait, or 0."""
        now = self.clock.now()
        window = self.rate["window_seconds"]
        # 0 <= age: a reset clock (back to real time) must not leave hits stamped in its future counting
        hits = [t for t in self.rate_hits.get(key, []) if 0 <= now - t < window]
        if len(hits) >= limit:
            self.rate_hits[key] = hits
            return max(1, int(window - (now - hits[0])) + 1)
        hits.append(now)
        self.rate_hits[key] = hits
        return 0
