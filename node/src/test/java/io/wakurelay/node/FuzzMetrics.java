package io.wakurelay.node;

import java.util.Map;

/**
 * Where each kind of attack of {@link HostileRelaySteps}, {@link FuzzPeer} and {@link P2pAttacker} shows in a node's
 * metrics: a metric name and the labels that say the reason, or several such selectors separated by {@code |}, any
 * of which may show it. Kinds that are not attacks (a valid message, subscriptions) have none.
 */
final class FuzzMetrics {
    static final Map<String, String> SHOWN_BY = Map.ofEntries(
            Map.entry("DUPLICATE", "libp2p_gossipsub_duplicate_total"),
            Map.entry("MALFORMED_MESSAGE", "waku_relay_messages_invalid_total{reason=\"malformed_message\""),
            Map.entry("MISSING_CONTENT_TOPIC", "waku_relay_messages_invalid_total{reason=\"missing_content_topic\""),
            Map.entry("META_TOO_LARGE", "waku_relay_messages_invalid_total{reason=\"meta_too_large\""),
            Map.entry("OVERSIZED_MESSAGE", "waku_relay_messages_invalid_total{reason=\"message_too_large\""),
            Map.entry("SIGNED_MESSAGE", "waku_relay_messages_invalid_total{reason=\"signed_message\""),
            Map.entry("UNKNOWN_TOPIC_MESSAGE", "waku_relay_messages_invalid_total{reason=\"not_subscribed\""),
            Map.entry("MALFORMED_RPC", "waku_relay_messages_invalid_total{reason=\"malformed_rpc\""),
            Map.entry("OVERSIZED_FRAME", "waku_relay_messages_invalid_total{reason=\"rpc_too_large\""),
            Map.entry("TRUNCATED_FRAME", "waku_relay_inbound_stream_resets_total{reason=\"rpc_read_timeout\""),
            Map.entry("GRAFT_KNOWN", "libp2p_gossipsub_control_received_total{kind=\"graft\""),
            Map.entry("PRUNE_KNOWN", "libp2p_gossipsub_control_received_total{kind=\"prune\""),
            Map.entry("GRAFT_UNKNOWN", "waku_relay_control_ignored_total{kind=\"graft\",reason=\"unknown_topic\""),
            Map.entry("PRUNE_UNKNOWN", "waku_relay_control_ignored_total{kind=\"prune\",reason=\"unknown_topic\""),
            Map.entry("IHAVE_FLOOD", "waku_relay_control_ignored_total{kind=\"ihave\""),
            Map.entry("IWANT_FLOOD", "waku_relay_control_ignored_total{kind=\"iwant\",reason=\"heartbeat_limit\""),
            Map.entry("IDONTWANT_FLOOD", "waku_relay_control_ignored_total{kind=\"idontwant\""),
            Map.entry("CONTROL_FLOOD", "waku_relay_control_ignored_total{kind=\"graft\",reason=\"rpc_limit\""),
            Map.entry("SLOW_READER", "waku_relay_peer_drops_total{kind=\"message\""),
            // issue 43's p2p rows (P2pAttacker): pruned or evicted; pongs bounded and the socket closed; refused
            Map.entry("SQUATTER", "libp2p_disconnects_total{reason=\"unidentified\""
                    + "|libp2p_disconnects_total{reason=\"evicted\""),
            Map.entry("WS_PING_FLOOD", "libp2p_handshakes_total{outcome=\"timeout\",transport=\"wss\""
                    + "|libp2p_handshakes_total{outcome=\"write_stalled\",transport=\"wss\""),
            Map.entry("TLS_RENEGOTIATION", "libp2p_websocket_tls_renegotiations_refused_total"),
            // N3 (SideAttacks in system-tests): junk from one address, held to its budget and the challenge rate
            Map.entry("DISCV5_JUNK", "waku_discv5_dropped_total{reason=\"rate_limited\""
                    + "|waku_discv5_dropped_total{reason=\"whoareyou_rate\""));

    private FuzzMetrics() {
    }

    /** The sum of the samples {@link #sum} finds for each of the {@code |}-separated selectors of {@code shownBy}. */
    static double shown(String exposition, String shownBy) {
        double total = 0;
        for (String selector : shownBy.split("\\|")) {
            total += sum(exposition, selector);
        }
        return total;
    }

    /**
     * The sum of every sample of a Prometheus text exposition whose line starts with {@code selector}: a metric name,
     * or a name and the first of its labels written as the exposition writes them ({@code name{label="value"}).
     */
    static double sum(String exposition, String selector) {
        double sum = 0;
        for (String line : exposition.split("\n")) {
            if (line.startsWith(selector) && (selector.contains("{") || line.startsWith(selector + "{")
                    || line.startsWith(selector + " "))) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
