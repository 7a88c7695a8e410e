package io.wakurelay.services.filter;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.filter.FilterSubscriptions.Answer;
import io.wakurelay.services.proto.FilterSubscribeRequest;
import io.wakurelay.services.proto.FilterSubscribeRequest.FilterSubscribeType;
import io.wakurelay.services.proto.FilterSubscribeResponse;

import java.util.List;

/**
 * One filter-subscribe request on an inbound stream: SUBSCRIBER_PING, SUBSCRIBE, UNSUBSCRIBE or UNSUBSCRIBE_ALL,
 * answered with a {@code FilterSubscribeResponse}. Subscribe and unsubscribe need a valid pubsub topic (as nwaku, one
 * this node does not relay is taken too) and 1..{@code maxContentTopicsPerRequest} valid content topics (rfc-index
 * core/12: "both a pubsub_topic and a non-empty content_topics set"). Runs on the stream's event loop; nothing here
 * blocks.
 */
final class FilterExchange extends ServerExchange {
    /** nwaku's words past the peer's rate ({@code waku_filter_v2/protocol.nim}), which scripts look for. */
    static final String RATE_LIMITED = "filter request rejected due rate limit exceeded";

    private final FilterService service;
    private final FilterMetrics metrics;

    FilterExchange(FilterService service) {
        super(service.exchangeLimits());
        this.service = service;
        this.metrics = service.metrics();
    }

    @Override
    protected void handle(Stream stream, ByteBuf request) {
        long start = System.nanoTime();
        FilterSubscribeRequest decoded =
                decode(stream, request, FilterSubscribeRequest.parser(), "FilterSubscribeRequest");
        if (decoded == null) {
            return;
        }
        Answer answer = answer(stream, decoded);
        metrics.request(decoded.getFilterSubscribeType(), start);
        if (answer.status() != FilterStatus.SUCCESS) {
            metrics.error(answer.status().label());
        }
        respond(Frames.lengthPrefixed(stream.alloc(), response(decoded.getRequestId(), answer)));
    }

    private Answer answer(Stream stream, FilterSubscribeRequest request) {
        if (service.isClosing()) {
            return new Answer(FilterStatus.SERVICE_UNAVAILABLE, "the filter service is shutting down");
        }
        FilterSubscriptions subscriptions = service.subscriptions();
        FilterSubscribeType type = request.getFilterSubscribeType();
        return switch (type) {
            case SUBSCRIBER_PING -> subscriptions.ping(stream.remotePeer());
            case UNSUBSCRIBE_ALL -> subscriptions.unsubscribeAll(stream.remotePeer());
            case SUBSCRIBE, UNSUBSCRIBE -> {
                Answer invalid = checkCriteria(request);
                if (invalid != null) {
                    yield invalid;
                }
                yield type == FilterSubscribeType.SUBSCRIBE
                        ? subscriptions.subscribe(stream.remotePeer(), stream.connection(), request.getPubsubTopic(),
                        request.getContentTopicsList(), service::newChannel)
                        : subscriptions.unsubscribe(stream.remotePeer(), request.getPubsubTopic(), request.getContentTopicsList());
            }
            case UNRECOGNIZED -> new Answer(FilterStatus.BAD_REQUEST, "unknown filter_subscribe_type "
                    + request.getFilterSubscribeTypeValue());
        };
    }

    private Answer checkCriteria(FilterSubscribeRequest request) {
        if (!request.hasPubsubTopic() || request.getContentTopicsCount() == 0) {
            return new Answer(FilterStatus.BAD_REQUEST, "pubsub_topic and content_topics must both be given");
        }
        int max = service.config().maxContentTopicsPerRequest();
        if (request.getContentTopicsCount() > max) {
            return new Answer(FilterStatus.BAD_REQUEST, "at most " + max + " content topics per request, got "
                    + request.getContentTopicsCount());
        }
        int maxTopicBytes = service.maxTopicBytes();
        try {
            Topics.checkPubsubTopic(request.getPubsubTopic(), maxTopicBytes);
            List<String> contentTopics = request.getContentTopicsList();
            for (String ct : contentTopics) {
                Topics.checkContentTopic(ct, service.maxContentTopicBytes());
            }
        } catch (ProtocolViolation e) {
            return new Answer(FilterStatus.BAD_REQUEST, e.getMessage());
        }
        return null; // a pubsub topic this node does not relay is taken, as nwaku takes it: messages come once it does
    }

    private static FilterSubscribeResponse response(String requestId, Answer answer) {
        return FilterSubscribeResponse.newBuilder().setRequestId(requestId).setStatusCode(answer.status().code())
                .setStatusDesc(answer.description()).build();
    }

    @Override
    protected ByteBuf failureResponse(Stream stream, Failure failure, String description) {
        FilterStatus status = switch (failure) {
            case MALFORMED, TOO_LARGE, TRUNCATED -> FilterStatus.BAD_REQUEST;
            case RATE_LIMITED -> FilterStatus.TOO_MANY_REQUESTS;
            case INTERNAL -> FilterStatus.INTERNAL_ERROR;
        };
        metrics.error(status == FilterStatus.BAD_REQUEST ? FilterMetrics.DECODE_FAILURE : status.label());
        String text = failure == Failure.RATE_LIMITED ? RATE_LIMITED : description;
        return Frames.lengthPrefixed(stream.alloc(), response(UNKNOWN_REQUEST_ID, new Answer(status, text)));
    }

    @Override
    protected void onTimeout() {
        metrics.error(FilterMetrics.TIMEOUT);
    }
}
