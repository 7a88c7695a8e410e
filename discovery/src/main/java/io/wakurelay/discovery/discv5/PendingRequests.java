package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * Our requests in flight, at most {@code capacity}, found by request id (for the answer) and by the nonce of their
 * last packet (for a WHOAREYOU, which names the packet it challenges by its nonce). Event-loop confined.
 */
final class PendingRequests {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PendingRequests.class);

    /** FINDNODE's answer is cut at 16 records (the spec's recommended result limit), in at most this many NODES. */
    static final int MAX_NODES_MESSAGES = 8;
    static final int MAX_RECORDS = 16;

    static final class Request {
        final NodeEntry node;
        final Message message;
        final CompletableFuture<Object> result = new CompletableFuture<>();
        byte[] nonce;
        boolean handshakeSent;
        ScheduledFuture<?> timeout;
        final List<Enr> records = new ArrayList<>();
        int nodesMessages;
        int nodesTotal;

        Request(NodeEntry node, Message message) {
            this.node = node;
            this.message = message;
        }

        /**
         * Takes one NODES message of this FINDNODE's answer: its records that verify and lie at a distance asked
         * for, up to {@link #MAX_RECORDS} (a node sending more than asked: the rest is ignored).
         *
         * @return false when the message announces an impossible total (the answer ends with what came)
         */
        boolean collect(Message.FindNode asked, Message.Nodes nodes) {
            if (nodes.total() < 1 || nodes.total() > MAX_NODES_MESSAGES) {
                return false;
            }
            nodesTotal = nodes.total();
            nodesMessages++;
            for (byte[] raw : nodes.enrs()) {
                if (records.size() >= MAX_RECORDS) {
                    break;
                }
                try {
                    Enr record = Enr.decode(raw);
                    if (asked.distances().contains(NodeIds.logDistance(record.nodeId(), node.id()))) {
                        records.add(record);
                    }
                } catch (io.wakurelay.discovery.enr.EnrFormatException e) {
                    LOG.atDebug().addKeyValue("nodeId", NodeIds.hex(node.id())).addKeyValue("address", String.valueOf(node.udp()))
                            .addKeyValue("reason", e.getMessage()).log("discv5: a NODES record does not verify");
                }
            }
            return true;
        }

        /** Whether every NODES message the answer announced has come. */
        boolean nodesComplete() {
            return nodesMessages >= nodesTotal;
        }
    }

    private final int capacity;
    private final Map<String, Request> byRequestId = new HashMap<>();
    private final Map<String, Request> byNonce = new HashMap<>();
    /** Per node (id@endpoint), the request whose packet opened a handshake, and those waiting for it to end. */
    private final Map<String, Request> handshaking = new HashMap<>();
    private final Map<String, java.util.ArrayDeque<Request>> parked = new HashMap<>();
    private int parkedCount;

    PendingRequests(int capacity) {
        this.capacity = capacity;
    }

    boolean isFull() {
        return byRequestId.size() + parkedCount >= capacity;
    }

    /** Whether a handshake with the node is under way (a second one would void the first: park the request). */
    boolean handshaking(NodeEntry node) {
        return handshaking.containsKey(Sessions.key(node.id(), node.udp()));
    }

    void openedHandshake(Request request) {
        handshaking.put(Sessions.key(request.node.id(), request.node.udp()), request);
    }

    void park(Request request) {
        parked.computeIfAbsent(Sessions.key(request.node.id(), request.node.udp()), k -> new java.util.ArrayDeque<>())
                .add(request);
        parkedCount++;
    }

    /** The requests parked behind the node's handshake, taken out (to be sent now that it ended). */
    List<Request> unpark(NodeEntry node) {
        java.util.ArrayDeque<Request> waiting = parked.remove(Sessions.key(node.id(), node.udp()));
        if (waiting == null) {
            return List.of();
        }
        parkedCount -= waiting.size();
        return List.copyOf(waiting);
    }

    void add(Request request, byte[] nonce) {
        byRequestId.put(NodeIds.hex(request.message.requestId()), request);
        renonce(request, nonce);
    }

    void renonce(Request request, byte[] nonce) {
        if (request.nonce != null) {
            byNonce.remove(NodeIds.hex(request.nonce));
        }
        request.nonce = nonce;
        byNonce.put(NodeIds.hex(nonce), request);
    }

    Optional<Request> byNonce(byte[] nonce) {
        return Optional.ofNullable(byNonce.get(NodeIds.hex(nonce)));
    }

    Optional<Request> byRequestId(byte[] requestId) {
        return Optional.ofNullable(byRequestId.get(NodeIds.hex(requestId)));
    }

    void remove(Request request) {
        handshaking.remove(Sessions.key(request.node.id(), request.node.udp()), request);
        byRequestId.remove(NodeIds.hex(request.message.requestId()));
        if (request.nonce != null) {
            byNonce.remove(NodeIds.hex(request.nonce));
        }
        if (request.timeout != null) {
            request.timeout.cancel(false);
        }
    }

    List<Request> all() {
        List<Request> all = new ArrayList<>(byRequestId.values());
        parked.values().forEach(all::addAll);
        return all;
    }

    int size() {
        return byRequestId.size();
    }
}
