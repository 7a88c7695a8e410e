package io.wakurelay.services.filter;

import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.LengthPrefixedHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.services.RawExchange;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.FilterSubscribeRequest;
import io.wakurelay.services.proto.FilterSubscribeRequest.FilterSubscribeType;
import io.wakurelay.services.proto.FilterSubscribeResponse;
import io.wakurelay.services.proto.MessagePush;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A filter client by hand: sends filter-subscribe requests, and serves filter-push, keeping every push (or, stalled,
 * taking none: its push streams stop reading, so their credit runs out).
 */
public final class FilterTestClient implements AutoCloseable {
    public final Host host;
    public final List<MessagePush> received = new CopyOnWriteArrayList<>();
    private volatile boolean stalled;

    /** @param acceptsPushes false: the client does not offer filter-push (pushes to it cannot be opened) */
    public FilterTestClient(int index, boolean acceptsPushes) {
        host = RawExchange.clientHost(index);
        if (acceptsPushes) {
            host.handle(FilterConfig.PUSH_PROTOCOL_ID, s -> new PushReader());
        }
    }

    /** From now on, push streams are not read (call before the first push). */
    public void stall() {
        stalled = true;
    }

    public FilterSubscribeResponse request(ServiceNode node, FilterSubscribeType type, String pubsubTopic,
                                           String... contentTopics) {
        FilterSubscribeRequest.Builder b = FilterSubscribeRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                .setFilterSubscribeType(type).addAllContentTopics(List.of(contentTopics));
        if (pubsubTopic != null) {
            b.setPubsubTopic(pubsubTopic);
        }
        return send(node, b.build());
    }

    public FilterSubscribeResponse subscribe(ServiceNode node, String... contentTopics) {
        return request(node, FilterSubscribeType.SUBSCRIBE, ServiceNode.TOPIC, contentTopics);
    }

    public FilterSubscribeResponse send(ServiceNode node, FilterSubscribeRequest request) {
        RawExchange.Result result = RawExchange.run(host, node.address(), FilterConfig.SUBSCRIBE_PROTOCOL_ID,
                RawExchange.frame(request), true, Duration.ofSeconds(10));
        try {
            FilterSubscribeResponse response = FilterSubscribeResponse.parseFrom(result.message());
            if (!response.getRequestId().equals(request.getRequestId()) && !response.getRequestId().equals("N/A")) {
                throw new AssertionError("the response is for request " + response.getRequestId());
            }
            return response;
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        host.close();
    }

    /** Keeps every push; stalled, stops reading at once. */
    private final class PushReader extends LengthPrefixedHandler {
        PushReader() {
            super(1 << 20, (stream, push) -> {
                try {
                    received.add(MessagePush.parseFrom(push.nioBuffer()));
                } catch (InvalidProtocolBufferException e) {
                    throw new AssertionError("a push that is not a MessagePush", e);
                }
                return true;
            });
        }

        @Override
        public void onOpen(Stream s) {
            super.onOpen(s);
            if (stalled) {
                s.pauseReading();
            }
        }
    }
}
