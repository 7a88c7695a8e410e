package io.wakurelay.rln.chain;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The eth clients ({@code --rln-relay-eth-client-address}, in order) and which of them calls go to. A call goes to the
 * current endpoint; when it fails there, the next ones are tried in order, and the first that answers becomes the
 * current one (logged once per switch). So a node keeps using the endpoint that works, and moves on only when it
 * fails. An endpoint's chain is checked ({@code eth_chainId}) before its first call and again after each failure of
 * it: an endpoint on another chain is never read. Every failed call is counted by why. Used by the one thread that
 * reads the chain.
 */
final class Endpoints {
    private static final Logger log = LoggerFactory.getLogger(Endpoints.class);

    /** What a call's return bytes mean; an {@link IllegalArgumentException} makes the answer malformed. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(byte[] returned);
    }

    private final List<URI> uris;
    private final EthRpc rpc;
    private final ChainMetrics metrics;
    private final boolean[] verified;
    private long chainId = -1;
    private int current;

    Endpoints(List<URI> uris, EthRpc rpc, ChainMetrics metrics) {
        if (uris.isEmpty()) {
            throw new IllegalArgumentException("no eth client address");
        }
        this.uris = List.copyOf(uris);
        this.rpc = rpc;
        this.metrics = metrics;
        this.verified = new boolean[uris.size()];
    }

    /**
     * Asks the endpoints in order for {@code eth_chainId}: the first answer. The endpoint that gave it becomes the
     * current one.
     *
     * @throws RpcException when none answered, with each one's failure
     */
    long askChainId() throws RpcException {
        List<String> failures = new ArrayList<>();
        RpcException last = null;
        for (int i = 0; i < uris.size(); i++) {
            try {
                long id = rpc.chainId(uris.get(i));
                current = i;
                return id;
            } catch (RpcException e) {
                metrics.error(e.failure());
                failures.add(describe(uris.get(i)) + ": " + e.failure().text() + " (" + e.getMessage() + ")");
                last = e;
            }
        }
        throw new RpcException(last.failure(), String.join("; ", failures));
    }

    /** From now on, every endpoint must be on this chain; the current one is (it said so). */
    void expectChain(long id) {
        chainId = id;
        java.util.Arrays.fill(verified, false);
        verified[current] = true;
    }

    /** The endpoint calls go to. */
    URI current() {
        return uris.get(current);
    }

    /**
     * {@code eth_call} of {@code callData} to {@code contract}: at the current endpoint, else at the next ones in
     * order; the return bytes decoded.
     *
     * @throws RpcException when every endpoint failed, with each one's failure
     */
    <T> T call(String contract, String callData, Decoder<T> decoder) throws RpcException {
        List<String> failures = new ArrayList<>();
        RpcException last = null;
        int n = uris.size();
        for (int k = 0; k < n; k++) {
            int i = (current + k) % n;
            URI uri = uris.get(i);
            try {
                checkChain(i);
                byte[] returned = rpc.call(uri, contract, callData);
                T value;
                try {
                    value = decoder.decode(returned);
                } catch (IllegalArgumentException e) {
                    throw new RpcException(RpcFailure.MALFORMED, "eth_call of " + callData + ": " + e.getMessage());
                }
                if (i != current) {
                    log.atInfo().addKeyValue("address", describe(uri)).addKeyValue("reason", String.join("; ", failures))
                            .log("RLN: reading the membership contract from another eth client now");
                    current = i;
                }
                return value;
            } catch (RpcException e) {
                metrics.error(e.failure());
                verified[i] = false;
                failures.add(describe(uri) + " failed: " + e.failure().text() + " (" + e.getMessage() + ")");
                last = e;
            }
        }
        throw new RpcException(last.failure(), String.join("; ", failures));
    }

    private void checkChain(int i) throws RpcException {
        if (verified[i] || chainId < 0) {
            return;
        }
        long id = rpc.chainId(uris.get(i));
        if (id != chainId) {
            throw new RpcException(RpcFailure.WRONG_CHAIN, "eth_chainId: chain " + id + ", not " + chainId);
        }
        verified[i] = true;
    }

    /** The endpoints as log lines show them: scheme, host and port only (a path or query may hold an API key). */
    String describeAll() {
        return String.join(", ", uris.stream().map(Endpoints::describe).toList());
    }

    /** An endpoint as log lines and errors show it: scheme, host and port, never its user, path or query. */
    static String describe(URI uri) {
        String host = uri.getHost() == null ? "?" : uri.getHost();
        return uri.getScheme() + "://" + host + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }
}
