package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.PeerExchangeSettings;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.peerexchange.PeerExchangeConfig;
import io.wakurelay.services.RateLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --peer-exchange, --peer-exchange-node, px in --rate-limit and ENRs in --staticnode. */
class PeerExchangeOptionsTest {
    @TempDir
    Path dir;

    private NodeConfig parse(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--data-dir";
        all[1] = dir.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return NodeMain.parse(all, Map.of());
    }

    private static PeerExchangeSettings px(NodeConfig c) {
        return c.services().peerExchange();
    }

    private static Multiaddr node(NodeConfig c) {
        return c.discovery().peerExchange().node();
    }

    @Test
    void byDefaultTheServerRunsAsInNwakuAndNoNodeIsAsked() {
        NodeConfig c = parse();
        assertThat(px(c).server()).isEqualTo(PeerExchangeConfig.DEFAULTS);
        assertThat(node(c)).isNull();
        assertThat(c.discovery().staticRecords()).isEmpty();
    }

    @Test
    void theServerCanBeSwitchedOffAndANodeToAskGiven() {
        PeerId other = PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey());
        String node = "/ip4/127.0.0.1/tcp/60001/p2p/" + other;
        NodeConfig c = parse("--peer-exchange=false", "--peer-exchange-node", node);
        assertThat(px(c).server()).isNull();
        assertThat(node(c)).isEqualTo(Multiaddr.parse(node));
    }

    @Test
    void pxIsARateLimitedProtocolAndABareRateCoversItToo() {
        assertThat(px(parse("--rate-limit", "px:5/1s")).server().rateLimit()).isEqualTo(RateLimit.of(5, Duration.ofSeconds(1)));
        NodeConfig all = parse("--rate-limit", "7/1m");
        assertThat(px(all).server().rateLimit()).isEqualTo(RateLimit.of(7, Duration.ofMinutes(1)));
        assertThat(all.services().lightpush().rateLimit()).isEqualTo(RateLimit.of(7, Duration.ofMinutes(1)));
    }

    @Test
    void aStaticNodeGivenByItsEnrIsDialledAtItsAddressAndItsRecordKeptToServe() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        Enr record = EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/127.0.0.9/tcp/60009"))).build(3);
        NodeConfig c = parse("--staticnode", record.text());
        assertThat(c.host().staticPeers()).containsExactly(
                Multiaddr.parse("/ip4/127.0.0.9/tcp/60009/p2p/" + PeerId.fromPublicKey(key.publicKey())));
        assertThat(c.discovery().staticRecords()).containsExactly(record);
    }

    @Test
    void thePeerExchangeNodeMayBeGivenByItsEnrToo() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        Enr record = EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/127.0.0.9/tcp/60009"))).build(1);
        assertThat(node(parse("--peer-exchange-node", record.text()))).isEqualTo(
                Multiaddr.parse("/ip4/127.0.0.9/tcp/60009/p2p/" + PeerId.fromPublicKey(key.publicKey())));
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        assertRefused("--peer-exchange-node /ip4/127.0.0.1/tcp/60001", "--peer-exchange-node");
        assertRefused("--staticnode enr:-not-a-record", "--staticnode");
        Enr noAddress = EnrBuilder.of(PrivateKey.generateSecp256k1()).build(1);
        assertRefused("--staticnode " + noAddress.text(), "no TCP or WebSocket address");
        assertRefused("--rate-limit dns:1/1s", "px");
    }

    private void assertRefused(String args, String mention) {
        String[] parts = (args + " --data-dir " + dir).split(" ");
        assertThatThrownBy(() -> NodeMain.parse(parts, Map.of())).hasMessageContaining(mention);
    }
}
