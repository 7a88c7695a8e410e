package io.wakurelay.services.bench;

import com.google.protobuf.UnsafeByteOperations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.store.StoreClient;
import io.wakurelay.services.store.StoreClientConfig;
import io.wakurelay.services.store.StoreLimits;
import io.wakurelay.services.store.StoreQueries;
import io.wakurelay.services.store.StoreService;
import io.wakurelay.services.store.StoreServiceConfig;
import reactor.core.publisher.Flux;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Store v3 queries over libp2p from a client on loopback, beside the same queries on the archive in process: the
 * archive of the archive's QueryBenchmark (100,000 messages, 100-byte payloads, 10 content topics on one pubsub
 * topic, timestamps 1 ms apart, reopened so that pages are read from SST files); each query one page of 20 for a
 * random content topic and a random 5-second range (a full page with a cursor). One query at a time; the variants
 * alternate, round after round.
 */
final class StoreQueryLatency {
    static final String PUBSUB_TOPIC = "/waku/2/rs/0/0";
    static final long BASE_TIME = 1_700_000_000_000_000_000L;
    static final int MESSAGES = 100_000;
    static final int CONTENT_TOPICS = 10;
    static final long STEP_NANOS = 1_000_000;
    static final long WINDOW_NANOS = 5_000_000_000L;

    private StoreQueryLatency() {
    }

    static void run(String[] args) throws Exception {
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int queries = args.length > 2 ? Integer.parseInt(args[2]) : 5_000;
        Path dir = Files.createTempDirectory("services-store-bench");
        ArchiveConfig config = RocksConfig.defaults(dir).withCore(c -> c.retention(new RetentionPolicy.None())
                .timestampWindow(Duration.ZERO));
        fill(config);
        try (MessageArchive archive = ArchiveBackends.open(config, new SimpleMeterRegistry())) {
            Host server = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.2", 0)).build(),
                    PrivateKey.generateEd25519(), new SimpleMeterRegistry());
            Host client = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.3", 0)).build(),
                    PrivateKey.generateEd25519(), new SimpleMeterRegistry());
            StoreService store = StoreService.start(StoreServiceConfig.builder().rateLimit(RateLimit.UNLIMITED).build(),
                    server, new StoreQueries(archive, StoreLimits.DEFAULTS, new SimpleMeterRegistry()), new SimpleMeterRegistry());
            StoreClient storeClient = StoreClient.start(StoreClientConfig.DEFAULTS, client, new SimpleMeterRegistry());
            Multiaddr address = server.listenAddresses().get(0);
            Function<StoreQuery, StoreResponse> overLibp2p = q -> storeClient.query(address, q).block(Duration.ofSeconds(10));
            Function<StoreQuery, StoreResponse> inProcess = archive::query;
            System.out.printf("# %d messages stored; %d rounds of %d queries per variant, after %d warm-up queries each%n",
                    archive.messageCount(), rounds, queries, queries);
            for (boolean includeData : new boolean[]{false, true}) {
                measure("libp2p", overLibp2p, includeData, queries, new SplittableRandom(1));
                measure("archive", inProcess, includeData, queries, new SplittableRandom(1));
            }
            for (int round = 1; round <= rounds; round++) {
                for (boolean includeData : new boolean[]{false, true}) {
                    for (String variant : new String[]{"libp2p", "archive"}) {
                        Percentiles p = measure(variant, variant.equals("libp2p") ? overLibp2p : inProcess, includeData,
                                queries, new SplittableRandom(round * 31L));
                        System.out.printf("round %d %-7s includeData=%-5s %s%n", round, variant, includeData, p.summary());
                    }
                }
            }
            storeClient.close();
            store.close();
            client.close();
            server.close();
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static Percentiles measure(String variant, Function<StoreQuery, StoreResponse> query, boolean includeData,
                                       int count, SplittableRandom random) {
        Percentiles p = new Percentiles(count);
        long span = MESSAGES * STEP_NANOS - WINDOW_NANOS;
        for (int i = 0; i < count; i++) {
            long start = BASE_TIME + random.nextLong(span);
            StoreQuery q = StoreQuery.builder().pubsubTopic(PUBSUB_TOPIC)
                    .contentTopics(contentTopic(random.nextInt(CONTENT_TOPICS)))
                    .startTime(start).endTime(start + WINDOW_NANOS).pageSize(20).ascending(true)
                    .includeData(includeData).build();
            long t0 = System.nanoTime();
            StoreResponse page = query.apply(q);
            p.add(System.nanoTime() - t0);
            if (page.messages().size() != 20 || page.paginationCursor() == null) {
                throw new IllegalStateException(variant + ": expected a full page with a cursor, got " + page.messages().size());
            }
        }
        return p;
    }

    static String contentTopic(int k) {
        return "/bench/1/topic-" + k + "/proto";
    }

    private static void fill(ArchiveConfig config) {
        EnvelopeEncoder encoder = new EnvelopeEncoder(new MessageValidator(
                ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO), System::nanoTime), new PathCounters());
        SplittableRandom random = new SplittableRandom(42);
        try (MessageArchive writing = ArchiveBackends.open(config, new SimpleMeterRegistry())) {
            Flux<Envelope> envelopes = Flux.range(0, MESSAGES).map(i -> {
                byte[] payload = new byte[100];
                random.nextBytes(payload);
                WakuMessage m = WakuMessage.newBuilder().setPayload(UnsafeByteOperations.unsafeWrap(payload))
                        .setContentTopic(contentTopic(i % CONTENT_TOPICS)).setTimestamp(BASE_TIME + i * STEP_NANOS).build();
                return encoder.encode(PUBSUB_TOPIC, m, PooledByteBufAllocator.DEFAULT);
            });
            writing.write(envelopes).blockLast();
        }
    }
}
