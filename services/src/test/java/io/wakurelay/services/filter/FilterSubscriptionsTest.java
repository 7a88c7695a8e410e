package io.wakurelay.services.filter;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.services.ServiceNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The registry alone: its answers, its limits, its index and its expiry (push channels are not opened here). */
class FilterSubscriptionsTest {
    private static final String TOPIC = ServiceNode.TOPIC;
    private final AtomicLong clock = new AtomicLong();
    private final List<String> removed = new ArrayList<>();
    private final FilterConfig config = FilterConfig.builder().maxPeersToServe(2).maxCriteriaPerPeer(3)
            .subscriptionTimeout(Duration.ofSeconds(10)).build();
    private final FilterSubscriptions subscriptions = new FilterSubscriptions(config, clock::get,
            (s, reason) -> removed.add(s.peer + " " + reason));

    private static PeerId peer() {
        return PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
    }

    private FilterStatus subscribe(PeerId peer, String... contentTopics) {
        // no connection: the channel is never used by the registry itself
        return subscriptions.subscribe(peer, null, TOPIC, List.of(contentTopics), c -> null).status();
    }

    @Test
    void aMessageFindsTheSubscribersOfItsPubsubAndContentTopicOnly() {
        PeerId a = peer();
        PeerId b = peer();
        assertThat(subscribe(a, "/x/1/a/proto", "/x/1/b/proto")).isEqualTo(FilterStatus.SUCCESS);
        assertThat(subscribe(b, "/x/1/b/proto")).isEqualTo(FilterStatus.SUCCESS);

        assertThat(subscriptions.subscribersOf(TOPIC, "/x/1/a/proto")).extracting(s -> s.peer).containsExactly(a);
        assertThat(subscriptions.subscribersOf(TOPIC, "/x/1/b/proto")).extracting(s -> s.peer).containsExactlyInAnyOrder(a, b);
        assertThat(subscriptions.subscribersOf(TOPIC, "/x/1/c/proto")).isEmpty();
        assertThat(subscriptions.subscribersOf("/waku/2/rs/0/1", "/x/1/a/proto")).isEmpty();

        assertThat(subscriptions.unsubscribe(a, TOPIC, List.of("/x/1/b/proto")).status()).isEqualTo(FilterStatus.SUCCESS);
        assertThat(subscriptions.subscribersOf(TOPIC, "/x/1/b/proto")).extracting(s -> s.peer).containsExactly(b);
        assertThat(subscriptions.criteriaCount()).isEqualTo(2);
    }

    @Test
    void aSnapshotListsEverySubscriberWithItsCriteriaSorted() {
        PeerId a = peer();
        PeerId b = peer();
        subscribe(a, "/x/1/b/proto", "/x/1/a/proto");
        subscribe(b, "/x/1/c/proto");
        assertThat(subscriptions.snapshot()).containsOnlyKeys(a, b);
        assertThat(subscriptions.snapshot().get(a)).containsExactly(List.of(TOPIC, "/x/1/a/proto"), List.of(TOPIC, "/x/1/b/proto"));
        assertThat(subscriptions.snapshot().get(b)).containsExactly(List.of(TOPIC, "/x/1/c/proto"));
        subscriptions.unsubscribeAll(b);
        assertThat(subscriptions.snapshot()).containsOnlyKeys(a);
    }

    @Test
    void theLastCriterionUnsubscribedEndsTheSubscription() {
        PeerId a = peer();
        subscribe(a, "/x/1/a/proto");
        assertThat(subscriptions.unsubscribe(a, TOPIC, List.of("/x/1/a/proto")).status()).isEqualTo(FilterStatus.SUCCESS);
        assertThat(subscriptions.subscriberCount()).isZero();
        assertThat(removed).containsExactly(a + " UNSUBSCRIBED");
        assertThat(subscriptions.unsubscribe(a, TOPIC, List.of("/x/1/a/proto")).status()).isEqualTo(FilterStatus.NOT_FOUND);
    }

    @Test
    void limitsOnPeersAndCriteriaRefuseWithoutChangingAnything() {
        PeerId a = peer();
        assertThat(subscribe(a, "/x/1/a/proto", "/x/1/b/proto", "/x/1/c/proto", "/x/1/d/proto"))
                .isEqualTo(FilterStatus.SERVICE_UNAVAILABLE);
        assertThat(subscriptions.subscriberCount()).isZero();
        assertThat(subscribe(a, "/x/1/a/proto", "/x/1/b/proto")).isEqualTo(FilterStatus.SUCCESS);
        assertThat(subscribe(a, "/x/1/c/proto", "/x/1/d/proto")).isEqualTo(FilterStatus.SERVICE_UNAVAILABLE);
        assertThat(subscriptions.criteriaCount()).isEqualTo(2);
        assertThat(subscribe(peer(), "/x/1/a/proto")).isEqualTo(FilterStatus.SUCCESS);
        assertThat(subscribe(peer(), "/x/1/a/proto")).isEqualTo(FilterStatus.SERVICE_UNAVAILABLE);
    }

    @Test
    void aSubscriptionNotRefreshedWithinTheTimeoutExpiresAndAPingKeepsItAlive() {
        PeerId pinging = peer();
        PeerId silent = peer();
        subscribe(pinging, "/x/1/a/proto");
        subscribe(silent, "/x/1/a/proto");
        clock.addAndGet(Duration.ofSeconds(8).toNanos());
        assertThat(subscriptions.ping(pinging).status()).isEqualTo(FilterStatus.SUCCESS);
        clock.addAndGet(Duration.ofSeconds(8).toNanos());

        assertThat(subscriptions.removeExpired()).isEqualTo(1);

        assertThat(removed).containsExactly(silent + " EXPIRED");
        assertThat(subscriptions.subscribersOf(TOPIC, "/x/1/a/proto")).extracting(s -> s.peer).containsExactly(pinging);
        assertThat(subscriptions.ping(silent).status()).isEqualTo(FilterStatus.NOT_FOUND);
    }
}
