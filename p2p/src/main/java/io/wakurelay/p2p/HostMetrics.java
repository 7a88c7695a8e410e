package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.Transport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.p2p.mux.MuxerEvents;
import io.wakurelay.p2p.mux.MuxerException;
import io.wakurelay.p2p.noise.AeadSelection;
import io.wakurelay.p2p.noise.ChaChaPoly;
import io.wakurelay.p2p.noise.NoiseCounters;
import io.wakurelay.p2p.ws.WebSocketEvents;
import io.wakurelay.p2p.ws.WebSocketException;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The host's meters (docs/metrics.md, "p2p"). Labelled counters are made on first use; their label values come from
 * small fixed sets (reasons, outcomes, directions) or from the protocols this host speaks, never from peers.
 */
final class HostMetrics implements NoiseCounters {
    private final MeterRegistry registry;
    private final Map<Transport, Counter> bytesIn = new EnumMap<>(Transport.class);
    private final Map<Transport, Counter> bytesOut = new EnumMap<>(Transport.class);
    private final Counter encrypted;
    private final Counter decrypted;
    private final Timer pingRtt;
    private final Map<String, AtomicInteger> connections = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> streams = new ConcurrentHashMap<>();
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    HostMetrics(MeterRegistry registry, Supplier<Number> peers) {
        this.registry = registry;
        Gauge.builder("libp2p.peers", peers).description("peers with an open connection").register(registry);
        for (Transport t : Transport.values()) {
            bytesIn.put(t, Counter.builder("libp2p.network.bytes").tag("direction", "in").tag("transport", t.label())
                    .description("bytes read from and written to peer sockets (encrypted)").baseUnit("bytes")
                    .register(registry));
            bytesOut.put(t, Counter.builder("libp2p.network.bytes").tag("direction", "out").tag("transport", t.label())
                    .description("bytes read from and written to peer sockets (encrypted)").baseUnit("bytes")
                    .register(registry));
        }
        encrypted = Counter.builder("libp2p.noise.bytes").tag("operation", "encrypt")
                .description("plaintext bytes through the Noise ciphers").baseUnit("bytes").register(registry);
        decrypted = Counter.builder("libp2p.noise.bytes").tag("operation", "decrypt")
                .description("plaintext bytes through the Noise ciphers").baseUnit("bytes").register(registry);
        pingRtt = Timer.builder("libp2p.ping.rtt").description("round trip of /ipfs/ping/1.0.0 to connected peers")
                .register(registry);
        // the common label values exist from the start, so dashboards show 0 rather than no data
        for (Transport t : Transport.values()) {
            for (String direction : new String[]{"inbound", "outbound"}) {
                for (String muxer : HostConfig.SUPPORTED_MUXERS) {
                    connectionGauge(direction, muxer, t);
                }
            }
            HANDSHAKE_OUTCOMES.forEach(o -> counter(HANDSHAKES, "outcome", o, t));
            REJECTION_REASONS.forEach(r -> counter(REJECTED, "reason", r, t));
            DIAL_OUTCOMES.forEach(o -> counter(DIALS, "outcome", o, t));
        }
        bindNimLibp2pDials();
        DISCONNECT_REASONS.forEach(r -> counter(DISCONNECTS, "reason", r));
        WebSocketEvents.REFUSAL_REASONS.forEach(r -> counter(WEBSOCKET_REFUSED, "reason", r));
        counter(REPLIES_DROPPED, "reply", WEBSOCKET_PONG);
        MuxerEvents.REFUSAL_REASONS.forEach(r -> counter(STREAMS_REFUSED, "reason", r));
        counter(STREAMS_REFUSED, "reason", PingService.TOO_MANY_STREAMS);
        MuxerEvents.DROPPED_REPLIES.forEach(r -> counter(REPLIES_DROPPED, "reply", r));
        counter(REPLIES_DROPPED, "reply", IdentifyService.DROPPED_REPLY);
        MuxerEvents.READ_PAUSE_REASONS.forEach(r -> counter(READ_PAUSES, "reason", r));
        NEGOTIATION_FAILURES.forEach(r -> counter(NEGOTIATIONS_FAILED, "reason", r));
        renegotiationsRefused = Counter.builder("libp2p.websocket.tls.renegotiations.refused")
                .description("TLS renegotiations a /wss client asked for, refused by closing its connection")
                .register(registry);
        overflowed = Counter.builder("libp2p.streams.overflowed")
                .description("mplex streams reset because their paused reader buffered too much").register(registry);
    }

    private static final String HANDSHAKES = "libp2p.handshakes";
    private static final String REJECTED = "libp2p.connections.rejected";
    private static final String DISCONNECTS = "libp2p.disconnects";
    private static final String DIALS = "libp2p.dials";
    private static final String STREAMS_REFUSED = "libp2p.streams.refused";
    private static final String NEGOTIATIONS_FAILED = "libp2p.stream.negotiations.failed";
    private static final String REPLIES_DROPPED = "libp2p.replies.dropped";
    private static final String READ_PAUSES = "libp2p.read.pauses";
    private static final String WEBSOCKET_REFUSED = "libp2p.websocket.requests.refused";
    private static final String WEBSOCKET_PONG = "websocket_pong";
    private final Counter renegotiationsRefused;
    private static final List<String> WEBSOCKET_VIOLATIONS = List.of(WebSocketException.TEXT_FRAME,
            WebSocketException.FRAME_TOO_LARGE, WebSocketException.PROTOCOL_ERROR);
    private static final List<String> HANDSHAKE_OUTCOMES = List.of("success", "timeout",
            FirstBytesDeadline.OUTCOME, UpgradeLifecycle.EVICTED, "negotiation_failed", "noise_failed",
            UpgradeLifecycle.KEY_REFUSED, "wrong_peer_id", "closed", "io_error", "error", UpgradeLifecycle.TLS_FAILED,
            ConnectionUpgrader.WRITE_STALLED, WebSocketException.TLS_RENEGOTIATION,
            WebSocketException.UPGRADE_FAILED, WebSocketException.TEXT_FRAME, WebSocketException.FRAME_TOO_LARGE,
            WebSocketException.PROTOCOL_ERROR);
    private static final List<String> REJECTION_REASONS = List.of("too_many_connections",
            "too_many_from_address", "too_many_from_subnet", "shutting_down", "duplicate");
    private static final List<String> DISCONNECT_REASONS = List.of("closed_by_peer", "closed_locally",
            "ping_timeout", "duplicate", "shutting_down", "peer_removed", "io_error", "protocol_error",
            ConnectionUpgrader.WRITE_STALLED, ConnectionTrimmer.UNIDENTIFIED, ConnectionTrimmer.NO_SHARED_PROTOCOL,
            ConnectionTrimmer.IDLE, ConnectionTrimmer.EVICTED, WebSocketException.TLS_RENEGOTIATION,
            WebSocketException.TEXT_FRAME, WebSocketException.FRAME_TOO_LARGE,
            WebSocketException.PROTOCOL_ERROR);
    private static final List<String> DIAL_OUTCOMES = List.of("success", "connect_failed",
            "handshake_failed", "no_slot", "refused");
    private static final List<String> NEGOTIATION_FAILURES = List.of("timeout", "not_supported", "malformed");
    private final Counter overflowed;
    private static final Map<String, String> DESCRIPTIONS = Map.of(
            HANDSHAKES, "connection upgrades (security and muxer negotiation) by outcome",
            REJECTED, "connections refused before their handshake, by reason",
            DISCONNECTS, "established connections that ended, by reason",
            DIALS, "dials by outcome",
            STREAMS_REFUSED, "streams the peer opened that were reset at once, by reason",
            NEGOTIATIONS_FAILED, "stream protocol negotiations that failed, by reason",
            REPLIES_DROPPED, "replies to a peer not written because its connection could not take them, by reply",
            READ_PAUSES, "times a connection stopped being read, by reason",
            WEBSOCKET_REFUSED, "HTTP requests on the WebSocket port answered with a 4xx, by reason");

    /**
     * nim-libp2p's dial counters, under its names, as nwaku's dashboards read them: {@code libp2p_total_dial_attempts}
     * (dials that reached the network: successful, or failed connecting or upgrading),
     * {@code libp2p_successful_dials} and {@code libp2p_failed_dials}, read from {@code libp2p_dials_total}'s outcomes
     * (a dial refused before it began, no slot or a refused address, is none of them).
     */
    private void bindNimLibp2pDials() {
        FunctionCounter.builder("libp2p.total.dial.attempts", this,
                        m -> m.dials("success") + m.dials("connect_failed") + m.dials("handshake_failed"))
                .description("dials that reached the network (nim-libp2p's name)").register(registry);
        FunctionCounter.builder("libp2p.successful.dials", this, m -> m.dials("success"))
                .description("dials that gave a connection (nim-libp2p's name)").register(registry);
        FunctionCounter.builder("libp2p.failed.dials", this, m -> m.dials("connect_failed") + m.dials("handshake_failed"))
                .description("dials that failed connecting or upgrading (nim-libp2p's name)").register(registry);
    }

    /** Dials of {@code outcome} so far, every transport together. */
    private double dials(String outcome) {
        double n = 0;
        for (Transport t : Transport.values()) {
            n += counter(DIALS, "outcome", outcome, t).count();
        }
        return n;
    }

    /**
     * {@code libp2p_noise_aead{provider}}: 1 for the ChaCha20-Poly1305 that Noise sessions use, 0 for the other.
     */
    void bindAead(AeadSelection aead) {
        for (String provider : new String[]{ChaChaPoly.JDK.label(), "conscrypt"}) {
            Gauge.builder("libp2p.noise.aead", aead, a -> a.current().label().equals(provider) ? 1 : 0)
                    .tag("provider", provider)
                    .description("the ChaCha20-Poly1305 implementation Noise sessions use (1) and the other (0)")
                    .register(registry);
        }
    }

    void bytesIn(Transport transport, int n) {
        bytesIn.get(transport).increment(n);
    }

    void bytesOut(Transport transport, int n) {
        bytesOut.get(transport).increment(n);
    }

    @Override
    public void encrypted(int plaintextBytes) {
        encrypted.increment(plaintextBytes);
    }

    @Override
    public void decrypted(int plaintextBytes) {
        decrypted.increment(plaintextBytes);
    }

    void pingRtt(Duration rtt) {
        pingRtt.record(rtt);
    }

    /** A stream the peer opened was reset at once, by a protocol's own limit. */
    void streamRefused(String reason) {
        counter(STREAMS_REFUSED, "reason", reason).increment();
    }

    /** A reply was not written: the peer's connection could not take it. */
    void replyDropped(String reply) {
        counter(REPLIES_DROPPED, "reply", reply).increment();
    }

    /** A handshake ended: {@code success}, or why it failed. */
    void handshake(String outcome, Transport transport) {
        counter(HANDSHAKES, "outcome", outcome, transport).increment();
    }

    /** A connection was refused before its handshake. */
    void rejected(String reason, Transport transport) {
        counter(REJECTED, "reason", reason, transport).increment();
    }

    /** An established connection ended. */
    void disconnected(String reason) {
        counter(DISCONNECTS, "reason", reason).increment();
    }

    void dial(String outcome, Transport transport) {
        counter(DIALS, "outcome", outcome, transport).increment();
    }

    void connectionOpened(Connection c) {
        connectionGauge(c.isOutbound() ? "outbound" : "inbound", c.muxer(), c.transport()).incrementAndGet();
    }

    void connectionClosed(Connection c) {
        connectionGauge(c.isOutbound() ? "outbound" : "inbound", c.muxer(), c.transport()).decrementAndGet();
    }

    private AtomicInteger connectionGauge(String direction, String muxer, Transport transport) {
        return connections.computeIfAbsent(direction + " " + muxer + " " + transport.label(), k -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("libp2p.connections", value, AtomicInteger::get).tag("direction", direction).tag("muxer", muxer)
                    .tag("transport", transport.label())
                    .description("open connections by direction, muxer and transport").register(registry);
            return value;
        });
    }

    private AtomicInteger streamGauge(Stream stream) {
        String direction = stream.isOutbound() ? "outbound" : "inbound";
        return streams.computeIfAbsent(direction + " " + stream.protocol(), k -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("libp2p.open.streams", value, AtomicInteger::get).tag("direction", direction)
                    .tag("protocol", stream.protocol()).description("open streams by protocol and direction").register(registry);
            return value;
        });
    }

    private Counter counter(String name, String tag, String value) {
        return counters.computeIfAbsent(name + " " + value,
                k -> Counter.builder(name).tag(tag, value).description(DESCRIPTIONS.get(name)).register(registry));
    }

    private Counter counter(String name, String tag, String value, Transport transport) {
        return counters.computeIfAbsent(name + " " + value + " " + transport.label(), k -> Counter.builder(name)
                .tag(tag, value).tag("transport", transport.label()).description(DESCRIPTIONS.get(name))
                .register(registry));
    }

    /** The WebSocket transport's events, counted. */
    WebSocketEvents webSocketEvents() {
        return new WebSocketEvents() {
            @Override
            public void requestRefused(String reason) {
                counter(WEBSOCKET_REFUSED, "reason", reason).increment();
            }

            @Override
            public void pongDropped() {
                replyDropped(WEBSOCKET_PONG);
            }

            @Override
            public void readPaused(String reason) {
                counter(READ_PAUSES, "reason", reason).increment();
            }

            @Override
            public void renegotiationRefused() {
                renegotiationsRefused.increment();
            }
        };
    }

    /** The muxer sessions' events, counted. */
    MuxerEvents muxerEvents() {
        return new MuxerEvents() {
            @Override
            public void streamOpened(Stream stream) {
                streamGauge(stream).incrementAndGet();
            }

            @Override
            public void streamClosed(Stream stream) {
                streamGauge(stream).decrementAndGet();
            }

            @Override
            public void streamRefused(String reason) {
                counter(STREAMS_REFUSED, "reason", reason).increment();
            }

            @Override
            public void negotiationFailed(String reason) {
                counter(NEGOTIATIONS_FAILED, "reason", reason).increment();
            }

            @Override
            public void streamOverflow(Stream stream) {
                overflowed.increment();
            }

            @Override
            public void replyDropped(String reply) {
                HostMetrics.this.replyDropped(reply);
            }

            @Override
            public void readPaused(String reason) {
                counter(READ_PAUSES, "reason", reason).increment();
            }

            @Override
            public void violation(MuxerException e) {
                // counted as the reason the connection ends, in libp2p_disconnects_total
            }
        };
    }
}
