package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.protocol.Envelope;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Hands accepted messages to the REST consumers (topic cache and SSE streams). Runs inline on the message
 * path, so it never blocks: the cache keeps the envelope itself (its JSON is rendered when a client reads it), and
 * a stream's event is rendered only when someone listens.
 */
public final class LocalDelivery {
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private final ObjectMapper mapper;
    private final TopicCache cache;
    private final LiveStreams streams;

    public LocalDelivery(ObjectMapper mapper, TopicCache cache, LiveStreams streams) {
        this.mapper = mapper;
        this.cache = cache;
        this.streams = streams;
    }

    public void deliver(Envelope envelope) {
        String topic = envelope.pubsubTopic();
        boolean cached = cache.isOpen(topic);
        String contentKey = cache.hasContentTopics() ? TopicCache.contentKey(envelope.message().contentTopic()) : null;
        boolean cachedByContent = contentKey != null && cache.isOpen(contentKey);
        boolean streamed = streams.hasListeners(topic);
        if (cached) {
            cache.add(topic, envelope);
        }
        if (cachedByContent) {
            cache.add(contentKey, envelope);
        }
        if (!streamed) {
            return;
        }
        try {
            // one SSE frame, rendered once and shared by every reader of the topic
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            frame.writeBytes(DATA);
            mapper.writeValue(frame, MessageJson.writeEnvelope(mapper, envelope));
            frame.writeBytes(END);
            streams.publish(topic, frame.toByteArray());
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree always serialises into memory", e);
        }
    }
}
