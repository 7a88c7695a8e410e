package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.node.logging.LogLevels;
import io.wakurelay.node.status.NodeStatus;
import io.wakurelay.node.status.PeerView;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.MultiaddrFormatException;
import io.wakurelay.protocol.Topics;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/** Health, node information and peer administration (routed to only with --rest-admin). */
final class NodeApi {
    /** How long POST /admin/v1/peers waits for a dial: nwaku's (peer_manager.nim, DefaultDialTimeout). */
    static final Duration DIAL_TIMEOUT = Duration.ofSeconds(10);
    /** nwaku's health values (waku/node/health_monitor). */
    static final String READY = "READY";
    static final String NOT_READY = "NOT_READY";
    static final String NOT_MOUNTED = "NOT_MOUNTED";
    static final String SHUTTING_DOWN = "SHUTTING_DOWN";
    static final String INITIALIZING = "INITIALIZING";
    private final NodeStatus node;
    private final ObjectMapper mapper;
    private final RestConfig config;

    NodeApi(NodeStatus node, ObjectMapper mapper, RestConfig config) {
        this.node = node;
        this.mapper = mapper;
        this.config = config;
    }

    /**
     * GET /health in nwaku's shape: {@code nodeHealth} INITIALIZING (503) until the start has ended (each static peer's
     * first dial, as nwaku waits for its static nodes), then READY (200) while the relay runs and the archive, when
     * there is one, can write; NOT_READY (503) otherwise. Each protocol is READY, NOT_READY with the reason in {@code desc},
     * or NOT_MOUNTED when the node does not serve it; relay without peers is NOT_READY (the node itself still is), and
     * so are lightpush and filter then, with nwaku's {@code desc}.
     */
    Publisher<Void> health(HttpServerResponse response) {
        ObjectNode body = mapper.createObjectNode();
        boolean relayRunning = node.relayReady();
        String store = node.storeHealth();
        boolean storeWriting = store == null || store.equals("Ready");
        boolean initialized = node.initialized();
        boolean ready = initialized && relayRunning && storeWriting;
        body.put("nodeHealth", ready ? READY : initialized ? NOT_READY : INITIALIZING);
        ArrayNode protocols = body.putArray("protocolsHealth");
        boolean relayHealthy = relayRunning && node.relayPeerCount() > 0;
        if (!node.relayMounted()) {
            protocol(protocols, "Relay", NOT_MOUNTED, null);
        } else if (!relayRunning) {
            protocol(protocols, "Relay", NOT_READY, "the relay is shutting down");
        } else if (!relayHealthy) {
            protocol(protocols, "Relay", NOT_READY, "No connected peers");
        } else {
            protocol(protocols, "Relay", READY, null);
        }
        String rln = node.rlnHealth(); // nwaku's second line, whether RLN is on or not
        if (rln == null) {
            protocol(protocols, "Rln Relay", NOT_MOUNTED, null);
        } else {
            protocol(protocols, "Rln Relay", rln.equals("Ready") ? READY : NOT_READY, rln.equals("Ready") ? null : rln);
        }
        // in nwaku's order and words (node_health_monitor.nim): lightpush and filter serve from the relay's peers
        Set<String> services = node.services();
        served(protocols, services, "Lightpush", relayHealthy, "Node has no relay peers to fullfill push requests");
        served(protocols, services, "Filter", relayHealthy, "Relay is not ready, filter will not be able to sort out messages");
        if (store == null) {
            protocol(protocols, "Store", NOT_MOUNTED, null);
        } else {
            protocol(protocols, "Store", storeWriting ? READY : NOT_READY,
                    storeWriting ? null : store.replaceFirst("^NotReady: ", ""));
        }
        served(protocols, services, "Peer Exchange", true, null);
        return Responses.json(response, mapper, ready ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, body);
    }

    private static void served(ArrayNode protocols, Set<String> services, String name, boolean ready, String notReady) {
        if (!services.contains(name)) {
            protocol(protocols, name, NOT_MOUNTED, null);
        } else {
            protocol(protocols, name, ready ? READY : NOT_READY, ready ? null : notReady);
        }
    }

    private static void protocol(ArrayNode protocols, String name, String status, String desc) {
        ObjectNode entry = protocols.addObject().put(name, status);
        if (desc != null) {
            entry.put("desc", desc);
        }
    }

    /** GET /debug/v1/info */
    Publisher<Void> info(HttpServerResponse response) {
        ObjectNode body = mapper.createObjectNode();
        body.put("peerId", node.peerId());
        body.put("version", node.version());
        ArrayNode listen = body.putArray("listenAddresses");
        node.listenAddresses().forEach(listen::add);
        if (node.enrUri() != null) { // nwaku writes the field only when it has a record
            body.put("enrUri", node.enrUri());
        }
        ArrayNode topics = body.putArray("pubsubTopics");
        node.pubsubTopics().stream().sorted().forEach(topics::add);
        body.put("store", node.storeHealth() != null);
        return Responses.json(response, mapper, HttpResponseStatus.OK, body);
    }

    /** GET /version and /debug/v1/version: the version as plain text, as nwaku answers. */
    Publisher<Void> version(HttpServerResponse response) {
        return Responses.text(response, HttpResponseStatus.OK, node.version());
    }

    /** GET /admin/v1/peers (routed only with --rest-admin) */
    Publisher<Void> peers(HttpServerResponse response) {
        ArrayNode peers = mapper.createArrayNode();
        for (PeerView p : node.peers()) {
            ObjectNode o = peers.addObject();
            o.put("peerId", p.peerId());
            o.put("multiaddr", p.multiaddr());
            ArrayNode protocols = o.putArray("protocols");
            p.protocols().forEach(protocols::add);
            ArrayNode shards = o.putArray("shards");
            shardsOf(p.topics()).forEach(shards::add);
            o.put("connected", p.connected() ? "Connected" : "NotConnected");
            o.put("agent", p.agent());
            o.put("origin", p.origin());
            if (p.score() == null) {
                o.putNull("score");
            } else {
                o.put("score", p.score());
            }
            // beyond nwaku's shape: what this node knows of the connection and the relay peer
            o.put("direction", p.direction());
            o.put("muxer", p.muxer());
            ArrayNode topics = o.putArray("pubsubTopics");
            p.topics().stream().sorted().forEach(topics::add);
            ArrayNode mesh = o.putArray("meshTopics");
            p.meshTopics().stream().sorted().forEach(mesh::add);
            o.put("queuedBytes", p.queuedBytes());
            o.put("drops", p.drops());
        }
        return Responses.json(response, mapper, HttpResponseStatus.OK, peers);
    }

    /** The shard numbers of the peer's static-sharding topics ({@code /waku/2/rs/<cluster>/<shard>}), as nwaku lists them. */
    static List<Integer> shardsOf(List<String> topics) {
        return topics.stream().map(Topics::shardOf).filter(OptionalInt::isPresent).map(OptionalInt::getAsInt)
                .sorted().distinct().toList();
    }

    /**
     * POST /admin/v1/peers with a JSON array of multiaddrs ending in /p2p/<peer id>: the node dials them (at once, each
     * kept connected from then on, as --staticnode) and answers when every dial has finished or failed, as nwaku
     * awaits its dials: 200 once all are connected (and their relay subscriptions known, so that a publish right
     * after reaches them); 400 with nwaku's {@code Failed to connect to peer at index: i - address} for each that
     * failed, with the reason. An empty array adds nobody and is a 200, as in nwaku.
     */
    Publisher<Void> addPeers(HttpServerRequest request, HttpServerResponse response) {
        return Bodies.read(request, config.maxBodyBytes()).flatMap(bytes -> {
            List<Multiaddr> peers = peerAddresses(Bodies.json(mapper, bytes));
            return Flux.range(0, peers.size())
                    .flatMapSequential(i -> node.addPeer(peers.get(i), DIAL_TIMEOUT)
                            .then(Mono.<String>empty())
                            .onErrorResume(e -> Mono.just("Failed to connect to peer at index: " + i + " - "
                                    + peers.get(i) + " (" + dialFailure(e) + ")")))
                    .collectList()
                    .flatMap(failures -> {
                        if (!failures.isEmpty()) {
                            return Mono.error(HttpError.badRequest(String.join("; ", failures)));
                        }
                        return Mono.from(Responses.text(response, HttpResponseStatus.OK, "OK"));
                    });
        });
    }

    private static List<Multiaddr> peerAddresses(JsonNode body) {
        if (body == null || !body.isArray()) {
            throw HttpError.badRequest("the body must be a JSON array of multiaddrs");
        }
        List<Multiaddr> peers = new ArrayList<>();
        for (JsonNode p : body) {
            if (!p.isTextual()) {
                throw HttpError.badRequest("every peer must be a multiaddr string");
            }
            try {
                Multiaddr address = Multiaddr.parse(p.asText());
                if (!(address.isTcp() || address.isWebSocket()) || address.peerId().isEmpty()) {
                    throw HttpError.badRequest("'" + p.asText()
                            + "' must be a TCP or WebSocket multiaddr ending in /p2p/<peer id>");
                }
                peers.add(address);
            } catch (MultiaddrFormatException | IllegalArgumentException e) {
                throw HttpError.badRequest(e.getMessage());
            }
        }
        return peers;
    }

    private static String dialFailure(Throwable e) {
        if (e instanceof TimeoutException) {
            return "timed out after " + DIAL_TIMEOUT.toSeconds() + " s";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** POST /admin/v1/log-level/{level} (nwaku's): sets the node's log level until it restarts. */
    Publisher<Void> setLogLevel(HttpServerResponse response, String level) {
        String parsed;
        try {
            parsed = LogLevels.parse(level);
        } catch (IllegalArgumentException e) {
            throw HttpError.badRequest(e.getMessage());
        }
        LogLevels.set(parsed);
        return Responses.text(response, HttpResponseStatus.OK, "OK");
    }
}
