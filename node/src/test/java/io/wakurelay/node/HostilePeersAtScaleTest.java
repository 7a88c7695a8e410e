package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import io.wakurelay.relay.RelayConfig;
import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.mux.MuxerLimits;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.proto.ControlIWant;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's peer port under attack on the libp2p wire, while an honest peer and REST clients use it. An in-process
 * target node (archiving) is attacked by:
 * <ul>
 * <li>raw sockets, {@code hostile.perKind} of each kind, 16 at a time: silent (never sends multistream-select), a
 *   Noise proposal and then silence (a stalled handshake), garbage after the multistream-select header, random
 *   bytes;</li>
 * <li>libp2p peers (each a Host of its own, with its own key), {@code hostile.relayPeers} of each kind, in waves of
 *   {@link #WAVE} (all dial from 127.0.0.1: more at once would be IP-colocation penalised as one Sybil, hiding the
 *   behaviour under test): invalid messages until graylisted, RPCs past {@code --max-rpc-size}, IWANT floods for one
 *   message, a relay stream never read (the yamux window and the node's per-peer queue fill), more streams than
 *   the muxer allows, none of them read;</li>
 * <li>connect/disconnect churn of {@code hostile.churn} complete libp2p connections;</li>
 * <li>a flood of {@code hostile.flood} idle sockets, far past {@code --max-connections}.</li>
 * </ul>
 * The honest peer (a second node that the target dials, on 127.0.0.2) publishes and the target's REST API
 * publishes, about every 20 ms, and /health is asked each time. Asserted: every honest message is archived and
 * accepted and nothing else (counted exactly), each hostile behaviour is counted in the metrics docs/metrics.md
 * names, every hostile socket is closed by the node, REST answered 200 throughout, and direct and heap memory
 * (sampled every 25 ms) stay within bounds. Scale it with the system properties above.
 */
@Tag("slow")
class HostilePeersAtScaleTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/good/proto";
    private static final int PER_KIND = Integer.getInteger("hostile.perKind", 25);
    private static final int RELAY_PEERS = Integer.getInteger("hostile.relayPeers", 4);
    private static final int CHURN = Integer.getInteger("hostile.churn", 50);
    private static final int FLOOD = Integer.getInteger("hostile.flood", 500);
    private static final int WAVE = 4;
    private static final int MAX_CONNECTIONS = 100;
    private static final int INVALID_PER_PEER = 30;
    private static final int IWANTS_PER_PEER = 30;
    private static final int STREAMS_PER_PEER = 300;
    private static final int STALLED_STREAMS_PER_PEER = 5;
    /** Long enough that a stalled peer's next stream replaces the last one before its RPC times out, even under load. */
    private static final Duration RPC_READ_TIMEOUT = Duration.ofSeconds(5);
    private static final int MAX_INBOUND_STREAMS = 256; // MuxerLimits.DEFAULTS
    private static final int GOSSIP_RETRANSMISSION = 3; // GossipParams.DEFAULTS
    private static final int REST_PAYLOAD = Integer.getInteger("hostile.restPayload", 16 * 1024);
    private static final long MIB = 1 << 20;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** For the streams an attacker opens and never reads: what the node writes is dropped. */
    private static final StreamHandler DISCARD = new StreamHandler() {
        @Override
        public void onData(Stream s, ByteBuf data) {
            data.release();
        }
    };

    @TempDir
    Path dir;
    private WakuNode target;
    private WakuNode good;
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();
    private final Object malformedLock = new Object();

    enum SocketKind { SILENT, STALLED_NOISE, GARBAGE_AFTER_MSS, RANDOM_BYTES }

    enum PeerKind { INVALID_MESSAGES, OVERSIZED_RPC, MALFORMED_RPC, TRUNCATED_RPC, STALLED_RPCS, NOT_SUBSCRIBED_TOPIC, IWANT_FLOOD,
        STUCK_READER, STREAM_FLOOD }

    @BeforeEach
    void start() {
        good = WakuNode.start(TestNodes.local(dir.resolve("good")).host(TestNodes.host("127.0.0.2").build())
                .rest(null).archive(null).build());
        target = WakuNode.start(TestNodes.local(dir.resolve("target")).metrics(TestNodes.metrics())
                .host(TestNodes.host("127.0.0.1").maxConnections(MAX_CONNECTIONS).handshakeTimeout(Duration.ofSeconds(2)).ipColocationLimit(0)
                        .staticPeers(List.of(good.multiaddr())).build())
                .relay(RelayConfig.builder().peerQueueMessages(16).peerQueueBytes(320 * 1024).maxDropsBeforeDisconnect(20)
                        .rpcReadTimeout(RPC_READ_TIMEOUT).build())
                .build());
        Eventually.until("the honest peer relays with the target", Duration.ofSeconds(30),
                () -> target.relay().peers().stream().anyMatch(p -> p.topics().contains(TOPIC))
                        && good.relay().peers().stream().anyMatch(p -> p.topics().contains(TOPIC)));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        if (target != null) {
            target.close();
        }
        if (good != null) {
            good.close();
        }
    }

    @Test
    void hostilePeersOnTheLibp2pWireAreRefusedAndCountedAtABoundedCostWhileHonestTrafficFlows() throws Exception {
        MeterRegistry m = target.metrics().registry();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", target.peerAddress().getPort());
        MemoryWatch.Memory before = MemoryWatch.Memory.afterGc();
        double handshakesBefore = MeterCounts.sum(m, "libp2p.handshakes", "outcome", "success", false);
        double successBefore = MeterCounts.count(m, "libp2p.handshakes", "outcome", "success");
        List<String> notClosed = new CopyOnWriteArrayList<>();
        List<Integer> iwantAnswers = new CopyOnWriteArrayList<>();
        long started = System.nanoTime();
        int floodSize;
        GoodTraffic traffic = new GoodTraffic();
        MemoryWatch watch = new MemoryWatch();
        try (traffic; watch) {
            // phase 1: raw sockets at scale, beside waves of misbehaving libp2p peers
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<?>> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < PER_KIND; i++) {
                    for (SocketKind kind : SocketKind.values()) {
                        int n = i;
                        sockets.add(pool.submit(() -> socketAttack(kind, n, address, notClosed)));
                    }
                }
                for (PeerKind kind : PeerKind.values()) {
                    for (int done = 0; done < RELAY_PEERS; done += WAVE) {
                        List<Future<?>> wave = new ArrayList<>();
                        for (int i = done; i < Math.min(RELAY_PEERS, done + WAVE); i++) {
                            wave.add(pool.submit(() -> peerAttack(kind, iwantAnswers)));
                        }
                        for (Future<?> f : wave) {
                            f.get(120, TimeUnit.SECONDS);
                        }
                    }
                }
                for (Future<?> f : sockets) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(notClosed).as("hostile sockets the node left open").isEmpty();

            // phase 2: churn, complete connections opened and closed one after the other
            Host churner = host();
            for (int i = 0; i < CHURN; i++) {
                Connection c = churner.dial(target.multiaddr()).block(WAIT);
                c.close();
                c.onClose().block(WAIT);
            }
            churner.close();

            // phase 3: idle sockets far past --max-connections
            floodSize = FLOOD;
            List<Socket> flood = new ArrayList<>();
            for (int i = 0; i < floodSize; i++) {
                Socket s = new Socket();
                s.connect(address, 5000);
                flood.add(s);
            }
            for (Socket s : flood) {
                if (!closedByNode(s, WAIT)) {
                    notClosed.add("idle flood socket");
                }
                s.close();
            }
            assertThat(notClosed).as("idle sockets the node left open").isEmpty();
            long budget = 160 * MIB;
            System.out.printf("HostilePeersAtScaleTest: peaks during the attack: Netty direct %.1f MiB, heap used %.1f MiB%n",
                    watch.peakDirect.get() / (double) MIB, watch.peakHeap.get() / (double) MIB);
            assertThat(watch.peakDirect.get() - before.direct()).as("direct memory growth during the attack").isLessThan(budget);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;

        // each hostile behaviour is counted
        int sockets = PER_KIND * SocketKind.values().length;
        double timeouts = MeterCounts.count(m, "libp2p.handshakes", "outcome", "timeout");
        double failedHandshakes = MeterCounts.sum(m, "libp2p.handshakes", "outcome", "success", false) - handshakesBefore;
        assertThat(timeouts).as("silent and stalled-Noise sockets time out").isGreaterThanOrEqualTo(2 * PER_KIND);
        assertThat(failedHandshakes).as("every hostile socket is a failed handshake or refused")
                .isGreaterThanOrEqualTo(sockets - MeterCounts.count(m, "libp2p.connections.rejected", "reason", "too_many_connections"));
        assertThat(MeterCounts.count(m, "waku.relay.peer.disconnects", "reason", "graylisted")).as("invalid-message spammers graylisted")
                .isGreaterThanOrEqualTo(RELAY_PEERS);
        assertThat(MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "missing_content_topic"))
                .isGreaterThanOrEqualTo(RELAY_PEERS * 5.0);
        assertThat(MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "rpc_too_large")).as("one per oversized RPC")
                .isEqualTo(RELAY_PEERS);
        assertThat(MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "malformed_rpc")).as("one per malformed RPC")
                .isEqualTo(RELAY_PEERS);
        assertThat(MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "not_subscribed")).isEqualTo(5.0 * RELAY_PEERS);
        assertThat(MeterCounts.count(m, "waku.relay.inbound.stream.resets", "reason", "replaced")).as("older relay streams of a peer")
                .isEqualTo((STALLED_STREAMS_PER_PEER - 1.0) * RELAY_PEERS);
        assertThat(MeterCounts.count(m, "waku.relay.inbound.stream.resets", "reason", "rpc_read_timeout")).as("one stalled RPC per peer")
                .isEqualTo(RELAY_PEERS);
        assertThat(MeterCounts.count(m, "libp2p.gossipsub.control.received", "kind", "iwant")).isGreaterThanOrEqualTo(RELAY_PEERS * (double) IWANTS_PER_PEER);
        assertThat(iwantAnswers).hasSize(RELAY_PEERS).allSatisfy(a -> assertThat(a).isLessThanOrEqualTo(1 + GOSSIP_RETRANSMISSION));
        assertThat(MeterCounts.count(m, "waku.relay.peer.disconnects", "reason", "slow_consumer")).as("stuck readers disconnected")
                .isEqualTo(RELAY_PEERS);
        assertThat(MeterCounts.count(m, "waku.relay.peer.drops", "kind", "message")).isGreaterThanOrEqualTo(20.0 * RELAY_PEERS);
        assertThat(MeterCounts.count(m, "libp2p.streams.refused", "reason", "too_many_streams")).as("streams past the muxer's limit")
                .isGreaterThanOrEqualTo((double) RELAY_PEERS * (STREAMS_PER_PEER - MAX_INBOUND_STREAMS));
        assertThat(MeterCounts.count(m, "libp2p.handshakes", "outcome", "success") - successBefore).as("churn and libp2p peers handshook")
                .isGreaterThanOrEqualTo(CHURN + RELAY_PEERS * PeerKind.values().length);
        double tooMany = MeterCounts.count(m, "libp2p.connections.rejected", "reason", "too_many_connections");
        double evicted = MeterCounts.count(m, "libp2p.handshakes", "outcome", "evicted");
        // past --max-connections a newcomer evicts the longest handshake, or is refused when none is handshaking
        assertThat(tooMany + evicted).as("the flood went past --max-connections").isGreaterThanOrEqualTo(floodSize - MAX_CONNECTIONS);

        // honest traffic: all of it accepted and archived, nothing else; REST answered throughout
        assertThat(traffic.problems).isEmpty();
        assertThat(traffic.sentByPeer).hasSizeGreaterThan(20);
        Eventually.until("the honest peer received every message published over REST", WAIT,
                () -> traffic.receivedByPeer.containsAll(traffic.sentOverRest));
        int honest = traffic.sentByPeer.size() + traffic.sentOverRest.size();
        Eventually.until("every honest message archived", WAIT,
                () -> MeterCounts.count(m, "waku.archive.inserts") == honest);
        Http rest = new Http(target.restAddress());
        assertThat(ArchivedMessages.stored(rest, List.copyOf(traffic.sentByPeer))).isEqualTo(traffic.sentByPeer.size());
        assertThat(ArchivedMessages.stored(rest, List.copyOf(traffic.sentOverRest))).isEqualTo(traffic.sentOverRest.size());
        assertThat(MeterCounts.count(m, "waku.relay.messages.accepted")).as("nothing hostile was accepted").isEqualTo(honest);
        assertThat(target.relay().peers()).as("the honest peer is still a relay peer")
                .anyMatch(p -> p.peerId().toString().equals(good.peerId()));
        Eventually.until("only the honest peer is left connected", WAIT, () -> target.host().connections().size() == 1);

        MemoryWatch.Memory after = MemoryWatch.Memory.afterGc();
        System.out.printf("HostilePeersAtScaleTest: %d hostile sockets (%d kinds x %d), %d libp2p peers (%d kinds x %d), %d churned "
                        + "connections, %d idle sockets, in %d ms; honest: %d from the peer, %d over REST, %d health checks; "
                        + "handshakes: timeout %.0f, failed in all %.0f; rejected too_many_connections %.0f, evicted %.0f; relay: graylisted %.0f, "
                        + "rpc_too_large %.0f, malformed_rpc %.0f, not_subscribed %.0f, iwant received %.0f (answers per flooder %s), slow_consumer %.0f, message drops %.0f, "
                        + "streams refused %.0f, relay streams reset: replaced %.0f, rpc_read_timeout %.0f; before: %s; after: %s%n",
                sockets, SocketKind.values().length, PER_KIND, RELAY_PEERS * PeerKind.values().length, PeerKind.values().length,
                RELAY_PEERS, CHURN, floodSize, millis, traffic.sentByPeer.size(), traffic.sentOverRest.size(), traffic.healthChecks.get(),
                timeouts, failedHandshakes, tooMany, evicted, MeterCounts.count(m, "waku.relay.peer.disconnects", "reason", "graylisted"),
                MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "rpc_too_large"), MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "malformed_rpc"),
                MeterCounts.count(m, "waku.relay.messages.invalid", "reason", "not_subscribed"), MeterCounts.count(m, "libp2p.gossipsub.control.received", "kind", "iwant"),
                iwantAnswers, MeterCounts.count(m, "waku.relay.peer.disconnects", "reason", "slow_consumer"), MeterCounts.count(m, "waku.relay.peer.drops", "kind", "message"),
                MeterCounts.count(m, "libp2p.streams.refused", "reason", "too_many_streams"),
                MeterCounts.count(m, "waku.relay.inbound.stream.resets", "reason", "replaced"),
                MeterCounts.count(m, "waku.relay.inbound.stream.resets", "reason", "rpc_read_timeout"), before, after);
        assertThat(after.direct() - before.direct()).as("direct memory after the attack").isLessThan(64 * MIB);
        // both nodes' bounded state warmed up (seen caches, meters, pools): +37 MiB at the CI scale, +44 MiB at 4x. Before the
        // ping fix in p2p (closed connections held until their next ping) it was +62 and +104 MiB: this bound caught it
        assertThat(after.heap() - before.heap()).as("heap after the attack").isLessThan(64 * MIB);
    }

    // =====================================================================================================
    // hostile sockets

    private static void socketAttack(SocketKind kind, int n, InetSocketAddress address, List<String> notClosed) {
        Random random = new Random(kind.ordinal() * 1000L + n);
        try (Socket s = new Socket()) {
            s.connect(address, 5000);
            byte[] mssNoise = "\u0013/multistream/1.0.0\n\u0007/noise\n".getBytes(StandardCharsets.US_ASCII);
            try {
                switch (kind) {
                    case SILENT -> {
                        // connect and say nothing
                    }
                    case STALLED_NOISE -> s.getOutputStream().write(mssNoise); // then never the first Noise message
                    case GARBAGE_AFTER_MSS -> {
                        byte[] junk = new byte[1 + random.nextInt(2048)];
                        random.nextBytes(junk);
                        s.getOutputStream().write(mssNoise);
                        s.getOutputStream().write(junk);
                    }
                    case RANDOM_BYTES -> {
                        byte[] junk = new byte[1 + random.nextInt(64 << 10)];
                        random.nextBytes(junk);
                        s.getOutputStream().write(junk);
                    }
                    default -> throw new IllegalStateException();
                }
            } catch (IOException e) {
                // the node may close while we still write: what matters is that it closes
            }
            if (!closedByNode(s, WAIT)) {
                notClosed.add(kind + " " + n);
            }
        } catch (IOException e) {
            notClosed.add(kind + " " + n + ": " + e);
        }
    }

    /** Reads (and discards) until the node closes or resets the socket; false if it is still open at the deadline. */
    private static boolean closedByNode(Socket s, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        InputStream in = s.getInputStream();
        byte[] sink = new byte[4096];
        while (System.nanoTime() < deadline) {
            s.setSoTimeout(500);
            try {
                if (in.read(sink) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                // still open: keep waiting
            } catch (IOException e) {
                return true; // reset by the node
            }
        }
        return false;
    }

    // =====================================================================================================
    // misbehaving libp2p peers

    private Host host() {
        // its own outbound stream limit above the node's inbound one, so that the node's limit is what refuses
        MuxerLimits d = MuxerLimits.DEFAULTS;
        MuxerLimits limits = new MuxerLimits(d.maxInboundStreams(), 4 * STREAMS_PER_PEER, d.negotiationTimeout(),
                d.yamuxReceiveWindow(), d.streamWriteBufferBytes(), d.mplexMaxBufferedBytes());
        Host h = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.1", 0)).muxerLimits(limits).build(),
                PrivateKey.generateEd25519(), new SimpleMeterRegistry());
        open.add(h);
        return h;
    }

    private static RPC subscribe() {
        return RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(TOPIC)).build();
    }

    private static void send(Stream stream, RPC rpc) {
        byte[] bytes = rpc.toByteArray();
        ByteBuf out = stream.alloc().buffer(Uvarint.MAX_BYTES + bytes.length);
        Uvarint.write(out, bytes.length);
        out.writeBytes(bytes);
        stream.write(out);
    }

    /** Keeps the publishes the node writes to this peer; or, when {@code stuck}, never reads them. */
    private static final class Inbox {
        final List<ByteString> published = new CopyOnWriteArrayList<>();

        void install(Host h, boolean stuck) {
            h.handle(Relay.PROTOCOL_ID, s -> new StreamHandler() {
                private LengthPrefixedReader reader;

                @Override
                public void onOpen(Stream st) {
                    reader = new LengthPrefixedReader(st.alloc(), 4 << 20);
                    if (stuck) {
                        st.pauseReading();
                    }
                }

                @Override
                public void onData(Stream st, ByteBuf data) {
                    reader.add(data);
                    for (ByteBuf rpc; (rpc = reader.next()) != null; ) {
                        try {
                            RPC.parseFrom(rpc.nioBuffer()).getPublishList().forEach(p -> published.add(p.getData()));
                        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                            throw new AssertionError(e);
                        } finally {
                            rpc.release();
                        }
                    }
                }

                @Override
                public void onClosed(Stream st, Throwable cause) {
                    reader.close();
                }
            });
        }
    }

    private void peerAttack(PeerKind kind, List<Integer> iwantAnswers) {
        Host h = host();
        Inbox inbox = new Inbox();
        inbox.install(h, kind == PeerKind.STUCK_READER);
        try {
            Connection c = h.dial(target.multiaddr()).block(WAIT);
            if (kind == PeerKind.STREAM_FLOOD) {
                List<Stream> streams = new CopyOnWriteArrayList<>();
                AtomicLong refused = new AtomicLong();
                for (int i = 0; i < STREAMS_PER_PEER; i++) {
                    try {
                        // Store streams wait for their query, so each holds a slot; ping is no use here, since the
                        // node resets a peer's third ping stream itself (PingService)
                        streams.add(c.openStream("/vac/waku/store-query/3.0.0", DISCARD).block(WAIT));
                    } catch (RuntimeException e) {
                        refused.incrementAndGet();
                    }
                }
                assertThat(refused.get()).as("streams refused to one peer").isGreaterThanOrEqualTo(STREAMS_PER_PEER - MAX_INBOUND_STREAMS);
                c.close();
                return;
            }
            Stream relay = c.openStream(Relay.PROTOCOL_ID, DISCARD).block(WAIT);
            send(relay, subscribe());
            switch (kind) {
                case INVALID_MESSAGES -> {
                    for (int i = 0; i < INVALID_PER_PEER && c.isOpen(); i++) {
                        WakuMessage invalid = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("bad " + h.peerId() + " " + i))
                                .setTimestamp(WakuNode.nowNanos()).build(); // no content topic; its own payload: a copy of another
                        // spammer's message would be a duplicate, dropped before validation and not penalised
                        send(relay, RPC.newBuilder().addPublish(Message.newBuilder().setTopic(TOPIC).setData(invalid.toByteString())).build());
                    }
                    try {
                        Eventually.until("the spammer is disconnected", WAIT, () -> !c.isOpen());
                    } catch (AssertionError e) {
                        throw new AssertionError(e.getMessage() + "; the node's view of it: " + target.relay().peers().stream()
                                .filter(p -> p.peerId().equals(h.peerId())).toList() + "; missing_content_topic counted "
                                + MeterCounts.count(target.metrics().registry(), "waku.relay.messages.invalid", "reason", "missing_content_topic"), e);
                    }
                }
                case OVERSIZED_RPC -> {
                    ByteBuf out = relay.alloc().buffer(8);
                    Uvarint.write(out, 2 << 20); // 2 MiB announced, past --max-rpc-size (1 MiB)
                    relay.write(out);
                    Eventually.until("the oversized RPC's stream is reset", WAIT, () -> !relay.isOpen());
                    c.close();
                }
                case MALFORMED_RPC -> {
                    // one at a time, so that each waits for its own RPC to be counted before it hangs up
                    synchronized (malformedLock) {
                        double counted = MeterCounts.count(target.metrics().registry(), "waku.relay.messages.invalid", "reason", "malformed_rpc");
                        ByteBuf out = relay.alloc().buffer(8);
                        Uvarint.write(out, 4);
                        out.writeInt(0xffffffff); // a field of wire type 7: not protobuf
                        relay.write(out);
                        Eventually.until("the malformed RPC is counted", WAIT, () -> MeterCounts.count(target.metrics().registry(),
                                "waku.relay.messages.invalid", "reason", "malformed_rpc") > counted);
                    }
                    c.close();
                }
                case TRUNCATED_RPC -> {
                    byte[] whole = RPC.newBuilder().addPublish(Message.newBuilder().setTopic(TOPIC).setData(
                            GoodTraffic.message(new byte[5000]).toByteString())).build().toByteArray();
                    ByteBuf out = relay.alloc().buffer(8 + whole.length / 2);
                    Uvarint.write(out, whole.length);
                    out.writeBytes(whole, 0, whole.length / 2);
                    relay.write(out).awaitUninterruptibly(5000);
                    c.close(); // hang up in the middle of the RPC
                }
                case STALLED_RPCS -> {
                    // half of a 1 MiB RPC on each of several relay streams, then silence while the connection lives
                    // (its pings answered): the node keeps one stream per peer and drops that one's RPC at the timeout
                    List<Stream> stalled = new ArrayList<>();
                    for (int i = 0; i < STALLED_STREAMS_PER_PEER; i++) {
                        Stream st = i == 0 ? relay : c.openStream(Relay.PROTOCOL_ID, DISCARD).block(WAIT);
                        stalled.add(st);
                        ByteBuf out = st.alloc().buffer(8 + 512 * 1024);
                        Uvarint.write(out, 1 << 20);
                        out.writeZero(512 * 1024);
                        st.write(out).awaitUninterruptibly(5000);
                    }
                    Eventually.until("every stalled stream is reset", WAIT, () -> stalled.stream().noneMatch(Stream::isOpen));
                    assertThat(c.isOpen()).as("a stalled RPC costs its stream, not the connection").isTrue();
                    c.close();
                }
                case NOT_SUBSCRIBED_TOPIC -> {
                    for (int i = 0; i < 5; i++) {
                        send(relay, RPC.newBuilder().addPublish(Message.newBuilder().setTopic("/waku/2/rs/0/7")
                                .setData(GoodTraffic.message(("elsewhere " + i).getBytes(StandardCharsets.UTF_8)).toByteString())).build());
                    }
                    Thread.sleep(500);
                    assertThat(c.isOpen()).as("messages on a topic the node does not relay are ignored, not punished").isTrue();
                    c.close();
                }
                case IWANT_FLOOD -> {
                    Eventually.until("a message to ask for again", WAIT, () -> !inbox.published.isEmpty());
                    ByteString data = inbox.published.get(0);
                    ByteString id = ByteString.copyFrom(MessageDigest.getInstance("SHA-256").digest(data.toByteArray()));
                    for (int i = 0; i < IWANTS_PER_PEER; i++) {
                        send(relay, RPC.newBuilder().setControl(ControlMessage.newBuilder()
                                .addIwant(ControlIWant.newBuilder().addMessageIDs(id))).build());
                    }
                    Thread.sleep(1000); // time for (too many) answers to come
                    iwantAnswers.add((int) inbox.published.stream().filter(data::equals).count());
                    c.close();
                }
                case STUCK_READER -> Eventually.until("the stuck reader is disconnected", Duration.ofSeconds(60), () -> !c.isOpen());
                default -> throw new IllegalStateException();
            }
        } catch (Exception e) {
            throw new AssertionError(kind + ": " + e, e);
        } finally {
            h.close();
            open.remove(h);
        }
    }

    // =====================================================================================================
    // honest traffic, memory, metrics

    /** Honest traffic both ways, and /health, all the time the attack runs. */
    private final class GoodTraffic implements AutoCloseable {
        final Set<String> sentByPeer = ConcurrentHashMap.newKeySet();
        final Set<String> sentOverRest = ConcurrentHashMap.newKeySet();
        final Set<String> receivedByPeer = ConcurrentHashMap.newKeySet();
        final List<String> problems = new CopyOnWriteArrayList<>();
        final AtomicLong healthChecks = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AutoCloseable tap;
        private final Thread thread;

        GoodTraffic() {
            tap = good.tap(e -> receivedByPeer.add(e.hash().toHex()));
            Http rest = new Http(target.restAddress());
            MessageHasher hasher = new MessageHasher(new PathCounters());
            Random random = new Random(1);
            thread = new Thread(() -> {
                int i = 0;
                while (running.get()) {
                    i++;
                    try {
                        WakuMessage fromPeer = message(("from the honest peer " + i).getBytes(StandardCharsets.UTF_8));
                        sentByPeer.add(good.relay().publish(TOPIC, fromPeer).block(Duration.ofSeconds(10)).hash().toHex());
                        byte[] payload = new byte[REST_PAYLOAD];
                        random.nextBytes(payload);
                        WakuMessage overRest = message(payload);
                        String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload) + "\",\"contentTopic\":\""
                                + CONTENT + "\",\"timestamp\":" + overRest.getTimestamp() + "}";
                        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body);
                        if (reply.status() != 200) {
                            problems.add("REST publish answered " + reply.status() + " " + reply.body());
                        } else {
                            sentOverRest.add(hasher.hash(TOPIC, overRest).toHex());
                        }
                        Http.Reply health = rest.get("/health");
                        healthChecks.incrementAndGet();
                        if (health.status() != 200) {
                            problems.add("/health answered " + health.status() + " " + health.body());
                        }
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException | AssertionError e) {
                        problems.add(e.toString());
                    }
                }
            }, "honest-traffic");
            thread.start();
        }

        private static WakuMessage message(byte[] payload) {
            return WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(CONTENT)
                    .setTimestamp(WakuNode.nowNanos()).build();
        }

        @Override
        public void close() throws Exception {
            running.set(false);
            thread.join(30_000);
            tap.close();
        }
    }
}
