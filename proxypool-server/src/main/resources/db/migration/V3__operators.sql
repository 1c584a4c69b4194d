-- Named operators (docs/api.md, Admin API): admin API identities, each with a role ('admin' read-write, 'viewer'
-- read-only) and its own bearer token. Only the SHA-256 digest (hex) of a token is stored, never the token; the
-- audit log names the operator. The bootstrap identity of admin.token is not a row here.
CREATE TABLE operators (
    name         text PRIMARY KEY,
    role         text NOT NULL CHECK (role IN ('admin', 'viewer')),
    token_digest text NOT NULL UNIQUE CHECK (token_digest ~ '^[0-9a-f]{64}$'),
    created_at   timestamptz NOT NULL,
    created_by   text NOT NULL
);
