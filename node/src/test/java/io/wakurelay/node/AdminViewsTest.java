package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.node.config.ServicesConfig;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nwaku's admin views (waku/rest_api/endpoint/admin/handlers.nim and types.nim): the same requests, answered in its
 * shapes, statuses and texts (issue 32, "Admin views"; each route answered 404 on the main branch before).
 */
class AdminViewsTest {
    private static final String RELAY = "/vac/waku/relay/2.0.0";
    @TempDir
    static Path dir;
    static WakuNode a;
    static WakuNode b;
    static Http restA;

    @BeforeAll
    static void start() {
        a = WakuNode.start(TestNodes.local(dir.resolve("a")).archive(null).rest(TestNodes.rest().admin(true).build()).build());
        b = WakuNode.start(TestNodes.local(dir.resolve("b")).build());
        restA = new Http(a.restAddress());
        assertThat(restA.post("/admin/v1/peers", "[\"" + b.multiaddr() + "\"]").status()).isEqualTo(200);
        Eventually.until("B is in A's mesh of shard 0", Duration.ofSeconds(20),
                () -> a.relay().mesh().getOrDefault("/waku/2/rs/0/0", List.of()).size() == 1);
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
    }

    private static List<String> fieldNames(JsonNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static void isNwakusWakuPeerOfB(JsonNode peer) {
        assertThat(fieldNames(peer)).containsSubsequence("multiaddr", "protocols", "shards", "connected", "agent", "origin", "score");
        assertThat(peer.get("multiaddr").asText()).isEqualTo(b.multiaddr().toString());
        assertThat(peer.get("connected").asText()).isEqualTo("Connected");
        assertThat(peer.get("origin").asText()).isEqualTo("Static");
        assertThat(peer.get("shards").toString()).isEqualTo("[0]");
    }

    @Test
    void servicePeersListEachPeerOnceWithTheServiceProtocolsItServesInNwakusOrder() {
        JsonNode peers = restA.get("/admin/v1/peers/service").json();
        assertThat(peers).hasSize(1);
        isNwakusWakuPeerOfB(peers.get(0));
        assertThat(peers.get(0).get("protocols").toString()).isEqualTo("[\"" + RELAY
                + "\",\"/vac/waku/filter-subscribe/2.0.0-beta1\",\"/vac/waku/store-query/3.0.0\",\"/vac/waku/lightpush/3.0.0\","
                + "\"/vac/waku/peer-exchange/2.0.0-alpha1\"]");
        assertThat(peers.get(0).get("score").isNull()).isTrue();
    }

    @Test
    void connectedPeersAndThoseOnAShard() {
        JsonNode connected = restA.get("/admin/v1/peers/connected").json();
        assertThat(connected).hasSize(1);
        isNwakusWakuPeerOfB(connected.get(0));
        assertThat(connected.get(0).get("protocols").toString()).contains(RELAY, "/ipfs/ping/1.0.0");
        assertThat(restA.get("/admin/v1/peers/connected/on/0").json()).hasSize(1);
        assertThat(restA.get("/admin/v1/peers/connected/on/7").json()).isEmpty();
        Http.Reply bad = restA.get("/admin/v1/peers/connected/on/seven");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).startsWith("Invalid shardId: ");
    }

    @Test
    void relayAndMeshPeersPerShardWithTheirScores() {
        for (String view : List.of("relay", "mesh")) {
            JsonNode shards = restA.get("/admin/v1/peers/" + view).json();
            assertThat(shards).as(view).hasSize(1);
            assertThat(fieldNames(shards.get(0))).containsExactly("shard", "peers");
            assertThat(shards.get(0).get("shard").asInt()).isZero();
            assertThat(shards.get(0).get("peers")).hasSize(1);
            isNwakusWakuPeerOfB(shards.get(0).get("peers").get(0));
            assertThat(shards.get(0).get("peers").get(0).get("score").isNumber()).as("a relay peer's gossipsub score").isTrue();

            JsonNode onShard = restA.get("/admin/v1/peers/" + view + "/on/0").json();
            assertThat(onShard.get("shard").asInt()).isZero();
            assertThat(onShard.get("peers")).hasSize(1);
            JsonNode otherShard = restA.get("/admin/v1/peers/" + view + "/on/3").json();
            assertThat(otherShard.toString()).isEqualTo("{\"shard\":3,\"peers\":[]}");
            assertThat(restA.get("/admin/v1/peers/" + view + "/on/-1").status()).isEqualTo(400);
        }
    }

    @Test
    void statsCountPeersAsNwakusGroupsDo() {
        JsonNode stats = restA.get("/admin/v1/peers/stats").json();
        assertThat(fieldNames(stats)).containsExactly("Sum", "By Connectedness", "Relay peers", "Mesh peers", "By Protocols");
        assertThat(stats.get("Sum").toString()).isEqualTo("{\"Total peers\":1}");
        assertThat(stats.get("By Connectedness").toString())
                .isEqualTo("{\"Connected\":1,\"NotConnected\":0,\"CannotConnect\":0,\"CanConnect\":0}");
        assertThat(stats.get("Relay peers").toString()).isEqualTo("{\"0\":1,\"Total relay peers\":1}");
        assertThat(stats.get("Mesh peers").toString()).isEqualTo("{\"0\":1,\"Total mesh peers\":1}");
        assertThat(fieldNames(stats.get("By Protocols"))).containsExactly(RELAY, "/vac/waku/filter-subscribe/2.0.0-beta1",
                "/vac/waku/filter-push/2.0.0-beta1", "/vac/waku/store-query/3.0.0", "/vac/waku/store/2.0.0-beta4",
                "/vac/waku/lightpush/3.0.0", "/vac/waku/lightpush/2.0.0-beta1", "/vac/waku/peer-exchange/2.0.0-alpha1",
                "/vac/waku/reconciliation/1.0.0");
        assertThat(stats.get("By Protocols").get(RELAY).asInt()).isEqualTo(1);
        assertThat(stats.get("By Protocols").get("/vac/waku/store/2.0.0-beta4").asInt()).isZero();
    }

    @Test
    void onePeerByItsIdOrNwakusNotFoundAndInvalidTexts() {
        Http.Reply found = restA.get("/admin/v1/peer/" + b.peerId());
        assertThat(found.status()).isEqualTo(200);
        isNwakusWakuPeerOfB(found.json());
        String stranger = "16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b";
        Http.Reply missing = restA.get("/admin/v1/peer/" + stranger);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body()).isEqualTo("Peer with ID " + stranger + " not found");
        Http.Reply invalid = restA.get("/admin/v1/peer/not-a-peer-id");
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.body()).startsWith("Invalid argument:");
    }

    @Test
    void filterSubscribersAreListedAndAFilterlessNodeSaysItIsNotMounted() {
        assertThat(restA.get("/admin/v1/filter/subscriptions").body()).as("nobody subscribed yet").isEqualTo("[]");
        try (WakuNode noFilter = WakuNode.start(TestNodes.local(dir.resolve("c")).archive(null)
                .services(new ServicesConfig(ServicesConfig.DEFAULTS.store(), ServicesConfig.DEFAULTS.lightpush(), null,
                        ServicesConfig.DEFAULTS.storeClient(), ServicesConfig.DEFAULTS.peerExchange()))
                .rest(TestNodes.rest().admin(true).build()).build())) {
            Http.Reply reply = new Http(noFilter.restAddress()).get("/admin/v1/filter/subscriptions");
            assertThat(reply.status()).isEqualTo(400);
            assertThat(reply.body()).isEqualTo("Error: Filter Protocol is not mounted to the node");
        }
    }

    @Test
    void healthWithARelayPeerIsReadyForWhatServesFromIt() {
        assertThat(restA.get("/health").json().get("protocolsHealth").toString()).isEqualTo("[{\"Relay\":\"READY\"},{\"Rln Relay\":\"NOT_MOUNTED\"},"
                + "{\"Lightpush\":\"READY\"},{\"Filter\":\"READY\"},{\"Store\":\"NOT_MOUNTED\"},{\"Peer Exchange\":\"READY\"}]");
    }

    @Test
    void theViewsAreAdminOnlyAndGetOnly() {
        assertThat(new Http(b.restAddress()).get("/admin/v1/peers/stats").status()).as("without --rest-admin").isEqualTo(404);
        assertThat(restA.post("/admin/v1/peers/stats", "{}").status()).isEqualTo(404);
        assertThat(restA.get("/admin/v1/peers/nothing").status()).isEqualTo(404);
    }
}
