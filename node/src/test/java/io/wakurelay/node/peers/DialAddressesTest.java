package io.wakurelay.node.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Which addresses of discovered records are dialled: go-libp2p's address classes, judged by this node's own. */
class DialAddressesTest {
    private final List<String> refused = new ArrayList<>();

    private static InetAddress ip(String text) throws Exception {
        return InetAddress.getByName(text);
    }

    private static List<Multiaddr> addresses(String... texts) {
        return java.util.Arrays.stream(texts).map(Multiaddr::parse).toList();
    }

    private DialAddresses of(DialPolicy policy, Map<String, List<InetAddress>> names) {
        return new DialAddresses(policy, name -> names.containsKey(name)
                ? CompletableFuture.completedFuture(names.get(name))
                : CompletableFuture.failedFuture(new java.net.UnknownHostException(name)), Duration.ofSeconds(1), refused::add);
    }

    @Test
    void addressesFallIntoGoLibp2psClassesWithLoopbackApart() throws Exception {
        assertThat(AddressScope.of(ip("127.0.0.3"))).isEqualTo(AddressScope.LOOPBACK);
        assertThat(AddressScope.of(ip("::1"))).isEqualTo(AddressScope.LOOPBACK);
        for (String p : List.of("10.1.2.3", "172.31.0.1", "192.168.1.1", "100.64.0.1", "169.254.169.254", "fd00::1",
                "fe80::1", "::ffff:10.0.0.1")) {
            assertThat(AddressScope.of(ip(p))).as(p).isEqualTo(AddressScope.PRIVATE);
        }
        for (String u : List.of("0.0.0.0", "203.0.113.9", "224.0.0.1", "255.255.255.255", "2001:db8::1", "::", "ff02::1")) {
            assertThat(AddressScope.of(ip(u))).as(u).isEqualTo(AddressScope.UNROUTABLE);
        }
        for (String p : List.of("1.2.3.4", "8.8.8.8", "172.32.0.1", "2a01:4f8::1", "64:ff9b::808:808")) {
            assertThat(AddressScope.of(ip(p))).as(p).isEqualTo(AddressScope.PUBLIC);
        }
    }

    @Test
    void aNodesScopeIsTheWidestOfItsOwnAddresses() {
        assertThat(DialPolicy.of(addresses("/ip4/127.0.0.1/tcp/1", "/ip4/1.2.3.4/tcp/1"), false).own())
                .isEqualTo(AddressScope.PUBLIC);
        assertThat(DialPolicy.of(addresses("/ip4/127.0.0.1/tcp/1", "/ip4/10.0.0.2/tcp/1/ws"), false).own())
                .isEqualTo(AddressScope.PRIVATE);
        assertThat(DialPolicy.of(addresses("/ip4/127.0.0.2/tcp/1"), false).own()).isEqualTo(AddressScope.LOOPBACK);
        assertThat(DialPolicy.of(addresses("/dns4/node.example/tcp/1"), false).own()).as("a name: public")
                .isEqualTo(AddressScope.PUBLIC);
    }

    @Test
    void aPublicNodeKeepsOnlyPublicAddressesAndNamesOfARecordAndCountsTheRest() {
        DialAddresses dial = of(DialPolicy.of(addresses("/ip4/1.2.3.4/tcp/60000"), false), Map.of());
        assertThat(dial.literal(addresses("/ip4/10.0.0.5/tcp/60000", "/ip4/127.0.0.1/tcp/60000",
                "/ip4/192.0.2.1/tcp/60000", "/ip4/5.6.7.8/tcp/60000", "/dns4/internal.example/tcp/60000/ws",
                "/ip4/5.6.7.8/udp/9000")))
                .containsExactly(Multiaddr.parse("/ip4/5.6.7.8/tcp/60000"), Multiaddr.parse("/dns4/internal.example/tcp/60000/ws"));
        assertThat(refused).containsExactly("private", "loopback", "unroutable");
    }

    @Test
    void privateNodesDialPrivatePeersLoopbackNodesDialLoopbackOnesAndTheOperatorMayAllowBoth() {
        List<Multiaddr> record = addresses("/ip4/10.0.0.5/tcp/1", "/ip4/127.0.0.5/tcp/1");
        assertThat(of(DialPolicy.of(addresses("/ip4/10.0.0.2/tcp/1", "/ip4/127.0.0.1/tcp/1"), false), Map.of())
                .literal(record)).containsExactly(record.get(0));
        assertThat(of(DialPolicy.of(addresses("/ip4/127.0.0.1/tcp/1"), false), Map.of()).literal(record))
                .containsExactlyElementsOf(record);
        assertThat(of(DialPolicy.of(addresses("/ip4/1.2.3.4/tcp/1"), true), Map.of()).literal(record))
                .as("--dial-private-peers").containsExactlyElementsOf(record);
    }

    @Test
    void aNameIsDialledAtTheAddressesItResolvesToThatThePolicyAllowsAndASecureOneKeepsItForTls() throws Exception {
        DialAddresses dial = of(DialPolicy.of(addresses("/ip4/1.2.3.4/tcp/1"), false), Map.of(
                "node.example", List.of(ip("10.9.9.9"), ip("5.6.7.8"), ip("2a01:4f8::1")),
                "inside.example", List.of(ip("127.0.0.1"))));
        String peer = "/p2p/16Uiu2HAmVRBuA4Ee7T89WjNuaxZ7Rb3HnrEJqaKRtCE4ZX2PBsP7";
        assertThat(dial.resolve(addresses("/dns4/node.example/tcp/443/wss" + peer, "/dns/node.example/tcp/60000",
                "/dns4/inside.example/tcp/60000", "/dns4/gone.example/tcp/60000")).collectList().block())
                .containsExactly(Multiaddr.parse("/ip4/5.6.7.8/tcp/443/tls/sni/node.example/ws" + peer),
                        Multiaddr.parse("/ip4/5.6.7.8/tcp/60000"), Multiaddr.parse("/ip6/2a01:4f8::1/tcp/60000"));
        assertThat(refused).containsExactly("private", "private", "loopback", "unresolved");
    }

    @Test
    void aNameThatDoesNotResolveInTimeIsGivenUpWithoutBlocking() {
        DialAddresses dial = new DialAddresses(DialPolicy.of(addresses("/ip4/1.2.3.4/tcp/1"), false),
                name -> new CompletableFuture<>(), Duration.ofMillis(200), refused::add);
        long start = System.nanoTime();
        assertThat(dial.resolve(addresses("/dns4/slow.example/tcp/1")).collectList().block()).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(refused).containsExactly("unresolved");
    }
}
