package io.wakurelay.services.bench;

import com.google.protobuf.UnsafeByteOperations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.LengthPrefixedHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.filter.FilterService;
import io.wakurelay.services.proto.FilterSubscribeRequest;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Filter push fan-out: 100 subscribers (each its own host and connection on loopback, as light clients are) of one
 * content topic, and the node's {@link FilterService#onAccepted} called as the relay's accepted messages call it,
 * at most {@code window} messages ahead of the slowest subscriber (so that nothing is dropped and the rate is what
 * every subscriber receives). Reports messages per second (each pushed to all subscribers) and pushes per second.
 */
final class FilterFanOut {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT_TOPIC = "/bench/1/filter/proto";

    private FilterFanOut() {
    }

    static void run(String[] args) throws Exception {
        int subscribers = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int messages = args.length > 2 ? Integer.parseInt(args[2]) : 5_000;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int window = 32;
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Host server = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.2", 0))
                .maxConnections(subscribers + 20).build(), PrivateKey.generateEd25519(), registry);
        Relay relay = Relay.start(RelayConfig.DEFAULTS, server, new PathCounters(), registry);
        relay.accepted().subscribe(Envelope::release);
        FilterService filter = FilterService.start(FilterConfig.builder().maxPeersToServe(subscribers)
                .rateLimit(RateLimit.UNLIMITED).build(), server, relay, registry);
        List<Subscriber> subs = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            subs.add(new Subscriber(i, server.listenAddresses().get(0)));
        }
        System.out.printf("# %d subscribers of %s; %d messages per run, at most %d ahead of the slowest subscriber%n",
                filter.subscriberCount(), CONTENT_TOPIC, messages, window);
        EnvelopeEncoder encoder = new EnvelopeEncoder(new MessageValidator(
                ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO), System::nanoTime), new PathCounters());
        int[] payloads = {1_000, 10_000};
        for (int payload : payloads) {
            push(filter, subs, envelope(encoder, payload), messages / 5, window); // warm-up
        }
        for (int round = 1; round <= rounds; round++) {
            for (int payload : payloads) {
                Envelope envelope = envelope(encoder, payload);
                double drops = registry.get("waku.filter.push.drops").counter().count();
                long nanos = push(filter, subs, envelope, messages, window);
                double seconds = nanos / 1e9;
                System.out.printf("round %d payload %6d B: %,8.0f msg/s to each of %d subscribers = %,10.0f pushes/s"
                                + " (%.1f MB/s of pushes), drops %.0f%n", round, payload, messages / seconds, subscribers,
                        (double) messages * subscribers / seconds,
                        (double) messages * subscribers * envelope.messageSize() / seconds / 1e6,
                        registry.get("waku.filter.push.drops").counter().count() - drops);
                envelope.release();
            }
        }
        filter.close();
        subs.forEach(s -> s.host.close());
        relay.close();
        server.close();
    }

    private static Envelope envelope(EnvelopeEncoder encoder, int payloadSize) {
        byte[] payload = new byte[payloadSize];
        new java.util.SplittableRandom(payloadSize).nextBytes(payload);
        WakuMessage m = WakuMessage.newBuilder().setPayload(UnsafeByteOperations.unsafeWrap(payload))
                .setContentTopic(CONTENT_TOPIC).setTimestamp(System.currentTimeMillis() * 1_000_000L).build();
        return encoder.encode(TOPIC, m, PooledByteBufAllocator.DEFAULT);
    }

    /** Hands {@code count} messages to the filter and waits until every subscriber has them all; returns the time. */
    private static long push(FilterService filter, List<Subscriber> subs, Envelope envelope, int count, int window) {
        long base = subs.get(0).received.get();
        for (Subscriber s : subs) {
            if (s.received.get() != base) {
                throw new IllegalStateException("subscribers disagree before the run");
            }
        }
        long start = System.nanoTime();
        for (int sent = 0; sent < count; sent++) {
            while (sent - (slowest(subs) - base) >= window) {
                Thread.onSpinWait();
            }
            filter.onAccepted(envelope);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (slowest(subs) - base < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the subscribers did not get every message: slowest has "
                        + (slowest(subs) - base) + " of " + count + " (pushes were dropped)");
            }
            Thread.onSpinWait();
        }
        return System.nanoTime() - start;
    }

    private static long slowest(List<Subscriber> subs) {
        long min = Long.MAX_VALUE;
        for (Subscriber s : subs) {
            min = Math.min(min, s.received.get());
        }
        return min;
    }

    /** A light client: its own host, subscribed to {@link #CONTENT_TOPIC}, counting the pushes it reads. */
    private static final class Subscriber {
        final Host host;
        final AtomicLong received = new AtomicLong();

        Subscriber(int index, Multiaddr node) throws Exception {
            host = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.1." + (index % 250 + 2), 0))
                    .build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
            host.handle(FilterConfig.PUSH_PROTOCOL_ID, s -> new LengthPrefixedHandler(1 << 20, (stream, push) -> {
                received.incrementAndGet();
                return true;
            }));
            subscribe(host.dial(node).block(Duration.ofSeconds(10)));
        }

        private static void subscribe(Connection c) throws Exception {
            FilterSubscribeRequest request = FilterSubscribeRequest.newBuilder().setRequestId("bench")
                    .setFilterSubscribeType(FilterSubscribeRequest.FilterSubscribeType.SUBSCRIBE)
                    .setPubsubTopic(TOPIC).addContentTopics(CONTENT_TOPIC).build();
            CompletableFuture<Void> answered = new CompletableFuture<>();
            Stream s = c.openStream(FilterConfig.SUBSCRIBE_PROTOCOL_ID, new StreamHandler() {
                @Override
                public void onData(Stream stream, ByteBuf data) {
                    data.release();
                }

                @Override
                public void onRemoteClosed(Stream stream) {
                    answered.complete(null);
                }
            }).block(Duration.ofSeconds(10));
            s.write(Frames.lengthPrefixed(s.alloc(), request));
            s.closeWrite();
            answered.get(10, TimeUnit.SECONDS);
        }
    }
}
