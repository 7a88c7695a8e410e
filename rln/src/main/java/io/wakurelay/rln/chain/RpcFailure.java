package io.wakurelay.rln.chain;

import java.util.Locale;

/**
 * Why a JSON-RPC call to an eth client failed: the {@code reason} label of {@code waku_rln_rpc_errors_total}, and the
 * words of the log line and of {@link MembershipRoots#health()}.
 */
enum RpcFailure {
    /** No connection, or it broke: refused, reset, closed before the answer, a name that does not resolve, TLS. */
    CONNECTION("the connection failed"),
    /** No whole answer within the call's timeout. */
    TIMEOUT("no answer in time"),
    /** An HTTP status other than 200. */
    HTTP_STATUS("an HTTP error status"),
    /** An answer longer than the bound. */
    TOO_LARGE("an answer over the size bound"),
    /** Not a JSON-RPC 2.0 answer to the request, or a result that is not what the call returns. */
    MALFORMED("a malformed answer"),
    /** A JSON-RPC error object (a reverted call, a method the endpoint does not serve, a rate limit). */
    RPC_ERROR("a JSON-RPC error"),
    /** {@code eth_call} returned no bytes: no contract at the address (or none with the function) on that chain. */
    NO_CONTRACT("no contract answering at the address"),
    /** The endpoint is on another chain than the one the start found or was told. */
    WRONG_CHAIN("another chain");

    private final String text;

    RpcFailure(String text) {
        this.text = text;
    }

    /** The metric label. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** A few words for log lines and the health view. */
    String text() {
        return text;
    }
}
