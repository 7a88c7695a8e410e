package io.wakurelay.node.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;
import io.wakurelay.protocol.proto.WakuMessage;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/** The nwaku-compatible relay endpoints, plus the Server-Sent Events stream. */
final class RelayApi {
    private static final byte[] OPEN = {'['};
    private static final byte[] COMMA = {','};
    private static final byte[] CLOSE = {']'};
    private static final byte[] EMPTY = {'[', ']'};
    static final String NO_SUBSCRIPTION = "no subscription found for pubsubTopic";
    private static final String AUTO_SHARDING_OFF = "automatic sharding is off: start the node with --num-shards-in-network N";

    private final RelayPort relay;
    private final ObjectMapper mapper;
    private final TopicCache cache;
    private final LiveStreams streams;
    private final RestConfig config;
    private final LongSupplier clockNanos;
    private final ProtocolLimits limits;
    private final AutoSharding autoSharding;

    /** @param autoSharding how content topics map to shards for the {@code /relay/v1/auto} endpoints; null: they answer 400 */
    RelayApi(RelayPort relay, ObjectMapper mapper, TopicCache cache, LiveStreams streams, RestConfig config,
             LongSupplier clockNanos, ProtocolLimits limits, AutoSharding autoSharding) {
        this.autoSharding = autoSharding;
        this.relay = relay;
        this.mapper = mapper;
        this.cache = cache;
        this.streams = streams;
        this.config = config;
        this.clockNanos = clockNanos;
        this.limits = limits;
    }

    /**
     * POST /relay/v1/messages/{pubsubTopic} → 200 OK once the message is validated, relayed and queued locally;
     * 400 when the node does not relay the topic (as nwaku: the message would be neither archived nor delivered).
     */
    Publisher<Void> publish(HttpServerRequest request, HttpServerResponse response, String topic) {
        checkTopic(topic);
        if (!relay.subscriptions().contains(topic)) {
            // nwaku's words, which scripts compare
            throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST, "Failed to publish: Node not subscribed to topic: " + topic);
        }
        return publish(response, Bodies.read(request, config.maxBodyBytes())
                .map(body -> MessageJson.read(parse(body), clockNanos.getAsLong()))
                .flatMap(message -> relay.publish(topic, message)));
    }

    /**
     * POST /relay/v1/auto/messages: as {@link #publish}, on the shard the message's content topic maps to. A shard this
     * node does not relay is published to all the same, to the peers that relay it (maybe none), as nwaku does
     * ({@code waku/node/kernel_api/relay.nim}, {@code publish}): 200; the node neither archives nor caches it then.
     */
    Publisher<Void> autoPublish(HttpServerRequest request, HttpServerResponse response) {
        AutoSharding sharding = requireAutoSharding();
        return publish(response, Bodies.read(request, config.maxBodyBytes())
                .map(body -> MessageJson.read(parse(body), clockNanos.getAsLong()))
                .flatMap(message -> relay.publish(sharding.pubsubTopic(message.getContentTopic()), message)));
    }

    private Mono<Void> publish(HttpServerResponse response, Mono<?> published) {
        return published.flatMap(result -> Mono.from(Responses.text(response, HttpResponseStatus.OK, "OK")))
                .onErrorMap(ProtocolViolation.class, e -> HttpError.badRequest(e.getMessage()))
                .onErrorMap(RelayPort.Busy.class, e -> new HttpError(HttpResponseStatus.SERVICE_UNAVAILABLE, e.getMessage()))
                .onErrorMap(RelayPort.Unprovable.class, e -> HttpError.nwakuText(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                        e.getMessage()))
                .onErrorMap(RelayPort.Rejected.class, e -> HttpError.badRequest(e.getMessage()));
    }

    /** POST /relay/v1/auto/subscriptions with content topics: relays their shards and caches their messages. */
    Publisher<Void> autoSubscribe(HttpServerRequest request, HttpServerResponse response) {
        AutoSharding sharding = requireAutoSharding();
        return Bodies.read(request, config.maxBodyBytes()).flatMap(body -> {
            List<String> contentTopics = contentTopics(parse(body));
            Set<String> shards = new LinkedHashSet<>();
            for (String contentTopic : contentTopics) {
                shards.add(shardOf(sharding, contentTopic));
            }
            List<String> opened = cache.openAll(contentTopics.stream().map(TopicCache::contentKey).toList());
            if (opened == null) {
                throw HttpError.badRequest("too many content topics: at most " + TopicCache.MAX_CONTENT_TOPICS
                        + " may be subscribed over REST at once; unsubscribe some first (DELETE /relay/v1/auto/subscriptions)");
            }
            Mono<Void> heard;
            try {
                heard = subscribeRelay(List.copyOf(shards));
            } catch (HttpError e) {
                opened.forEach(cache::close);
                throw e;
            }
            return heard.then(Mono.from(Responses.text(response, HttpResponseStatus.OK, "OK")));
        });
    }

    /**
     * Relays {@code topics} too; past the relay's limit on topics the client gets a 400 that names it. The answer
     * waits for the relay's peers to have read the subscription (a bounded wait): a script that subscribes two nodes
     * and publishes at once must reach both.
     */
    private Mono<Void> subscribeRelay(List<String> topics) {
        try {
            return relay.subscribe(topics);
        } catch (RelayPort.TooManyTopics e) {
            throw HttpError.badRequest("too many pubsub topics: " + e.getMessage()
                    + "; unsubscribe some first (DELETE /relay/v1/subscriptions)");
        }
    }

    /**
     * DELETE /relay/v1/auto/subscriptions with content topics: closes their caches, and stops relaying a shard once no
     * subscription needs it (not a topic the node was started with, nor one subscribed by pubsub topic or by another
     * content topic).
     */
    Publisher<Void> autoUnsubscribe(HttpServerRequest request, HttpServerResponse response) {
        AutoSharding sharding = requireAutoSharding();
        return Bodies.read(request, config.maxBodyBytes()).flatMap(body -> {
            List<String> contentTopics = contentTopics(parse(body));
            Set<String> shards = new LinkedHashSet<>();
            for (String contentTopic : contentTopics) {
                shards.add(shardOf(sharding, contentTopic)); // all checked before any cache closes
            }
            contentTopics.forEach(t -> cache.close(TopicCache.contentKey(t)));
            for (String stillWanted : cache.contentTopics()) {
                shards.remove(sharding.pubsubTopic(stillWanted));
            }
            relay.unsubscribe(shards.stream().filter(t -> !cache.isOpen(t)).toList());
            return Mono.from(Responses.text(response, HttpResponseStatus.OK, "OK"));
        });
    }

    /**
     * GET /relay/v1/auto/messages/{contentTopic}: returns and clears what was cached for the content topic. A content
     * topic nothing subscribed to is a 404, as nwaku answers it, also when it cannot be subscribed to (an invalid one,
     * or automatic sharding off): nwaku looks in its cache first.
     */
    Publisher<Void> autoCached(HttpServerResponse response, String contentTopic) {
        List<byte[]> messages = rendered(cache.drain(TopicCache.contentKey(contentTopic)));
        if (messages == null) {
            throw HttpError.notFound(autoSharding == null ? AUTO_SHARDING_OFF
                    : "not subscribed to " + contentTopic + "; POST it to /relay/v1/auto/subscriptions first");
        }
        return sendArray(response, messages);
    }

    private AutoSharding requireAutoSharding() {
        if (autoSharding == null) {
            throw HttpError.badRequest(AUTO_SHARDING_OFF);
        }
        return autoSharding;
    }

    private String shardOf(AutoSharding sharding, String contentTopic) {
        try {
            Topics.checkShardableContentTopic(contentTopic, limits.maxContentTopicBytes());
            return sharding.pubsubTopic(contentTopic);
        } catch (ProtocolViolation e) {
            throw HttpError.badRequest(e.getMessage());
        }
    }

    /** POST /relay/v1/subscriptions with a JSON array of pubsub topics. */
    Publisher<Void> subscribe(HttpServerRequest request, HttpServerResponse response) {
        return Bodies.read(request, config.maxBodyBytes()).flatMap(body -> {
            List<String> topics = topics(parse(body));
            Mono<Void> heard = subscribeRelay(topics);
            topics.forEach(cache::open);
            return heard.then(Mono.from(Responses.text(response, HttpResponseStatus.OK, "OK")));
        });
    }

    /**
     * DELETE /relay/v1/subscriptions with a JSON array of pubsub topics: closes their caches and stops relaying them,
     * the topics the node was started with too, as nwaku does (a publish on one then answers 400).
     */
    Publisher<Void> unsubscribe(HttpServerRequest request, HttpServerResponse response) {
        return Bodies.read(request, config.maxBodyBytes()).flatMap(body -> {
            List<String> topics = topics(parse(body));
            topics.forEach(cache::close);
            relay.unsubscribe(topics);
            return Mono.from(Responses.text(response, HttpResponseStatus.OK, "OK"));
        });
    }

    /**
     * GET /relay/v1/messages/{pubsubTopic}: returns and clears what was cached for the topic (one the node was started
     * with, or subscribed over REST). Any other topic is a 404, as nwaku answers it, also an invalid one (nwaku looks in
     * its cache, where it cannot be).
     */
    Publisher<Void> cached(HttpServerResponse response, String topic) {
        List<byte[]> messages = rendered(cache.drain(topic));
        if (messages == null) {
            // nwaku answers an empty 404; go-waku says this, and scripts written for both compare it (or an empty body)
            throw HttpError.nwakuText(HttpResponseStatus.NOT_FOUND, NO_SUBSCRIPTION);
        }
        return sendArray(response, messages);
    }

    /** The JSON of each drained message, rendered now (not on the message path); each envelope released. */
    private List<byte[]> rendered(List<Envelope> drained) {
        if (drained == null) {
            return null;
        }
        List<byte[]> out = new ArrayList<>(drained.size());
        try {
            for (Envelope e : drained) {
                out.add(mapper.writeValueAsBytes(MessageJson.write(mapper, e.message())));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises into memory", e);
        } finally {
            drained.forEach(Envelope::release);
        }
        return out;
    }

    private Publisher<Void> sendArray(HttpServerResponse response, List<byte[]> messages) {
        // the array around the cached JSON, one message per chunk, without copying them into one body
        List<ByteBuf> chunks = new ArrayList<>(messages.size() + 1);
        for (int i = 0; i < messages.size(); i++) {
            chunks.add(Unpooled.wrappedBuffer(i == 0 ? OPEN : COMMA, messages.get(i)));
        }
        chunks.add(Unpooled.wrappedBuffer(messages.isEmpty() ? EMPTY : CLOSE));
        response.status(HttpResponseStatus.OK).header(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        return Responses.sendOneByOne(response, Flux.fromIterable(chunks));
    }

    /** GET /relay/v1/stream/{pubsubTopic}: Server-Sent Events, one {"messageHash","pubsubTopic","message"} per event. */
    Publisher<Void> stream(HttpServerResponse response, String topic) {
        checkTopic(topic);
        if (!relay.subscriptions().contains(topic)) {
            throw HttpError.notFound("the node does not relay " + topic + "; subscribe to it first");
        }
        Flux<byte[]> events = streams.open(topic, () -> response.withConnection(Connection::dispose));
        if (events == null) {
            throw new HttpError(HttpResponseStatus.TOO_MANY_REQUESTS, "too many open event streams: at most "
                    + config.maxStreams() + " at once (--rest-max-streams)");
        }
        // a comment first, so that clients see the stream open before the first message
        Flux<byte[]> withHello = Flux.just((": subscribed to " + topic + "\n\n").getBytes(StandardCharsets.UTF_8)).concatWith(events);
        // one event at a time: the next leaves the stream's bounded buffer only once the previous is written
        return Responses.sendOneByOne(response.sse(), withHello.map(Unpooled::wrappedBuffer));
    }

    private void checkTopic(String topic) {
        try {
            Topics.checkPubsubTopic(topic, limits.maxTopicBytes());
        } catch (ProtocolViolation e) {
            throw HttpError.badRequest(e.getMessage());
        }
    }

    /** A JSON array of content topics; an empty one is a no-op, a 200 as in nwaku. */
    private static List<String> contentTopics(JsonNode body) {
        if (body == null || !body.isArray()) {
            throw HttpError.badRequest("the body must be a JSON array of content topics");
        }
        List<String> topics = new ArrayList<>();
        for (JsonNode t : body) {
            if (!t.isTextual()) {
                throw HttpError.badRequest("every content topic must be a string");
            }
            topics.add(t.asText());
        }
        return topics;
    }

    /** A JSON array of pubsub topics; an empty one is a no-op, a 200 as in nwaku. */
    private List<String> topics(JsonNode body) {
        if (body == null || !body.isArray()) {
            throw HttpError.badRequest("the body must be a JSON array of pubsub topics");
        }
        List<String> topics = new ArrayList<>();
        for (JsonNode t : body) {
            if (!t.isTextual()) {
                throw HttpError.badRequest("every pubsub topic must be a string");
            }
            checkTopic(t.asText());
            topics.add(t.asText());
        }
        return topics;
    }

    private JsonNode parse(byte[] body) {
        return Bodies.json(mapper, body);
    }
}
