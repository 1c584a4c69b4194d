-- Self-hosted ProxyNode agents (docs/design.md#security, X11/X12): registration tokens and registered nodes survive a
-- control-plane restart. Only digests of tokens and credentials are stored, never their plain values.

-- V1's placeholder, never written by any release: replaced by the two tables below.
DROP TABLE nodes;

-- token_digest: base64 of the SHA-256 of the token (256 random bits, so a fast digest suffices).
CREATE TABLE node_tokens (
    name         text PRIMARY KEY,
    token_digest text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- One registered node. Revoking its token deletes it (ON DELETE CASCADE), as it leaves the pool at once.
-- secret_digest: SHA-256 of the node's credential. Liveness is judged on the control plane's clock.
CREATE TABLE node_members (
    node_id               text PRIMARY KEY,
    token_name            text NOT NULL REFERENCES node_tokens (name) ON DELETE CASCADE,
    protocol              text NOT NULL,
    host                  text NOT NULL,
    port                  integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
    labels                jsonb NOT NULL DEFAULT '{}'::jsonb,
    metadata              jsonb NOT NULL DEFAULT '{}'::jsonb,
    max_concurrency       integer NOT NULL CHECK (max_concurrency >= 1),
    weight                integer NOT NULL CHECK (weight >= 1),
    secret_digest         bytea NOT NULL,
    registered_at         timestamptz NOT NULL,
    last_heartbeat        timestamptz NOT NULL,
    credential_expires_at timestamptz NOT NULL
);
CREATE INDEX node_members_token ON node_members (token_name);
