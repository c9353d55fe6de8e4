// The target profile: everything the suites need to know about one implementation that the spec
// does not say (paths it marks "not shown", credentials, control hooks). `baas-conform serve`
// prints one as its first stdout line; `run --profile FILE` reads one.

export interface ClientCredentials {
  client_id: string;
  client_secret: string;
  /** Free label shown in reports (never the secret). */
  label?: string;
}

export interface OperationLocation {
  method: string;
  /** Path with `{param}` placeholders, relative to base_url (or pci_url for server=pci). */
  path: string;
}

/** What an operation the spec shows no authentication for is sent with (spec/openapi.yaml x-auth-unspecified). */
export type OperationAuthMode = 'none' | 's2s' | 'user' | 'headers';

export interface OperationAuth {
  /** none: nothing; s2s: Bearer S2S token of clients[client]; user: Bearer user token + X-Chain-Id; headers: `headers` as given. */
  mode: OperationAuthMode;
  /** s2s: index of the profile client whose token is sent (default 0). */
  client?: number;
  /** headers: name -> value; `{{env.NAME}}` is read from the environment at load. Secret: masked. */
  headers?: Record<string, string>;
}

export interface TargetProfile {
  name?: string;
  base_url: string;
  /** Card-tokenization environment; checks needing it are skipped when absent. */
  pci_url?: string;
  /** Test-control API (spec/control.yaml); checks needing it are skipped when absent. */
  control_url?: string;
  /**
   * PEM file of the private CA that signed the target's TLS certificate (https sandbox with a private
   * CA; `serve --tls` writes one). Trusted for this target's origins only, besides the public roots.
   */
  ca_file?: string;
  /** Control adapter file (YAML/JSON) or module mapping control operations onto a vendor's sandbox calls; wins over control_url. */
  control_adapter?: string;
  /** External webhook receiver (the vendor's dashboard holds the webhook URL). */
  webhooks?: { listen: string; public_url: string; max_deliveries?: number; max_total_bytes?: number };
  /** Existing users in states the checks cannot create without a control operation. */
  fixtures?: {
    three_ds_pending?: { user_id: string; transaction_id?: string };
    withdrawal_pending?: { user_id: string };
    /** User id per SepaAccount status. */
    sepa?: Record<string, string>;
  };
  /** Numeric chain id sent as X-Chain-Id on user calls. Default "84532" (the sandbox chain). */
  chain_id?: string;
  /** At least two clients of two different companies (company isolation needs two). */
  clients: ClientCredentials[];
  /** Clients that provoke the token-endpoint rows that need special configuration. */
  special_clients?: {
    /** A client with no secret configured ("Client credentials access is not enabled ..."). */
    no_secret?: ClientCredentials;
    /** A client whose company type may not use client credentials (ErrorNotSupported). */
    company_type_restricted?: ClientCredentials;
  };
  /** HMAC secret the target signs S2S tokens with; lets the suite forge tokens. Secret: masked. */
  s2s_signing_secret?: string;
  /** HMAC secret for user tokens, when they are HMAC JWTs. Lets the suite forge malformed user tokens. */
  user_token_signing_secret?: string;
  /**
   * Identity-provider settings. The engine runs a test identity provider and registers its JWKS URL
   * and app id with the target through the control adapter (setIdpConfig), or, without that operation,
   * signs with the stable key the partner registered out of band (app_id + signing_key + jwks_url). `linked_accounts_format` documents
   * the identity-token shape the target expects (the spec names type/address/chain_type only).
   */
  idp?: {
    enabled: boolean;
    /** Provider app id the vendor was configured with out of band (no setIdpConfig control operation). */
    app_id?: string;
    /** Stable private JWK (ES256) whose public half the vendor trusts. Secret: masked. */
    signing_key?: Record<string, unknown>;
    /** File holding that private JWK (resolved against the profile file). */
    signing_key_file?: string;
    issuer?: string;
    /** Real provider tokens of one user, for the positive cases where the target does not trust our key. Secret: masked. */
    tokens?: { access_token: string; identity_token: string };
    /** host:port where the engine serves the JWKS. */
    jwks_listen?: string;
    /** Public URL of the JWKS, as registered with the vendor. */
    jwks_url?: string;
  };
  /** Locations of operations whose paths the spec does not show, keyed by operationId. */
  operations?: Record<string, OperationLocation>;
  /** Paths of webhooks the spec does not show (bank_account, wallets, balances, card_limit). */
  webhook_paths?: Record<string, string>;
  /** Bounds that protect shared sandboxes. */
  rate_limit?: {
    /** Upper bound on requests the rate-limit check may send to the token endpoint (default 400). */
    max_probe_requests?: number;
    /** Upper bound on how long the rate-limit check floods the token endpoint, in seconds (default 20). */
    max_probe_seconds?: number;
    /** How long the rate-limit check backs off waiting for a 2xx again, in seconds (default 60). */
    recovery_seconds?: number;
    /**
     * The target's documented token limits (section 8: "limited per IP and per client", numbers not
     * shown): at most `per_ip` token requests from one address and `per_client` for one client per
     * `window_seconds`. All three given, limits.token.rate-limit-split requires each limit to hold apart
     * from the other (loopback targets only); otherwise that check skips.
     */
    per_ip?: number;
    per_client?: number;
    window_seconds?: number;
  };
  /**
   * How long checks wait for a webhook the target emits on its own schedule (activity, bank account).
   * Default 20000 ms when the control API settles the event at once, else 90000 ms (under the default 120 s per-check limit); bounded 1000..600000. A larger value raises the per-check limit to it plus 30 s.
   */
  webhook_timeout_ms?: number;
  /**
   * Section 8: "ERC-20 withdrawal delay between request and execution: minimum about 3 seconds in
   * sandbox, longer in production". The least valid_after - request time (seconds) read as "about 3 s"
   * (default 2). No upper bound: production may be longer.
   */
  withdrawal_delay_min_seconds?: number;
  /** Query parameter name of GET /api/v1/wallet that selects a wallet by ID (not shown by the spec). */
  wallet_id_param?: string;
  /**
   * Answer fields whose presence, type or value changes between calls by design on this target:
   * `baas-conform compare` does not report them (src/compare/volatile.ts). A field name (any depth),
   * a JSON path (`$.balances[].balance`), either optionally prefixed by `operationId:`.
   */
  volatile_fields?: string[];
  /**
   * Request bodies the spec does not show, keyed by operationId: merged (shallow) over the driver's
   * default body; a null value removes a field. Defaults are listed in spec/schemas/profile.schema.json.
   */
  request_templates?: Record<string, Record<string, unknown>>;
  /**
   * How the operations whose authentication the spec does not show authenticate here, keyed by
   * operationId (only x-auth-unspecified operations; checked at load). Absent: mode none.
   */
  operation_auth?: Record<string, OperationAuth>;
}

/** A profile after defaults were filled in: trusted inside the engine. */
export interface ResolvedProfile extends TargetProfile {
  chain_id: string;
  operations: Record<string, OperationLocation>;
}
