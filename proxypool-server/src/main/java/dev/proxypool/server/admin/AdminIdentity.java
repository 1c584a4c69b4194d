package dev.proxypool.server.admin;

import io.helidon.webserver.http.ServerRequest;

/**
 * Who is calling the admin API: a named operator, or the bootstrap identity of {@code admin.token}
 * (named {@value AdminService#ACTOR}, role admin). {@link AdminService} registers it in the
 * request's context once the token is checked; the resources read it for the audit row's actor.
 *
 * @param bootstrap whether this is {@code admin.token}'s identity rather than a stored operator
 */
record AdminIdentity(String name, OperatorRole role, boolean bootstrap) {

    static final AdminIdentity BOOTSTRAP = new AdminIdentity(AdminService.ACTOR, OperatorRole.ADMIN, true);

    /** The caller of {@code req}, as {@link AdminService} identified it. */
    static AdminIdentity of(ServerRequest req) {
        return req.context()
                .get(AdminIdentity.class)
                .orElseThrow(() -> new IllegalStateException("admin request without an identity"));
    }

    /** The audit actor of {@code req}: the operator's name. */
    static String actor(ServerRequest req) {
        return of(req).name();
    }

    boolean viewer() {
        return role == OperatorRole.VIEWER;
    }
}
