#!/usr/bin/env python3
"""An independent Partner API sandbox (Python 3.11, standard library only).

Prints one JSON line with its URLs and credentials, then serves until killed:
  python3 sandbox.py [--port 0] [--pci-port 0] [--webhook-base-url URL] [--fault drop-alias]
                     [--tls-cert PEM --tls-key PEM]
"""
import argparse
import json
import os
import ssl
import subprocess
import sys
import threading

sys.dont_write_bytecode = True  # leave no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import api  # noqa: E402
import bank  # noqa: E402
import money  # noqa: E402
import sim  # noqa: E402
from state import State  # noqa: E402
from web import App, serve  # noqa: E402

# Deliberate non-conformances, one sentence of the spec each (see TRIAL.md).
FAULTS = ("drop-alias", "chain-field", "replay-3ds", "token-24h", "first-user-header", "reopen-card", "no-delay")


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--pci-port", type=int, default=0)
    p.add_argument("--webhook-base-url")
    p.add_argument("--rate-limit-per-ip", type=int, default=30)
    p.add_argument("--rate-limit-per-client", type=int, default=70)
    p.add_argument("--rate-limit-window", type=int, default=10)
    p.add_argument("--auto-settle-seconds", type=float, default=0)
    p.add_argument("--pci-auth", choices=("s2s", "none"), default="s2s",
                   help="how the card-tokenization environment authenticates (default: the section 5 S2S token)")
    p.add_argument("--exclude-none", action="store_true",
                   help="leave fields whose value is None out of answers and webhooks (default: null, FastAPI's default)")
    p.add_argument("--pydantic-422", action="store_true",
                   help="answer request-validation errors no section 7 row or rule fixes with Pydantic's 422 (section 7 body)")
    p.add_argument("--iso-timestamps", action="store_true",
                   help="withdrawal valid_after/requested_at as ISO 8601 (Pydantic datetime) instead of Unix seconds")
    p.add_argument("--log-errors", action="store_true", help="print every 4xx/5xx exchange as a JSON line on stderr")
    p.add_argument("--fault", action="append", choices=FAULTS)
    p.add_argument("--tls-cert")
    p.add_argument("--tls-key")
    p.add_argument("--tls-dir", help="serve HTTPS under a CA made now with the openssl CLI, written to this directory")
    return p.parse_args(argv)


def make_certificates(directory):
    """A private CA and a certificate for 127.0.0.1 signed by it (openssl CLI); returns (ca, cert, key) paths."""
    os.makedirs(directory, exist_ok=True)
    path = lambda name: os.path.join(directory, name)  # noqa: E731
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    with open(path("leaf.ext"), "w") as ext:
        ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
                  "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n")
    steps = [
        ["req", "-x509", *ec, "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2",
         "-subj", "/CN=python-sandbox test CA", "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
        ["req", *ec, "-keyout", path("leaf.key"), "-out", path("leaf.csr"), "-subj", "/CN=127.0.0.1"],
        ["x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
         "-CAcreateserial", "-out", path("leaf.pem"), "-days", "2", "-extfile", path("leaf.ext")],
    ]
    for step in steps:
        subprocess.run(["openssl", *step], check=True, capture_output=True, timeout=30)
    os.remove(path("ca.key"))
    return path("ca.pem"), path("leaf.pem"), path("leaf.key")


def tls_context(opts):
    if opts.tls_dir:
        opts.ca_file, opts.tls_cert, opts.tls_key = make_certificates(opts.tls_dir)
    if not opts.tls_cert:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2  # section 8: TLS 1.2 or newer; older handshakes are closed
    ctx.load_cert_chain(opts.tls_cert, opts.tls_key)
    return ctx


def main(argv):
    opts = parse(argv)
    state = State(opts)
    main_app, pci_app = App("partner-api"), App("card-tokenization")
    api.register(main_app, state)
    money.register(main_app, state)
    bank.register(main_app, state)
    sim.register(main_app, state)
    pci_app.lock = main_app.lock
    main_app.exclude_none = pci_app.exclude_none = state.webhooks.exclude_none = opts.exclude_none
    main_app.pydantic_422 = pci_app.pydantic_422 = opts.pydantic_422
    main_app.log_errors = pci_app.log_errors = opts.log_errors
    money.register_pci(pci_app, state)
    ctx = tls_context(opts)
    scheme = "https" if ctx else "http"
    server = serve(main_app, opts.port, ctx)
    pci = serve(pci_app, opts.pci_port, ctx)
    base = f"{scheme}://127.0.0.1:{server.server_address[1]}"
    companies = state.companies
    print(json.dumps({
        "base_url": base,
        "pci_url": f"{scheme}://127.0.0.1:{pci.server_address[1]}",
        "sandbox_api": {"url": base + "/sandbox/v1", "api_key": state.sandbox_key},
        "clients": [{"client_id": c.client_id, "client_secret": c.secret, "label": c.label} for c in companies[:2]],
        "special_clients": {
            "no_secret": {"client_id": companies[2].client_id, "client_secret": "anything"},
            "company_type_restricted": {"client_id": companies[3].client_id, "client_secret": companies[3].secret}},
        "s2s_signing_secret": state.s2s_secret,
        "user_token_signing_secret": state.user_secret,
        "chain_id": "84532",
        "rate_limit": dict(state.rate),
        "faults": sorted(state.faults),
        "ca_file": getattr(opts, "ca_file", None),
    }), flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        pass
