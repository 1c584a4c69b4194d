-- ProxyPool admin persistence (docs/architecture.md#storage, docs/design.md#configuration-source): configuration and audit. No per-proxy extraction facts.

-- Bumped by every admin configuration write, in the same transaction: workers and other control
-- plane processes compare it to know a new routing table / snapshot is needed.
CREATE TABLE config_version (
    id         smallint PRIMARY KEY CHECK (id = 1),
    version    bigint NOT NULL CHECK (version >= 0),
    changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO config_version (id, version) VALUES (1, 0);

-- Each entity keeps its YAML block as JSON (doc, "name" included); columns hold what SQL must see.
CREATE TABLE providers (
    name       text PRIMARY KEY,
    type       text NOT NULL,
    doc        jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE upstreams (
    name       text PRIMARY KEY,
    provider   text NOT NULL REFERENCES providers (name) ON DELETE RESTRICT ON UPDATE RESTRICT,
    doc        jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- First match wins: position orders the routings (0-based, dense). Deferred so a move can
-- renumber every row in one transaction.
CREATE TABLE routings (
    name       text PRIMARY KEY,
    position   integer NOT NULL CHECK (position >= 0),
    doc        jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT routings_position_unique UNIQUE (position) DEFERRABLE INITIALLY DEFERRED
);

-- Secrets are stored hashed only: secret_hash is PBKDF2 (proxypool hash-secret), token_hash the
-- SHA-256 hex of the bearer token.
CREATE TABLE clients (
    name                 text PRIMARY KEY,
    secret_hash          text,
    token_hash           text UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    extractions_per_hour integer NOT NULL DEFAULT 0 CHECK (extractions_per_hour >= 0),
    rps                  double precision NOT NULL DEFAULT 0 CHECK (rps >= 0),
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);

-- docs/design.md#sequential-switching: where each sequential routing stands, so it survives restarts.
CREATE TABLE sequential_state (
    routing           text PRIMARY KEY,
    idx               integer NOT NULL CHECK (idx >= 0),
    upstream          text NOT NULL,
    exhausted         boolean NOT NULL,
    consecutive_empty integer NOT NULL CHECK (consecutive_empty >= 0),
    version           bigint NOT NULL CHECK (version >= 0),
    reason            text NOT NULL,
    changed_at        timestamptz NOT NULL
);

-- Self-hosted ProxyNode agents (docs/design.md#security), for later: a pre-issued token (hashed) and liveness.
CREATE TABLE nodes (
    name              text PRIMARY KEY,
    token_hash        text NOT NULL UNIQUE,
    labels            jsonb NOT NULL DEFAULT '{}'::jsonb,
    registered_at     timestamptz NOT NULL DEFAULT now(),
    last_heartbeat_at timestamptz,
    revoked_at        timestamptz
);

-- docs/design.md#configuration-source (K7): who, what, before/after (secrets masked), when. Listed newest first by id.
CREATE TABLE audit_log (
    id          bigserial PRIMARY KEY,
    at          timestamptz NOT NULL,
    actor       text NOT NULL,
    action      text NOT NULL,
    entity_type text NOT NULL,
    entity_name text NOT NULL,
    before      jsonb,
    after       jsonb
);
CREATE INDEX audit_log_entity ON audit_log (entity_type, entity_name, id);
