package io.wakurelay.relay;

import io.wakurelay.protocol.ProtocolLimits;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RelayConfigTest {
    private static final RelayConfig DEFAULTS = RelayConfig.defaults("node", new InetSocketAddress("127.0.0.1", 0));

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(DEFAULTS.pubsubTopics()).containsExactly("/waku/2/rs/0/0");
        assertThat(DEFAULTS.staticPeers()).isEmpty();
        assertThat(DEFAULTS.limits()).isEqualTo(ProtocolLimits.DEFAULTS);
        assertThat(DEFAULTS.maxConnections()).isEqualTo(50);
        assertThat(DEFAULTS.handshakeTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(DEFAULTS.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(DEFAULTS.seenTtl()).isEqualTo(Duration.ofMinutes(2));
        assertThat(DEFAULTS.seenCacheCapacity()).isEqualTo(100_000);
        assertThat(DEFAULTS.peerQueueMessages()).isEqualTo(1024);
        assertThat(DEFAULTS.peerQueueBytes()).isEqualTo(4L << 20);
        assertThat(DEFAULTS.maxDropsBeforeDisconnect()).isEqualTo(256);
        assertThat(DEFAULTS.maxInvalidMessagesPerPeer()).isEqualTo(100);
        assertThat(DEFAULTS.reconnectMinBackoff()).isEqualTo(Duration.ofSeconds(1));
        assertThat(DEFAULTS.reconnectMaxBackoff()).isEqualTo(Duration.ofSeconds(60));
        assertThat(DEFAULTS.localQueueMessages()).isEqualTo(256);
        assertThat(DEFAULTS.tls()).as("plaintext unless configured").isNull();
        assertThat(DEFAULTS.rateLimits()).isEqualTo(new RateLimits(0, 0, 100));
        assertThat(DEFAULTS.rateLimits().limitsPublish()).as("publishing is not limited by default").isFalse();
        assertThat(DEFAULTS.security().maxInboundPerAddress()).as("no per-address limit unless configured").isZero();
    }

    @Test
    void rateLimitsAreZeroForUnlimitedOrPositiveAndAByteLimitFitsTheLargestMessage() {
        RelayConfig limited = DEFAULTS.withRateLimits(RateLimits.NONE.withPublish(50, 1_000_000).withControlFrames(10));

        assertThat(limited.rateLimits()).isEqualTo(new RateLimits(50, 1_000_000, 10));
        assertThat(limited.rateLimits().limitsPublish()).isTrue();
        assertThat(limited.withMaxConnections(3).rateLimits()).as("kept by the other withers").isEqualTo(limited.rateLimits());
        assertThatThrownBy(() -> new RateLimits(-1, 0, 0)).hasMessage("publish messages per second must be 0 (unlimited) or more, was -1");
        assertThatThrownBy(() -> RateLimits.DEFAULTS.withControlFrames(-5)).hasMessageContaining("control frames per second");
        assertThatThrownBy(() -> DEFAULTS.withRateLimits(RateLimits.NONE.withPublish(0, 100_000)))
                .hasMessageContaining("publish bytes per second must be 0 (unlimited) or at least the max message size (153600)");
    }

    @Test
    void withersChangeOneThingAndValidate() {
        RelayConfig changed = DEFAULTS.withMaxConnections(3).withLocalQueueMessages(7);

        assertThat(changed.maxConnections()).isEqualTo(3);
        assertThat(changed.localQueueMessages()).isEqualTo(7);
        assertThat(changed.withListenAddress(null).listenAddress()).as("null: do not listen").isNull();
        assertThatThrownBy(() -> DEFAULTS.withMaxConnections(0)).hasMessage("max connections must be at least 1, was 0");
    }

    @Test
    void badValuesAreRefusedWithAMessageThatNamesThem() {
        assertThatThrownBy(() -> RelayConfig.defaults(" ", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node id");
        assertThatThrownBy(() -> DEFAULTS.withPubsubTopics(Set.of("waku"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid_pubsub_topic");
        assertThatThrownBy(() -> DEFAULTS.withHandshakeTimeout(Duration.ZERO)).hasMessageContaining("handshake timeout must be positive");
        assertThatThrownBy(() -> DEFAULTS.withPeerQueue(10, 1000)).hasMessageContaining("peer queue bytes must be between the largest frame");
        assertThatThrownBy(() -> DEFAULTS.withReconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("reconnect max backoff PT1S is shorter than the min backoff PT2S");
        assertThatThrownBy(() -> DEFAULTS.withSeenCache(Duration.ofMinutes(1), 0)).hasMessageContaining("seen cache capacity");
        assertThatThrownBy(() -> DEFAULTS.withMaxDropsBeforeDisconnect(-1)).hasMessageContaining("max drops before disconnect");
        assertThatThrownBy(() -> DEFAULTS.withIdleTimeout(Duration.ofNanos(10))).hasMessageContaining("idle timeout");
        assertThatThrownBy(() -> DEFAULTS.withMaxInboundPerAddress(-1)).hasMessageContaining("max inbound connections per address");
    }
}
