package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** What a source of discv5 packets is, whose budget it shares (the buckets are p2p's {@code TokenBucketsTest}). */
class SourcePrefixTest {
    @Test
    void aSourceIsItsAddressWhateverThePortOrItsSixtyFourBitPrefix() throws Exception {
        assertThat(SourcePrefix.of(InetAddress.getByName("127.0.0.2")))
                .isEqualTo(SourcePrefix.of(InetAddress.getByName("::ffff:127.0.0.2")))
                .isNotEqualTo(SourcePrefix.of(InetAddress.getByName("127.0.0.3")));
        assertThat(SourcePrefix.of(InetAddress.getByName("2001:db8:1:2::1")))
                .isEqualTo(SourcePrefix.of(InetAddress.getByName("2001:db8:1:2:ffff:ffff:ffff:ffff")))
                .isNotEqualTo(SourcePrefix.of(InetAddress.getByName("2001:db8:1:3::1")));
    }
}
