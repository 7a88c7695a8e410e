package io.wakurelay.p2p.multiaddr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Vectors from multiformats/multiaddr (test/multiaddr.feature), go-multiaddr (multiaddr_test.go) and js-multiaddr
 * (test/index.spec.ts), read there and restated here as data.
 */
class MultiaddrTest {

    private static final String ED25519 = "12D3KooWCryG7Mon9orvQxcS1rYZjotPgpwoJNHHKcLLfE4Hf5mV";
    private static final String SHA256 = "QmcgpsyWgH8Y8ajJz1Cu72KnS5uo2Aa2LpzU7kinSupNKC";

    @ParameterizedTest
    @CsvSource({
        "/ip4/192.0.2.42/tcp/443, 04c000022a0601bb",
        "/ip4/127.0.0.1/udp/1234, 047f000001910204d2",
        "/ip4/127.0.0.1/tcp/4321, 047f0000010610e1",
        "/ip4/127.0.0.1/udp/1234/ip4/127.0.0.1/tcp/4321, 047f000001910204d2047f0000010610e1",
        // these written by hand from protocols.csv: codes 41, 54, 478 (varint de 03), 461 (cd 03), 290 (a2 02), 481
        // (e1 03); all but the http-path agree with js-multiaddr 12.5.1. An http-path holds the unescaped path, as
        // go-multiaddr stores it (js-multiaddr prepends a '/')
        "/http-path/api%2Fv0%2Flogin, e1030c6170692f76302f6c6f67696e",
        "/ip6/::1/tcp/0, 29000000000000000000000000000000010600 00",
        "/dns4/example.com/tcp/443/wss, 360b6578616d706c652e636f6d0601bbde03",
        "/ip4/1.2.3.4/udp/4001/quic-v1, 040102030491020fa1cd03",
        "/p2p-circuit, a202"})
    void textAndBinaryFormsMatchTheVectors(String text, String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex.replace(" ", ""));

        assertThat(Multiaddr.parse(text).bytes()).isEqualTo(bytes);
        assertThat(Multiaddr.fromBytes(bytes).toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/ip4/1.2.3.4",
        "/ip4/0.0.0.0",
        "/ip4/192.0.2.0/ipcidr/24",
        "/ip6/::1",
        "/ip6/2601:9:4f81:9700:803e:ca65:66e8:c21",
        "/ip6/2601:9:4f81:9700:803e:ca65:66e8:c21/udp/1234/quic",
        "/ip6/2601:9:4f81:9700:803e:ca65:66e8:c21/udp/1234/quic-v1",
        "/ip6/2001:db8::/ipcidr/32",
        "/ip6zone/x/ip6/fe80::1",
        "/ip6zone/x%y/ip6/fe80::1",
        "/ip6zone/x/ip6/fe80::1/udp/1234/quic-v1",
        "/udp/0",
        "/tcp/0",
        "/sctp/1234",
        "/udp/65535",
        "/tcp/65535",
        "/p2p/" + SHA256,
        "/p2p/" + ED25519,
        "/udp/1234/sctp/1234",
        "/udp/1234/udt",
        "/udp/1234/utp",
        "/tcp/1234/http",
        "/tcp/1234/tls/http",
        "/tcp/1234/https",
        "/p2p/" + SHA256 + "/tcp/1234",
        "/ip4/127.0.0.1/udp/1234/quic-v1/webtransport",
        "/ip4/127.0.0.1/tcp/9090/http/p2p-webrtc-direct",
        "/ip4/127.0.0.1/tcp/127/tls/ws",
        "/ip4/127.0.0.1/tcp/127/noise",
        "/ip4/127.0.0.1/tcp/127/wss",
        "/ip4/127.0.0.1/tcp/127/webrtc-direct",
        "/ip4/127.0.0.1/tcp/127/webrtc",
        "/http-path/tmp%2Fbar",
        "/http-path/tmp%2Fbar%2Fbaz",
        "/ip4/127.0.0.1/tcp/0/p2p/" + ED25519 + "/http-path/foo",
        "/ip4/127.0.0.1/tcp/443/tls/sni/example.com/http/http-path/foo",
        "/ip4/1.2.3.4/udp/4001/quic-v1/webtransport/certhash/uEiAkH5a4DPGKUuOBjYw0CgwjvcJCJMD2K_1aluKR_tpevQ"
                + "/certhash/uEiAfbgiymPP2_nX7Dgir8B4QkksjHp2lVuJZz0F79Be9JA/p2p/12D3KooWBdmLJjhpgJ9KZgLM3f894ff9xyBfPvPjFNn7MKJpyrC2",
        "/p2p-circuit/p2p/" + SHA256,
        "/p2p/" + SHA256 + "/p2p-circuit",
        "/ip4/127.0.0.1/tcp/9090/ws/p2p-webrtc-star/p2p/" + SHA256,
        "/ip4/127.0.0.1/tcp/9090/ws/p2p-websocket-star",
        "/dnsaddr/bootstrap.libp2p.io/p2p/" + SHA256,
        "/dns6/ipv6.example/tcp/30303",
        "/ip4/1.2.3.4/tcp/60000/p2p/16Uiu2HAmLhLvBoYaoZfaMUKuibM6ac163GwKY74c5kiSLg5KvLpY"})
    void canonicalTextSurvivesTextAndBinaryRoundTrips(String text) {
        Multiaddr address = Multiaddr.parse(text);

        assertThat(address.toString()).isEqualTo(text);
        Multiaddr fromBytes = Multiaddr.fromBytes(address.bytes());
        assertThat(fromBytes).isEqualTo(address).hasSameHashCodeAs(address);
        assertThat(fromBytes.toString()).isEqualTo(text);
        assertThat(fromBytes.components()).isEqualTo(address.components());
    }

    @ParameterizedTest
    @CsvSource({
        // js-multiaddr's normalisations
        "/ip6/0001:08a0:00c5:4201:3ac9:86ff:fe31:0709, /ip6/1:8a0:c5:4201:3ac9:86ff:fe31:709",
        "/ip6/0000:0000:0000:0000:0000:0000:0000:0001, /ip6/::1",
        "/ip6/::00:0:000:0:001, /ip6/::1",
        "/ip6/::101.45.75.219/tcp/9090, /ip6/::652d:4bdb/tcp/9090",
        "/ip6/::1.45.5.219/tcp/9090, /ip6/::12d:5db/tcp/9090",
        "/ip6/0:00:0000:0002:0000:059c:0a24:0801/tcp/64142, /ip6/::2:0:59c:a24:801/tcp/64142",
        // RFC 5952 section 4: lower case, the longest run, the first of equal runs, no single-group '::'
        "/ip6/2001:DB8::1, /ip6/2001:db8::1",
        "/ip6/2001:db8:0:0:1:0:0:1, /ip6/2001:db8::1:0:0:1",
        "/ip6/2001:0:0:1:0:0:0:1, /ip6/2001:0:0:1::1",
        "/ip6/2001:db8:0:1:1:1:1:1, /ip6/2001:db8:0:1:1:1:1:1",
        "/ip6/2001:db8::1:1:1:1:1, /ip6/2001:db8:0:1:1:1:1:1",
        "/ip6/::ffff:192.0.2.1, /ip6/::ffff:192.0.2.1",
        "/ip6/0:0:0:0:0:ffff:c000:201, /ip6/::ffff:192.0.2.1",
        "/ip6/::, /ip6/::",
        "/ip6/1::, /ip6/1::",
        "/ip6/1:2:3:4:5:6:7::, /ip6/1:2:3:4:5:6:7:0",
        // aliases, peer id forms, trailing slash, leading zeros in ports
        "/ipfs/" + SHA256 + ", /p2p/" + SHA256,
        "/ipfs/k2k4r8oqamigqdo6o7hsbfwd45y70oyynp98usk7zmyfrzpqxh1pohl7, /p2p/" + SHA256,
        "/p2p/k51qzi5uqu5dhb6l8spkdx7yxafegfkee5by8h7lmjh2ehc2sgg34z7c15vzqs, /p2p/" + ED25519,
        "/p2p/bafzaajaiaejcalj543iwv2d7pkjt7ykvefrkfu7qjfi6sduakhso4lay6abn2d5u, /p2p/" + ED25519,
        "/ip4/127.0.0.1/tcp/1234/, /ip4/127.0.0.1/tcp/1234",
        "/tcp/0080, /tcp/80",
        "/ip4/1.2.3.4/udp/1/quic-v1/webtransport/certhash/b2uaraocy6yrdblb4sfptaddgimjmmpy, "
                + "/ip4/1.2.3.4/udp/1/quic-v1/webtransport/certhash/u1QEQOFj2IjCsPJFfMAxmQxLGPw", // md5, printed in base64url as go does
        // http-path.md's examples, and the escaping of everything but unreserved characters
        "/http-path/tmp%2ffoo%2F..%2Fbar, /http-path/tmp%2Ffoo%2F..%2Fbar",
        "/http-path/a%2520space, /http-path/a%2520space",
        "/http-path/a b+c~d, /http-path/a%20b%2Bc~d"})
    void textIsPrintedInItsCanonicalForm(String input, String canonical) {
        Multiaddr address = Multiaddr.parse(input);

        assertThat(address.toString()).isEqualTo(canonical);
        assertThat(Multiaddr.parse(canonical)).isEqualTo(address);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "/", "ip4/1.2.3.4", "/ip4", "/ip4/::1", "/ip4/fdpsofodsajfdoisa", "/ip4/256.0.0.1", "/ip4/01.2.3.4",
        "/ip4/1.2.3", "/ip4/1.2.3.4.5", "/ip4/1.2.3.4//tcp/1", "/ip6", "/ip6/1:2:3:4:5:6:7:8:9", "/ip6/1::2::3",
        "/ip6/fe80::1%eth0", "/ip6/12345::", "/ip6/1.2.3.4", "/ip6/1.2.3.4::", "/ip6/:1::", "/ip6/g::1",
        "/ip6/1:2:3:4:5:6:7:8::", "/ip6zone", "/ip6zone/", "/ip6zone//ip6/fe80::1", "/udp", "/tcp", "/sctp",
        "/udp/65536", "/tcp/65536", "/tcp/-1", "/tcp/+1", "/tcp/1a", "/tcp/999999", "/ip4/127.0.0.1/udp/jfodsajfi",
        "/ip4/127.0.0.1/udp", "/ip4/127.0.0.1/tcp", "/ip4/127.0.0.1/quic/1234", "/ip4/127.0.0.1/quic-v1/1234",
        "/ip4/127.0.0.1/udp/1234/quic-v1/webtransport/certhash",
        "/ip4/127.0.0.1/udp/1234/quic-v1/webtransport/certhash/b2uaraocy6yrdblb4sfptaddgimjmmp",
        "/ip4/127.0.0.1/ipfs", "/ip4/127.0.0.1/ipfs/tcp", "/ip4/127.0.0.1/p2p", "/ip4/127.0.0.1/p2p/tcp",
        "/ip4/127.0.0.1/tcp/9090/http/p2p-webcrt-direct", "/p2p/QmxoHT6iViN5xAjoz1VZ553cL31U9F94ht3QvWR1FrEbZY",
        "/p2p/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi", "/ipcidr/256", "/dns4", "/dns/",
        "/http-path/%", "/http-path/%2", "/http-path/%zz", "/unix/a/b", "/memory/4", "/onion/timaq4ygg2iegci7:1234"})
    void malformedOrUnsupportedTextIsRefused(String text) {
        assertThatThrownBy(() -> Multiaddr.parse(text)).isInstanceOf(MultiaddrFormatException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", // empty
        "047f0000", // ip4 value cut short
        "047f00000106", "047f0000010610", // tcp code or port cut short
        "8906", // memory (777): a code we do not know, so neither the length of its value
        "840004000000", // ip4 code 4 as a non-minimal two-byte varint
        "ffffffffffffffffff01", // a varint over 9 bytes
        "3605ff612e636f", // dns4 with bytes that are not UTF-8
        "3603612f62", // dns4 "a/b"
        "3600", // dns4 with an empty name
        "350a612e62", // dns length beyond the end
        "a5030402000000", // p2p holding a multihash that is no peer id
        "a203a203ff", // a trailing byte after p2p-circuit
        "d2030412ff00"}) // certhash whose multihash declares more digest than it has
    void malformedBinaryIsRefused(String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);

        assertThatThrownBy(() -> Multiaddr.fromBytes(bytes)).isInstanceOf(MultiaddrFormatException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {ED25519, SHA256, "16Uiu2HAmLhLvBoYaoZfaMUKuibM6ac163GwKY74c5kiSLg5KvLpY",
        "bafzbeie5745rpv2m6tjyuugywy4d5ewrqgqqhfnf445he3omzpjbx5xqxe"})
    void theTrailingPeerIdIsReadInEachOfItsForms(String peer) {
        Multiaddr address = Multiaddr.parse("/ip4/10.0.0.1/tcp/4001/p2p/" + peer);

        assertThat(address.peerId()).contains(PeerId.parse(peer));
        assertThat(address.components().get(2)).isEqualTo(new Component(Protocol.P2P, PeerId.parse(peer).toBase58()));
        assertThat(address.withoutPeerId().toString()).isEqualTo("/ip4/10.0.0.1/tcp/4001");
    }

    @Test
    void withPeerIdAppendsOrReplacesTheTrailingPeerId() {
        PeerId first = PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey());
        PeerId second = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        Multiaddr bare = Multiaddr.parse("/dns4/node.example/tcp/60000");

        Multiaddr withFirst = bare.withPeerId(first);
        Multiaddr withSecond = withFirst.withPeerId(second);

        assertThat(withFirst.toString()).isEqualTo("/dns4/node.example/tcp/60000/p2p/" + first);
        assertThat(withSecond.toString()).isEqualTo("/dns4/node.example/tcp/60000/p2p/" + second);
        assertThat(withSecond.peerId()).contains(second);
        assertThat(bare.peerId()).isEmpty();
        assertThat(bare.withoutPeerId()).isSameAs(bare);
    }

    @Test
    void aRelayedAddressReachesItsLastPeerNotTheRelay() {
        Multiaddr relayed = Multiaddr.parse("/ip4/1.2.3.4/tcp/1/p2p/" + SHA256 + "/p2p-circuit/p2p/" + ED25519);
        Multiaddr relayOnly = Multiaddr.parse("/ip4/1.2.3.4/tcp/1/p2p/" + SHA256 + "/p2p-circuit");

        assertThat(relayed.peerId()).contains(PeerId.parse(ED25519));
        assertThat(relayOnly.peerId()).isEmpty();
        assertThat(relayed.withoutPeerId()).isEqualTo(relayOnly);
    }

    @Test
    void socketAddressesBecomeIpOrDnsTcpAddressesAndBack() throws Exception {
        InetSocketAddress ip4 = new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 60000);
        InetSocketAddress ip6 = new InetSocketAddress(InetAddress.getByAddress(new byte[16]), 0);
        InetSocketAddress name = InetSocketAddress.createUnresolved("node.example", 8000);

        assertThat(Multiaddr.of(ip4).toString()).isEqualTo("/ip4/127.0.0.1/tcp/60000");
        assertThat(Multiaddr.of(ip6).toString()).isEqualTo("/ip6/::/tcp/0");
        assertThat(Multiaddr.of(name).toString()).isEqualTo("/dns/node.example/tcp/8000");
        assertThat(Multiaddr.of(ip4).toSocketAddress()).isEqualTo(ip4);
        assertThat(Multiaddr.of(ip6).toSocketAddress()).isEqualTo(ip6);
        InetSocketAddress unresolved = Multiaddr.of(name).toSocketAddress();
        assertThat(unresolved.isUnresolved()).isTrue();
        assertThat(unresolved.getHostString()).isEqualTo("node.example");
        assertThat(unresolved.getPort()).isEqualTo(8000);
    }

    @Test
    void onlyPlainTcpAddressesAreTcp() {
        assertThat(Multiaddr.parse("/ip4/1.2.3.4/tcp/1").isTcp()).isTrue();
        assertThat(Multiaddr.parse("/ip6/::1/tcp/1/p2p/" + ED25519).isTcp()).isTrue();
        assertThat(Multiaddr.parse("/dns4/a.example/tcp/1").isTcp()).isTrue();
        assertThat(Multiaddr.parse("/dns6/a.example/tcp/1/p2p/" + ED25519).isTcp()).isTrue();
        assertThat(Multiaddr.parse("/ip4/1.2.3.4/tcp/1/ws").isTcp()).isFalse();
        for (String other : List.of("/ip4/1.2.3.4/udp/1/quic-v1", "/ip4/1.2.3.4",
                "/dnsaddr/a.example/p2p/" + ED25519, "/ip6zone/eth0/ip6/fe80::1/tcp/1", "/tcp/1/ip4/1.2.3.4",
                "/ip4/1.2.3.4/tcp/1/p2p/" + SHA256 + "/p2p-circuit")) {
            Multiaddr address = Multiaddr.parse(other);
            assertThat(address.isTcp()).as(other).isFalse();
            assertThatThrownBy(address::toSocketAddress).as(other).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void webSocketAddressesAreWsWssAndTlsWsWithTheirSocketAddressAndServerName() {
        for (String ws : List.of("/ip4/1.2.3.4/tcp/8000/ws", "/ip4/1.2.3.4/tcp/8000/ws/p2p/" + ED25519)) {
            Multiaddr address = Multiaddr.parse(ws);
            assertThat(address.isWebSocket()).as(ws).isTrue();
            assertThat(address.isSecureWebSocket()).as(ws).isFalse();
            assertThat(address.toSocketAddress()).isEqualTo(new java.net.InetSocketAddress("1.2.3.4", 8000));
        }
        for (String wss : List.of("/dns4/node.example/tcp/443/wss/p2p/" + ED25519, "/dns4/node.example/tcp/443/tls/ws",
                "/ip4/1.2.3.4/tcp/443/tls/sni/node.example/ws")) {
            Multiaddr address = Multiaddr.parse(wss);
            assertThat(address.isWebSocket()).as(wss).isTrue();
            assertThat(address.isSecureWebSocket()).as(wss).isTrue();
            assertThat(address.tlsServerName()).as(wss).contains("node.example");
            assertThat(address.toSocketAddress().getPort()).isEqualTo(443);
        }
        for (String other : List.of("/ip4/1.2.3.4/tcp/1", "/ip4/1.2.3.4/tcp/1/tls", "/ip4/1.2.3.4/tcp/1/ws/ws",
                "/ip4/1.2.3.4/udp/1/ws", "/ip4/1.2.3.4/tcp/1/p2p/" + ED25519 + "/ws", "/ip4/1.2.3.4/tcp/1/wss/p2p-circuit")) {
            assertThat(Multiaddr.parse(other).isWebSocket()).as(other).isFalse();
        }
        assertThat(Multiaddr.parse("/ip4/1.2.3.4/tcp/1").encapsulate("/ws")).isEqualTo(Multiaddr.parse("/ip4/1.2.3.4/tcp/1/ws"));
    }

    @Test
    void theDnsHostIsThatOfALeadingDnsComponent() {
        assertThat(Multiaddr.parse("/dns/a.example/tcp/1").dnsHost()).contains("a.example");
        assertThat(Multiaddr.parse("/dns4/b.example/tcp/1").dnsHost()).contains("b.example");
        assertThat(Multiaddr.parse("/dns6/c.example/tcp/1").dnsHost()).contains("c.example");
        assertThat(Multiaddr.parse("/ip4/1.2.3.4/tcp/1").dnsHost()).isEmpty();
        assertThat(Multiaddr.parse("/dnsaddr/d.example").dnsHost()).isEmpty();
    }

    @Test
    void componentsCarryTheirProtocolAndCanonicalValue() {
        Multiaddr address = Multiaddr.parse("/ip6/0::1/udp/4001/quic-v1/p2p/" + ED25519);

        assertThat(address.components()).containsExactly(
                new Component(Protocol.IP6, "::1"),
                new Component(Protocol.UDP, "4001"),
                new Component(Protocol.QUIC_V1, ""),
                new Component(Protocol.P2P, ED25519));
        assertThatThrownBy(() -> address.components().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void protocolsAreFoundByCodeAndByNameIncludingTheIpfsAlias() {
        assertThat(Protocol.forCode(421)).contains(Protocol.P2P);
        assertThat(Protocol.forName("ipfs")).contains(Protocol.P2P);
        assertThat(Protocol.forName("quic-v1")).contains(Protocol.QUIC_V1);
        assertThat(Protocol.forCode(777)).isEmpty();
        assertThat(Protocol.forCode(Long.MAX_VALUE)).isEmpty();
        for (Protocol protocol : Protocol.values()) {
            assertThat(Protocol.forCode(protocol.code())).contains(protocol);
            assertThat(Protocol.forName(protocol.protocolName())).contains(protocol);
        }
    }
}
