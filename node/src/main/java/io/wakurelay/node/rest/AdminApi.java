package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.node.status.FilterSubscriberView;
import io.wakurelay.node.status.NodeStatus;
import io.wakurelay.node.status.PeerView;
import io.wakurelay.p2p.crypto.KeyFormatException;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.protocol.Topics;
import org.reactivestreams.Publisher;
import reactor.netty.http.server.HttpServerResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * nwaku's admin views of peers and filter subscribers ({@code waku/rest_api/endpoint/admin/handlers.nim}), in its JSON
 * shapes, routed only with --rest-admin. Every answer is bounded: the peers are this node's connections (at most
 * {@code --max-connections}) and its static peers, the filter subscribers at most {@code --filter-max-peers-to-serve}
 * with {@code --filter-max-criteria} pairs each.
 */
final class AdminApi {
    static final String PEERS = "/admin/v1/peers/";
    static final String PEER = "/admin/v1/peer/";
    static final String FILTER_SUBSCRIPTIONS = "/admin/v1/filter/subscriptions";
    private static final String ON = "/on/";
    /** nwaku's protocol ids, in the order its service-peer view lists them (codecs.nim). */
    static final String RELAY = "/vac/waku/relay/2.0.0";
    static final String FILTER_SUBSCRIBE = "/vac/waku/filter-subscribe/2.0.0-beta1";
    static final String FILTER_PUSH = "/vac/waku/filter-push/2.0.0-beta1";
    static final String STORE = "/vac/waku/store-query/3.0.0";
    static final String LEGACY_STORE = "/vac/waku/store/2.0.0-beta4";
    static final String LIGHTPUSH = "/vac/waku/lightpush/3.0.0";
    static final String LEGACY_LIGHTPUSH = "/vac/waku/lightpush/2.0.0-beta1";
    static final String PEER_EXCHANGE = "/vac/waku/peer-exchange/2.0.0-alpha1";
    static final String RECONCILIATION = "/vac/waku/reconciliation/1.0.0";
    static final String TRANSFER = "/vac/waku/transfer/1.0.0";
    private static final List<String> SERVICE_CODECS = List.of(RELAY, FILTER_SUBSCRIBE, STORE, LEGACY_STORE,
            LEGACY_LIGHTPUSH, LIGHTPUSH, PEER_EXCHANGE, RECONCILIATION, TRANSFER);
    private static final List<String> STATS_CODECS = List.of(RELAY, FILTER_SUBSCRIBE, FILTER_PUSH, STORE, LEGACY_STORE,
            LIGHTPUSH, LEGACY_LIGHTPUSH, PEER_EXCHANGE, RECONCILIATION);

    private final NodeStatus node;
    private final ObjectMapper mapper;

    AdminApi(NodeStatus node, ObjectMapper mapper) {
        this.node = node;
        this.mapper = mapper;
    }

    /** Whether {@code path} is one of this class's routes. */
    static boolean serves(String path) {
        return path.startsWith(PEERS) || path.startsWith(PEER) || path.equals(FILTER_SUBSCRIPTIONS);
    }

    Publisher<Void> route(HttpMethod method, String path, HttpServerResponse response) {
        if (!method.equals(HttpMethod.GET)) {
            throw HttpError.notFound("no endpoint " + method + " " + path + "; this path takes GET");
        }
        if (path.equals(FILTER_SUBSCRIPTIONS)) {
            return filterSubscriptions(response);
        }
        if (path.startsWith(PEER)) {
            return peer(response, Paths.decode(path.substring(PEER.length())));
        }
        String view = path.substring(PEERS.length());
        int on = view.indexOf(ON);
        String shard = on < 0 ? null : Paths.decode(view.substring(on + ON.length()));
        return switch (on < 0 ? view : view.substring(0, on)) {
            case "service" -> on < 0 ? service(response) : unknown(method, path);
            case "connected" -> connected(response, on < 0 ? null : shard(shard));
            case "relay" -> on < 0 ? perShard(response, PeerView::topics)
                    : onShard(response, shard(shard), PeerView::topics);
            case "mesh" -> on < 0 ? perShard(response, PeerView::meshTopics)
                    : onShard(response, shard(shard), PeerView::meshTopics);
            case "stats" -> on < 0 ? stats(response) : unknown(method, path);
            default -> unknown(method, path);
        };
    }

    private static Publisher<Void> unknown(HttpMethod method, String path) {
        throw HttpError.notFound("no endpoint " + method + " " + path);
    }

    /** A shard number as nwaku's router decodes its {@code uint16} path parameter. */
    private static int shard(String text) {
        try {
            int shard = Integer.parseInt(text);
            if (shard >= 0 && shard <= 0xFFFF) {
                return shard;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST,
                "Invalid shardId: " + text + " is not a number in 0..65535");
    }

    /** GET /admin/v1/peers/service: the peers serving one of nwaku's service protocols, each with those it serves. */
    private Publisher<Void> service(HttpServerResponse response) {
        ArrayNode out = mapper.createArrayNode();
        List<PeerView> peers = node.peers();
        // nwaku lists them codec by codec, each peer once, with the codecs it matched
        Map<String, List<String>> matched = new java.util.LinkedHashMap<>();
        Map<String, PeerView> byId = new java.util.HashMap<>();
        for (String codec : SERVICE_CODECS) {
            for (PeerView p : peers) {
                if (p.protocols().contains(codec)) {
                    matched.computeIfAbsent(p.peerId(), k -> new ArrayList<>()).add(codec);
                    byId.put(p.peerId(), p);
                }
            }
        }
        matched.forEach((id, codecs) -> peer(out.addObject(), byId.get(id), codecs, null));
        return Responses.json(response, mapper, HttpResponseStatus.OK, out);
    }

    /** GET /admin/v1/peers/connected and its /on/{shard} form: the connected peers (on the shard: that announce it). */
    private Publisher<Void> connected(HttpServerResponse response, Integer shard) {
        ArrayNode out = mapper.createArrayNode();
        for (PeerView p : node.peers()) {
            if (p.connected() && (shard == null || NodeApi.shardsOf(p.topics()).contains(shard))) {
                peer(out.addObject(), p, p.protocols(), null);
            }
        }
        return Responses.json(response, mapper, HttpResponseStatus.OK, out);
    }

    /**
     * GET /admin/v1/peers/relay (with {@link PeerView#topics}) and /admin/v1/peers/mesh (with
     * {@link PeerView#meshTopics}): for each static-sharding topic this node relays, {@code {"shard", "peers"}} with
     * the relay peers on it (or in its mesh), each with its gossipsub score.
     */
    private Publisher<Void> perShard(HttpServerResponse response, Function<PeerView, List<String>> topicsOf) {
        ArrayNode out = mapper.createArrayNode();
        List<PeerView> peers = node.peers();
        for (Map.Entry<Integer, String> shard : relayedShards().entrySet()) {
            shardPeers(out.addObject(), shard.getKey(), peers, p -> topicsOf.apply(p).contains(shard.getValue()));
        }
        return Responses.json(response, mapper, HttpResponseStatus.OK, out);
    }

    /** The /on/{shard} forms: one {@code {"shard", "peers"}} for that shard of this node's cluster, relayed or not. */
    private Publisher<Void> onShard(HttpServerResponse response, int shard, Function<PeerView, List<String>> topicsOf) {
        String topic = "/waku/2/rs/" + node.clusterId() + "/" + shard;
        ObjectNode out = mapper.createObjectNode();
        shardPeers(out, shard, node.peers(), p -> topicsOf.apply(p).contains(topic));
        return Responses.json(response, mapper, HttpResponseStatus.OK, out);
    }

    private void shardPeers(ObjectNode out, int shard, List<PeerView> peers, Predicate<PeerView> on) {
        out.put("shard", shard);
        ArrayNode list = out.putArray("peers");
        for (PeerView p : peers) {
            if (p.connected() && on.test(p)) {
                peer(list.addObject(), p, p.protocols(), p.score() == null ? 0.0 : p.score());
            }
        }
    }

    /** The static-sharding topics this node relays, by shard number (nwaku skips the others). */
    private TreeMap<Integer, String> relayedShards() {
        TreeMap<Integer, String> shards = new TreeMap<>();
        for (String topic : node.pubsubTopics()) {
            OptionalInt shard = Topics.shardOf(topic);
            if (shard.isPresent()) {
                shards.put(shard.getAsInt(), topic);
            }
        }
        return shards;
    }

    /** GET /admin/v1/peers/stats: nwaku's counters, grouped as its handler groups them. */
    private Publisher<Void> stats(HttpServerResponse response) {
        List<PeerView> peers = node.peers();
        ObjectNode out = mapper.createObjectNode();
        out.putObject("Sum").put("Total peers", peers.size());
        long connected = peers.stream().filter(PeerView::connected).count();
        out.putObject("By Connectedness").put("Connected", connected).put("NotConnected", peers.size() - connected)
                .put("CannotConnect", 0).put("CanConnect", 0);
        shardCounts(out.putObject("Relay peers"), "Total relay peers", peers, PeerView::topics);
        shardCounts(out.putObject("Mesh peers"), "Total mesh peers", peers, PeerView::meshTopics);
        ObjectNode protocols = out.putObject("By Protocols");
        for (String codec : STATS_CODECS) {
            protocols.put(codec, peers.stream().filter(p -> p.protocols().contains(codec)).count());
        }
        return Responses.json(response, mapper, HttpResponseStatus.OK, out);
    }

    private void shardCounts(ObjectNode out, String totalName, List<PeerView> peers,
                             Function<PeerView, List<String>> topicsOf) {
        int total = 0;
        for (Map.Entry<Integer, String> shard : relayedShards().entrySet()) {
            int n = (int) peers.stream()
                    .filter(p -> p.connected() && topicsOf.apply(p).contains(shard.getValue())).count();
            out.put(String.valueOf(shard.getKey()), n);
            total += n;
        }
        out.put(totalName, total);
    }

    /** GET /admin/v1/peer/{peerId}: one peer this node knows; nwaku's 400 and 404 texts otherwise. */
    private Publisher<Void> peer(HttpServerResponse response, String peerId) {
        PeerId id;
        try {
            id = PeerId.parse(peerId);
        } catch (KeyFormatException | IllegalArgumentException e) {
            throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST, "Invalid argument:" + e.getMessage());
        }
        for (PeerView p : node.peers()) {
            if (p.peerId().equals(id.toString())) {
                ObjectNode out = mapper.createObjectNode();
                peer(out, p, p.protocols(), null);
                return Responses.json(response, mapper, HttpResponseStatus.OK, out);
            }
        }
        throw HttpError.nwakuText(HttpResponseStatus.NOT_FOUND, "Peer with ID " + peerId + " not found");
    }

    /** GET /admin/v1/filter/subscriptions: the filter service's subscribers and their criteria (read-only). */
    private Publisher<Void> filterSubscriptions(HttpServerResponse response) {
        List<FilterSubscriberView> subscribers = node.filterSubscribers();
        if (subscribers == null) {
            throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST,
                    "Error: Filter Protocol is not mounted to the node");
        }
        ArrayNode out = mapper.createArrayNode();
        for (FilterSubscriberView s : subscribers) {
            ObjectNode o = out.addObject().put("peerId", s.peerId());
            ArrayNode criteria = o.putArray("filterCriteria");
            for (FilterSubscriberView.Criterion c : s.criteria()) {
                criteria.addObject().put("pubsubTopic", c.pubsubTopic()).put("contentTopic", c.contentTopic());
            }
        }
        return Responses.json(response, mapper, HttpResponseStatus.OK, out);
    }

    /** nwaku's {@code WakuPeer}, with the peer id beside (as /admin/v1/peers has it here). */
    private static void peer(ObjectNode o, PeerView p, List<String> protocols, Double score) {
        o.put("peerId", p.peerId());
        o.put("multiaddr", p.multiaddr());
        ArrayNode list = o.putArray("protocols");
        protocols.forEach(list::add);
        ArrayNode shards = o.putArray("shards");
        NodeApi.shardsOf(p.topics()).forEach(shards::add);
        o.put("connected", p.connected() ? "Connected" : "NotConnected");
        o.put("agent", p.agent());
        o.put("origin", p.origin());
        if (score == null) {
            o.putNull("score");
        } else {
            o.put("score", score);
        }
    }
}
