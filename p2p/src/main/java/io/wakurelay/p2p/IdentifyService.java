package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.connection.ProtocolHandler;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.crypto.KeyFormatException;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.crypto.PublicKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.MultiaddrFormatException;
import io.wakurelay.p2p.proto.Identify;
import io.wakurelay.p2p.wire.Frames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * identify (libp2p/specs identify/README.md): the side that opens {@code /ipfs/id/1.0.0} reads one length-prefixed
 * {@code Identify} and the other writes it and closes; {@code /ipfs/id/push/1.0.0} carries an update the other way.
 * Both sides ask as soon as a connection is up (js-libp2p tells its gossipsub about a peer only after identify).
 */
final class IdentifyService {
    private static final Logger log = LoggerFactory.getLogger(IdentifyService.class);
    static final String PROTOCOL = "/ipfs/id/1.0.0";
    static final String PUSH_PROTOCOL = "/ipfs/id/push/1.0.0";
    /** Larger than any honest identify (js-libp2p allows 8 KiB). */
    static final int MAX_MESSAGE_BYTES = 64 * 1024;
    /**
     * How long a peer has to answer identify (go-libp2p's and js-libp2p's identify timeout): after it the connection
     * counts as unidentified ({@link ConnectionUse.Identify#FAILED}) until an answer comes after all (the stream is
     * left to its own end: a late answer on a loaded machine still identifies the peer).
     */
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** The {@code libp2p_replies_dropped_total} label of an identify not answered. */
    static final String DROPPED_REPLY = "identify";

    private final PrivateKey identity;
    private final String agentVersion;
    private final Supplier<List<Multiaddr>> listenAddresses;
    private final Supplier<List<String>> protocols;
    private final BiConsumer<HostConnection, PeerRecord> onIdentified;
    private final HostMetrics metrics;

    IdentifyService(PrivateKey identity, String agentVersion, Supplier<List<Multiaddr>> listenAddresses,
                    Supplier<List<String>> protocols, BiConsumer<HostConnection, PeerRecord> onIdentified,
                    HostMetrics metrics) {
        this.metrics = metrics;
        this.identity = identity;
        this.agentVersion = agentVersion;
        this.listenAddresses = listenAddresses;
        this.protocols = protocols;
        this.onIdentified = onIdentified;
    }

    /**
     * Answers {@code /ipfs/id/1.0.0}: writes this host's Identify and closes. The answer (a few hundred bytes for
     * a request of a few dozen) is written only while the connection can take it: a peer that asks again and again
     * without reading gets its streams reset instead.
     */
    ProtocolHandler server() {
        return stream -> new StreamHandler() {
            @Override
            public void onOpen(Stream s) {
                if (!s.isWritable()) {
                    metrics.replyDropped(DROPPED_REPLY);
                    s.reset();
                    return;
                }
                s.write(Frames.lengthPrefixed(s.alloc(), identifyFor((HostConnection) s.connection())));
                s.closeWrite();
            }

            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }
        };
    }

    /** Takes a pushed update on {@code /ipfs/id/push/1.0.0}. */
    ProtocolHandler pushServer() {
        return stream -> reader((HostConnection) stream.connection());
    }

    /**
     * Asks the peer of {@code connection} who it is, within {@link #TIMEOUT}; a refusal, a failure or no answer in
     * time leaves the connection unidentified (an answer or a push may still come later).
     */
    void identify(HostConnection connection) {
        connection.openStream(PROTOCOL, reader(connection)).subscribe(null, e -> {
            log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer())).addKeyValue("reason", e.toString())
                    .log("identify failed");
            connection.use().identifyFailed();
        });
        ScheduledFuture<?> deadline = connection.executor().schedule(() -> {
            if (connection.use().identify() == ConnectionUse.Identify.PENDING) {
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                        .addKeyValue("timeout", String.valueOf(TIMEOUT)).log("identify not answered in time");
                connection.use().identifyFailed();
            }
        }, TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        // a closed connection is not held until its deadline (as ping's next tick, ClosedConnectionsTest)
        connection.onClose().subscribe(null, e -> deadline.cancel(false), () -> deadline.cancel(false));
    }

    Identify identifyFor(HostConnection connection) {
        Identify.Builder b = Identify.newBuilder()
                .setProtocolVersion(HostConfig.IDENTIFY_PROTOCOL_VERSION)
                .setAgentVersion(agentVersion)
                .setPublicKey(ByteString.copyFrom(identity.publicKey().marshal()))
                .addAllProtocols(new TreeSet<>(protocols.get()));
        for (Multiaddr a : listenAddresses.get()) {
            b.addListenAddrs(ByteString.copyFrom(a.withoutPeerId().bytes()));
        }
        if (connection != null && connection.remoteAddress() != null) {
            b.setObservedAddr(ByteString.copyFrom(connection.remoteAddress().bytes()));
        }
        return b.build();
    }

    /** Reads one Identify and applies it. */
    private StreamHandler reader(HostConnection connection) {
        return new LengthPrefixedHandler(MAX_MESSAGE_BYTES, (stream, message) -> {
            try {
                apply(connection, Identify.parseFrom(message.nioBuffer()));
            } catch (InvalidProtocolBufferException e) {
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                        .addKeyValue("reason", e.getMessage()).log("malformed identify");
            }
            stream.closeWrite();
            return false;
        });
    }

    private void apply(HostConnection connection, Identify message) {
        if (message.hasPublicKey()) {
            try {
                PublicKey key = PublicKey.unmarshal(message.getPublicKey().toByteArray());
                if (!connection.remotePeer().matches(key)) {
                    log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                            .log("identify carries another peer's key; closing");
                    connection.close("identify_mismatch");
                    return;
                }
            } catch (KeyFormatException e) {
                connection.close("identify_mismatch");
                return;
            }
        }
        PeerRecord previous = connection.record();
        List<Multiaddr> addresses = new ArrayList<>();
        for (ByteString raw : message.getListenAddrsList()) {
            try {
                addresses.add(Multiaddr.fromBytes(raw.toByteArray()));
            } catch (MultiaddrFormatException e) {
                // an address of a kind we cannot read: skip it, keep the rest
            }
        }
        Multiaddr observed = null;
        if (message.hasObservedAddr()) {
            try {
                observed = Multiaddr.fromBytes(message.getObservedAddr().toByteArray());
            } catch (MultiaddrFormatException e) {
                // not needed for anything this host does
            }
        }
        // a push may carry only what changed: keep what it leaves out
        PeerRecord record = new PeerRecord(connection.remotePeer(),
                message.getListenAddrsCount() > 0 ? addresses : previous.listenAddresses(),
                message.getProtocolsCount() > 0 ? new TreeSet<>(message.getProtocolsList()) : previous.protocols(),
                message.hasAgentVersion() ? message.getAgentVersion() : previous.agentVersion(),
                message.hasProtocolVersion() ? message.getProtocolVersion() : previous.protocolVersion(),
                observed != null ? observed : previous.observedAddress());
        connection.record(record);
        connection.use().identified();
        onIdentified.accept(connection, record);
    }
}
