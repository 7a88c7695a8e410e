package io.wakurelay.services.store;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.p2p.Host;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.Messages;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.RawExchange;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.StoreQueryRequest;
import io.wakurelay.services.proto.StoreQueryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class StoreServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @TempDir
    Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private Host client;
    private StoreClient storeClient;

    @BeforeEach
    void startClient() {
        client = RawExchange.clientHost(20);
        storeClient = StoreClient.start(StoreClientConfig.DEFAULTS, client, new SimpleMeterRegistry());
    }

    @AfterEach
    void close() throws Exception {
        storeClient.close();
        client.close();
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private ServiceNode node(StoreServiceConfig config) {
        return node(config, StoreLimits.DEFAULTS);
    }

    private ServiceNode node(StoreServiceConfig config, StoreLimits limits) {
        ServiceNode node = new ServiceNode(0, dir, ServiceNode.Options.none().withStore(config, limits));
        closeables.add(node);
        return node;
    }

    private static List<MessageHash> publishSeries(ServiceNode node, int count, int payloadSize) {
        long end = Messages.nowNanos();
        List<MessageHash> hashes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            hashes.add(node.publish(Messages.inSeries(i, count, end, payloadSize)));
        }
        Eventually.until(() -> node.archive.messageCount() == count, () -> node.archive.messageCount() + " of " + count + " archived");
        return hashes;
    }

    private List<List<StoredMessage>> allPages(ServiceNode node, StoreQuery query) {
        List<List<StoredMessage>> pages = new ArrayList<>();
        StoreQuery next = query;
        while (true) {
            StoreResponse page = storeClient.query(node.address(), next).block(WAIT);
            pages.add(page.messages());
            if (page.paginationCursor() == null) {
                return pages;
            }
            next = next.withCursor(page.paginationCursor());
        }
    }

    private static StoreQuery byTopic(boolean ascending) {
        return StoreQuery.builder().pubsubTopic(ServiceNode.TOPIC).contentTopics(ServiceNode.CONTENT_TOPIC)
                .pageSize(20).ascending(ascending).includeData(true).build();
    }

    private static void eachPageIsChronological(List<List<StoredMessage>> pages) {
        for (List<StoredMessage> page : pages) {
            assertThat(page).isSortedAccordingTo(Comparator.comparingLong(StoredMessage::timestamp));
        }
    }

    @Test
    void aClientPagesThroughEveryMessageForwardAndBackwardExactlyOnceInChronologicalPages() {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS);
        List<MessageHash> published = publishSeries(node, 95, 100);

        List<List<StoredMessage>> forward = allPages(node, byTopic(true));
        assertThat(forward).hasSize(5);
        eachPageIsChronological(forward);
        assertThat(forward.stream().flatMap(List::stream).map(StoredMessage::hash).toList()).isEqualTo(published);

        List<List<StoredMessage>> backward = allPages(node, byTopic(false));
        assertThat(backward).hasSize(5);
        eachPageIsChronological(backward);
        assertThat(backward.get(0)).extracting(StoredMessage::hash).isEqualTo(published.subList(75, 95));
        assertThat(backward.stream().flatMap(List::stream).map(StoredMessage::hash)).containsExactlyInAnyOrderElementsOf(published);
        StoredMessage first = forward.get(0).get(0);
        assertThat(first.pubsubTopic()).isEqualTo(ServiceNode.TOPIC);
        assertThat(first.message().getContentTopic()).isEqualTo(ServiceNode.CONTENT_TOPIC);
        assertThat(node.registry.get("waku.store.queries").counter().count()).isEqualTo(10);
    }

    @Test
    void aRequestThatDoesNotSayItsDirectionGetsTheNewestPageAsTheSpecDefaultsToBackward() throws Exception {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS);
        List<MessageHash> published = publishSeries(node, 30, 10);
        StoreQueryRequest request = StoreQueryRequest.newBuilder().setRequestId("r1")
                .setPubsubTopic(ServiceNode.TOPIC).addContentTopics(ServiceNode.CONTENT_TOPIC).build();

        RawExchange.Result result = RawExchange.run(client, node.address(), StoreServiceConfig.PROTOCOL_ID,
                RawExchange.frame(request), true, WAIT);

        assertThat(result.remoteClosed()).as("the server closes its side after the response").isTrue();
        StoreQueryResponse response = StoreQueryResponse.parseFrom(result.message());
        assertThat(response.getRequestId()).isEqualTo("r1");
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getMessagesList()).extracting(kv -> MessageHash.of(kv.getMessageHash().toByteArray()))
                .isEqualTo(published.subList(10, 30));
        assertThat(response.getMessages(0).hasMessage()).as("include_data defaults to false").isFalse();
        assertThat(response.hasPaginationCursor()).isTrue();
    }

    @Test
    void aHashLookupFindsItsMessagesAlsoWithThePubsubTopicJsWakuSendsAlongAndThenAnEmptyPage() {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS);
        List<MessageHash> published = publishSeries(node, 10, 10);
        List<MessageHash> wanted = List.of(published.get(7), published.get(2));
        // js-waku sends the pubsub topic of its decoders along with the hashes
        StoreQueryRequest.Builder request = StoreCodec.toRequest(StoreQuery.builder().hashes(wanted).includeData(true)
                .ascending(true).build(), "h1").toBuilder().setPubsubTopic(ServiceNode.TOPIC);

        StoreQueryResponse response = exchange(node, request.build());
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getMessagesList()).extracting(kv -> MessageHash.of(kv.getMessageHash().toByteArray()))
                .containsExactly(published.get(2), published.get(7));

        StoreQueryResponse next = exchange(node, request.setPaginationCursor(response.getMessages(1).getMessageHash()).build());
        assertThat(next.getStatusCode()).isEqualTo(200);
        assertThat(next.getMessagesList()).isEmpty();
    }

    private StoreQueryResponse exchange(ServiceNode node, StoreQueryRequest request) {
        try {
            return StoreQueryResponse.parseFrom(RawExchange.run(client, node.address(), StoreServiceConfig.PROTOCOL_ID,
                    RawExchange.frame(request), true, WAIT).message());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void invalidQueriesAreAnswered400WithTheReasonAndCounted() {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS);
        publishSeries(node, 3, 10);

        // not invalid: as nwaku's archive answers it, content topics without a pubsub topic match on every pubsub topic
        StoreQueryResponse response = exchange(node, StoreQueryRequest.newBuilder().setRequestId("x").setPaginationForward(true)
                .addContentTopics(ServiceNode.CONTENT_TOPIC).build());
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getMessagesCount()).isEqualTo(3);
        assertThat(response.getRequestId()).isEqualTo("x");

        RemoteStoreException unknownCursor = catchThrowableOfType(RemoteStoreException.class, () -> storeClient.query(
                node.address(), byTopic(true).withCursor(MessageHash.of(new byte[32]))).block(WAIT));
        assertThat(unknownCursor.statusCode()).isEqualTo(400);
        assertThat(unknownCursor.getMessage()).contains("is not a stored message");

        StoreQueryResponse shortHash = exchange(node, StoreQueryRequest.newBuilder().setRequestId("y")
                .addMessageHashes(com.google.protobuf.ByteString.copyFrom(new byte[31])).build());
        assertThat(shortHash.getStatusCode()).isEqualTo(400);
        assertThat(shortHash.getStatusDesc()).contains("message_hashes[0] is 31 bytes");

        StoreQueryResponse noRequestId = exchange(node, StoreQueryRequest.newBuilder().setPubsubTopic(ServiceNode.TOPIC).build());
        assertThat(noRequestId.getStatusCode()).isEqualTo(400);
        assertThat(noRequestId.getStatusDesc()).contains("request_id is required");

        assertThat(node.registry.get("waku.store.errors").tag("type", "bad_request").counter().count()).isEqualTo(3);
    }

    @Test
    void aPageThatWouldExceedTheResponseLimitEndsEarlyWithACursorAndPagingStillReturnsEveryMessageOnce() {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS, new StoreLimits(16, StoreLimits.MIN_PAGE_BYTES));
        List<MessageHash> published = publishSeries(node, 24, 50_000); // 20 of them would be about 1 MB

        List<List<StoredMessage>> forward = allPages(node, byTopic(true));
        assertThat(forward).hasSizeGreaterThan(4);
        assertThat(forward).allSatisfy(page -> assertThat(page).hasSizeLessThanOrEqualTo(5));
        eachPageIsChronological(forward);
        assertThat(forward.stream().flatMap(List::stream).map(StoredMessage::hash).toList()).isEqualTo(published);

        List<List<StoredMessage>> backward = allPages(node, byTopic(false));
        eachPageIsChronological(backward);
        assertThat(backward.get(0).get(backward.get(0).size() - 1).hash()).as("a backward page keeps the newest")
                .isEqualTo(published.get(23));
        List<MessageHash> backwardHashes = new ArrayList<>();
        for (List<StoredMessage> page : backward) {
            List<MessageHash> hashes = new ArrayList<>(page.stream().map(StoredMessage::hash).toList());
            Collections.reverse(hashes);
            backwardHashes.addAll(hashes);
        }
        Collections.reverse(backwardHashes);
        assertThat(backwardHashes).isEqualTo(published);
        assertThat(node.registry.get("waku.store.pages.truncated").counter().count()).isGreaterThan(0);
    }

    @Test
    void aPeerPastItsRequestRateIsAnswered429() {
        ServiceNode node = node(StoreServiceConfig.builder().rateLimit(RateLimit.of(3, Duration.ofMinutes(1))).build());
        publishSeries(node, 3, 10);
        for (int i = 0; i < 3; i++) {
            assertThat(storeClient.query(node.address(), byTopic(true)).block(WAIT).messages()).hasSize(3);
        }
        RemoteStoreException refused = catchThrowableOfType(RemoteStoreException.class,
                () -> storeClient.query(node.address(), byTopic(true)).block(WAIT));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(node.registry.get("waku.service.requests").tag("service", StoreServiceConfig.PROTOCOL_ID)
                .tag("state", "rejected").counter().count()).isEqualTo(1);
    }

    @Test
    void theProtocolIsOfferedInIdentifyOnlyWhileTheServiceRuns() {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS);
        client.dial(node.address()).block(WAIT);
        Eventually.until(() -> client.peer(node.host.peerId()).map(r -> r.protocols().contains(StoreServiceConfig.PROTOCOL_ID))
                .orElse(false), () -> "identify of the node: " + client.peer(node.host.peerId()));

        node.store.shutdown(Duration.ofSeconds(1)).block(WAIT);

        assertThat(node.host.protocols()).doesNotContain(StoreServiceConfig.PROTOCOL_ID);
        RemoteStoreException refused = catchThrowableOfType(RemoteStoreException.class,
                () -> storeClient.query(node.address(), byTopic(true)).block(WAIT));
        assertThat(refused.statusCode()).isEqualTo(RemoteStoreException.PEER_DIAL_FAILURE);
        assertThat(refused.getMessage()).as("nwaku's words, and go-libp2p's").isEqualTo("PEER_DIAL_FAILURE: "
                + node.address() + " (failed to negotiate protocol: protocols not supported: ["
                + StoreServiceConfig.PROTOCOL_ID + "])");
    }

    @Test
    void whenEveryQuerySlotIsTakenAQueryIsAnswered429AtOnceNotQueued() {
        ServiceNode node = node(StoreServiceConfig.DEFAULTS, new StoreLimits(1, StoreLimits.DEFAULTS.maxPageBytes()));
        publishSeries(node, 3, 10);
        OpenQuery held = node.store.queries().open(byTopic(true)); // the one slot, as a long REST query holds it
        try {
            assertThat(node.store.runningQueries()).isEqualTo(1);
            RemoteStoreException busy = catchThrowableOfType(RemoteStoreException.class,
                    () -> storeClient.query(node.address(), byTopic(true)).block(WAIT));
            assertThat(busy.statusCode()).isEqualTo(429);
            assertThat(busy.getMessage()).as("the one busy text of the one Store door")
                    .isEqualTo("the node is answering 1 store queries already (--store-max-queries); retry shortly");
        } finally {
            held.close();
        }
        assertThat(storeClient.query(node.address(), byTopic(true)).block(WAIT).messages()).hasSize(3);
        // the slot is given back once the answer is written, which may be just after the client has read it
        Eventually.until(() -> node.store.runningQueries() == 0, () -> "running queries: " + node.store.runningQueries());
        assertThat(node.registry.get("waku.store.errors").tag("type", "too_many_requests").counter().count()).isEqualTo(1);
    }
}
