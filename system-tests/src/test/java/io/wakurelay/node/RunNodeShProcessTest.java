package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.rln.RlnVectors;
import io.wakurelay.testkit.Anvil;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.FakeTime;
import io.wakurelay.testkit.JsPeer;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 41's first test: the command line nwaku-compose's run_node.sh executes ({@link RunNodeShFlagsTest#runNodeSh},
 * no RLN credentials) starts a node of The Waku Network against a real PostgreSQL and a local chain that looks like
 * The Waku Network's (anvil with chain id 59141, the membership contract at the preset's address, its state that after
 * 20 registrations). The node announces {@code --nat=extip:}'s IP and the eight shards of cluster 1 in its ENR (read
 * back with the discovery module's decoder), takes its key from {@code WAKUNODE2_NODEKEY} (nwaku's environment
 * variable for an option run_node.sh leaves out), and archives a message a js-libp2p gossipsub peer relays to it: RLN
 * is on, so the message is a valid case of the RLN test vectors (A5), published at its time (the node's wall clock
 * moved with Debian's libfaketime), found by Store over REST and in PostgreSQL's {@code messages} table.
 *
 * <p>What is added to the flag set, as an operator adds {@code EXTRA_ARGS}: {@code --data-dir}, {@code --ports-shift}
 * (the set's fixed ports moved to free ones) and {@code --staticnode} (the JavaScript peer). discv5, which the set
 * turns on, is turned off by replacing {@code --discv5-discovery=true} with {@code =false} in the set: this node's
 * parser refuses an option given twice, where nwaku's lets the last one win. So the preset's public bootstrap records
 * are never dialled, and the node's only peer is the one on loopback.
 */
@Tag("process")
class RunNodeShProcessTest {
    private static final List<String> JVM = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
            "-Dio.netty.leakDetection.level=paranoid");
    private static final String EXTERNAL_IP = "203.0.113.7";
    private static final String TOPIC = RlnVectors.VECTORS_PUBSUB_TOPIC;
    /** A secp256k1 key of this test (nwaku's --nodekey), given as WAKUNODE2_NODEKEY. */
    private static final String NODE_KEY = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void runNodeShsCommandLineStartsANodeOfTheWakuNetworkThatArchivesAndServesStore() throws Exception {
        JsonNode a5 = RlnVectors.casesById().get("A5");
        byte[] message = RlnVectors.hex(a5.path("message").asText());
        WakuMessage wakuMessage = WakuMessage.parseFrom(message);
        long timestamp = wakuMessage.getTimestamp();

        PostgresServer postgres = closer.keep(PostgresServer.start());
        String database = postgres.freshDatabase();
        Anvil chain = closer.keep(Anvil.start(Anvil.TWN_CHAIN_ID));
        chain.placeMembershipContract(Anvil.TWN_CONTRACT);
        chain.setState(Anvil.TWN_CONTRACT, rootAfter(20), 20);
        JsPeer peer = closer.keep(JsPeer.start(JsPeer.Script.PEER, "--gossipsub", "--listen", "/ip4/127.0.0.1/tcp/0",
                "--timeout-s", "300"));
        FakeTime clock = FakeTime.at(dir, timestamp - 60_000_000_000L);

        int shift = freeShift();
        List<String> args = new ArrayList<>(RunNodeShFlagsTest.runNodeSh(chain.rpcUri().toString(), EXTERNAL_IP,
                postgres.url(database)));
        assertThat(args).contains("--discv5-discovery=true");
        args.replaceAll(a -> a.equals("--discv5-discovery=true") ? "--discv5-discovery=false" : a);
        args.addAll(List.of("--data-dir=" + dir.resolve("data"), "--ports-shift=" + shift,
                "--staticnode=" + peer.addrs().get(0)));
        Map<String, String> environment = new HashMap<>(clock.environment());
        environment.put("WAKUNODE2_NODEKEY", NODE_KEY);
        NodeProcess node = closer.keep(NodeProcess.start(JVM, args, environment, Duration.ofSeconds(120),
                dir.resolve("node.log")));
        Http rest = new Http(new InetSocketAddress("127.0.0.1", node.restAddress().getPort()));

        // WAKUNODE2_NODEKEY took effect: the node is the key's peer
        assertThat(node.peerId()).isEqualTo(PeerId.fromPublicKey(PrivateKey.secp256k1Hex(NODE_KEY).publicKey())
                .toString());
        // --nat=extip: and The Waku Network's eight shards, in the listen addresses and the ENR
        int tcpPort = 30304 + shift;
        JsonNode info = rest.get("/debug/v1/info").json();
        assertThat(info.path("listenAddresses").get(0).asText())
                .isEqualTo("/ip4/" + EXTERNAL_IP + "/tcp/" + tcpPort + "/p2p/" + node.peerId());
        Enr enr = Enr.parse(info.path("enrUri").asText());
        assertThat(enr.ip4()).contains(InetAddress.getByName(EXTERNAL_IP));
        assertThat(enr.tcp()).contains(tcpPort);
        RelayShards shards = enr.relayShards().orElseThrow();
        assertThat(shards.cluster()).isEqualTo(1);
        assertThat(shards.shards()).containsExactlyElementsOf(IntStream.range(0, 8).boxed().toList());
        assertThat(enr.peerId().toString()).isEqualTo(node.peerId());

        // RLN has read the chain's root; the peer knows the node relays the vectors' shard
        Eventually.until("RLN is ready", WAIT, () -> rest.get("/health").json().path("protocolsHealth")
                .findValuesAsText("Rln Relay").contains("READY"));
        Eventually.until("the peer sees the node on " + TOPIC, WAIT, () -> peer.call("mesh", Map.of("topic", TOPIC))
                .path("subscribers").toString().contains(node.peerId()));

        // A5 at its time: the node's clock one second past the message's timestamp
        clock.moveTo(timestamp + 1_000_000_000L);
        peer.call("publish", Map.of("topic", TOPIC, "data", Base64.getEncoder().encodeToString(message)));

        String hash = new MessageHasher(new PathCounters()).hash(TOPIC, wakuMessage).toString();
        String query = "/store/v3/messages?pubsubTopic=" + URLEncoder.encode(TOPIC, StandardCharsets.UTF_8)
                + "&includeData=true";
        Eventually.until("Store over REST finds A5", WAIT,
                () -> rest.get(query).json().path("messages").findValuesAsText("messageHash").contains(hash));
        JsonNode found = rest.get(query).json().path("messages").get(0);
        assertThat(found.path("message").path("contentTopic").asText()).isEqualTo(wakuMessage.getContentTopic());
        assertThat(postgres.psql(database, "SELECT count(*) FROM messages").strip()).isEqualTo("1");

        // the preset's public bootstrap records were never dialled: the node's one peer is the one on loopback
        for (JsonNode p : rest.get("/admin/v1/peers").json()) {
            assertThat(p.toString()).as("a peer of the node").contains(peer.peerId()).contains("/ip4/127.0.0.1/");
        }
        assertThat(node.output()).noneMatch(l -> l.contains("LEAK:")).noneMatch(l -> l.contains("discv5: "));
    }

    /** The root after {@code n} registrations of the vectors' members, as the contract's {@code root()} returns it. */
    private static BigInteger rootAfter(int n) {
        byte[] le = RlnVectors.hex(RlnVectors.vectors().path("members").get(n - 1).path("root_after_le_hex").asText());
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) {
            be[i] = le[le.length - 1 - i];
        }
        return new BigInteger(1, be);
    }

    /** A --ports-shift that moves run_node.sh's fixed ports (30304, 8645, 8003) to ports free on loopback. */
    private static int freeShift() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int shift = 1000 + (int) (Math.random() * 20_000);
            if (free(30304 + shift) && free(8645 + shift) && free(8003 + shift)) {
                return shift;
            }
        }
        return fail("no free --ports-shift found");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
