package io.wakurelay.loadgen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.proto.RPC;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Publishes through a node's REST API, {@code POST /relay/v1/messages/{pubsubTopic}}, as any app does: the same
 * request our node and nwaku answer, so one run can drive either. Each frame's message is sent with every field
 * (its timestamp included), so the node computes the hash the generator computed. One request at a time, from the
 * sending thread: the run's window bounds what is unconfirmed, the REST round trip bounds the rate.
 */
final class RestPublisher implements FrameSink {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;

    RestPublisher(String hostPort, String pubsubTopic) {
        this.uri = URI.create("http://" + hostPort + "/relay/v1/messages/" + URLEncoder.encode(pubsubTopic, StandardCharsets.UTF_8));
    }

    @Override
    public void send(ByteBuf frame) {
        WakuMessage message;
        try {
            message = message(frame);
        } finally {
            frame.release();
        }
        publish(message);
    }

    /** Posts one message; a status other than 200 is an error carrying the node's answer. */
    void publish(WakuMessage message) {
        String body = json(message);
        HttpResponse<String> response;
        try {
            response = client.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("POST " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException("POST " + uri + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /** The WakuMessage of a relay-stream frame: a varint length, then {@code RPC{publish: [Message{data}]}}. */
    static WakuMessage message(ByteBuf frame) {
        ByteBuf rest = frame.duplicate();
        long length = Uvarint.read(rest);
        if (length != rest.readableBytes()) {
            throw new IllegalStateException("a frame of this generator announces " + length + " bytes and holds " + rest.readableBytes());
        }
        try {
            RPC rpc = RPC.parseFrom(rest.nioBuffer());
            return WakuMessage.parseFrom(rpc.getPublish(0).getData());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a frame of this generator does not parse: " + e.getMessage(), e);
        }
    }

    /** The message as the REST API takes it (docs/rest.md): base64 payload and meta, the timestamp given. */
    static String json(WakuMessage m) {
        ObjectNode o = JSON.createObjectNode();
        o.put("payload", Base64.getEncoder().encodeToString(m.getPayload().toByteArray()));
        o.put("contentTopic", m.getContentTopic());
        o.put("version", Integer.toUnsignedLong(m.getVersion()));
        o.put("timestamp", m.getTimestamp());
        if (m.hasMeta()) {
            o.put("meta", Base64.getEncoder().encodeToString(m.getMeta().toByteArray()));
        }
        o.put("ephemeral", m.getEphemeral());
        try {
            return JSON.writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and numbers always writes", e);
        }
    }

    @Override
    public void close() {
        // nothing to release: the JDK 17 HttpClient has no close, and its connections end with their idle timeout
    }
}
