package io.wakurelay.node.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.protocol.Envelope;

/**
 * Hands accepted messages to the REST consumers (topic cache and SSE streams). Runs inline on the message
 * path, so it only renders a message when someone wants it, and never blocks.
 */
public final class LocalDelivery {
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
        boolean streamed = streams.hasListeners(topic);
        if (!cached && !streamed) {
            return;
        }
        if (cached) {
            cache.add(topic, MessageJson.write(mapper, envelope.message()));
        }
        if (streamed) {
            try {
                streams.publish(topic, mapper.writeValueAsString(MessageJson.writeEnvelope(mapper, envelope)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a JSON tree always serialises", e);
            }
        }
    }
}
