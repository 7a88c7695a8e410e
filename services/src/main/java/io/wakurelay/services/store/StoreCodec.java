package io.wakurelay.services.store;

import com.google.protobuf.ByteString;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.proto.StoreQueryRequest;
import io.wakurelay.services.proto.StoreQueryResponse;
import io.wakurelay.services.proto.WakuMessageKeyValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Store v3 messages to and from the archive's query types. The archive's {@link StoreQuery} decides what a valid
 * query is (the same code as the REST store); this class only translates the fields. A page of this node's archive
 * is written by {@link StorePageEncoder}.
 */
final class StoreCodec {
    private StoreCodec() {
    }

    /**
     * The archive query a request asks for. Store v3 defaults apply: backward unless {@code pagination_forward},
     * page size 20 when the limit is absent or 0, 100 when it is larger. A {@code pubsub_topic} sent with
     * {@code message_hashes} (as js-waku's hash lookups do) is not used: a message hash commits to its pubsub topic.
     *
     * @throws InvalidQueryException saying what is wrong
     */
    static StoreQuery toQuery(StoreQueryRequest request) {
        if (request.getRequestId().isEmpty()) {
            throw new InvalidQueryException("request_id is required");
        }
        StoreQuery.Builder b = StoreQuery.builder();
        boolean byHashes = request.getMessageHashesCount() > 0;
        if (request.hasPubsubTopic() && !(byHashes && request.getContentTopicsCount() == 0)) {
            b.pubsubTopic(request.getPubsubTopic());
        }
        b.contentTopics(request.getContentTopicsList());
        if (request.hasTimeStart()) {
            b.startTime(request.getTimeStart());
        }
        if (request.hasTimeEnd()) {
            b.endTime(request.getTimeEnd());
        }
        List<MessageHash> hashes = new ArrayList<>(request.getMessageHashesCount());
        for (int i = 0; i < request.getMessageHashesCount(); i++) {
            hashes.add(hash(request.getMessageHashes(i), "message_hashes[" + i + "]"));
        }
        b.hashes(hashes);
        if (request.hasPaginationCursor()) {
            b.cursor(hash(request.getPaginationCursor(), "pagination_cursor"));
        }
        b.ascending(request.getPaginationForward());
        if (request.hasPaginationLimit()) {
            long limit = request.getPaginationLimit(); // unsigned on the wire
            b.pageSize(Long.compareUnsigned(limit, StoreQuery.MAX_PAGE_SIZE) > 0 ? StoreQuery.MAX_PAGE_SIZE : (int) limit);
        } else {
            b.pageSize(0);
        }
        b.includeData(request.getIncludeData());
        return b.build();
    }

    private static MessageHash hash(ByteString bytes, String field) {
        if (bytes.size() != MessageHash.LENGTH) {
            throw new InvalidQueryException(field + " is " + bytes.size() + " bytes; a message hash is " + MessageHash.LENGTH);
        }
        return MessageHash.of(bytes.toByteArray());
    }

    /** The request that asks a remote store for {@code query}. */
    static StoreQueryRequest toRequest(StoreQuery query, String requestId) {
        StoreQueryRequest.Builder b = StoreQueryRequest.newBuilder()
                .setRequestId(requestId)
                .setIncludeData(query.includeData())
                .addAllContentTopics(query.contentTopics())
                .setPaginationForward(query.ascending())
                .setPaginationLimit(query.pageSize());
        if (query.pubsubTopic() != null) {
            b.setPubsubTopic(query.pubsubTopic());
        }
        if (query.startTime() != null) {
            b.setTimeStart(query.startTime());
        }
        if (query.endTime() != null) {
            b.setTimeEnd(query.endTime());
        }
        for (MessageHash hash : query.hashes()) {
            b.addMessageHashes(ByteString.copyFrom(hash.toByteArray()));
        }
        if (query.cursor() != null) {
            b.setPaginationCursor(ByteString.copyFrom(query.cursor().toByteArray()));
        }
        return b.build();
    }

    /** A response without messages: a failure, or a status only. */
    static StoreQueryResponse status(String requestId, StoreStatus status, String description) {
        return StoreQueryResponse.newBuilder().setRequestId(requestId).setStatusCode(status.code())
                .setStatusDesc(description).build();
    }

    /**
     * A remote store's successful response as the archive's page type. The timestamp of each result is the
     * message's own (0 without data, or when the message has none).
     *
     * @throws IllegalArgumentException when a hash or the cursor is not 32 bytes
     */
    static StoreResponse toStoreResponse(StoreQueryResponse response) {
        List<StoredMessage> messages = new ArrayList<>(response.getMessagesCount());
        for (WakuMessageKeyValue kv : response.getMessagesList()) {
            if (kv.getMessageHash().size() != MessageHash.LENGTH) {
                throw new IllegalArgumentException("a message hash of " + kv.getMessageHash().size() + " bytes");
            }
            MessageHash hash = MessageHash.of(kv.getMessageHash().toByteArray());
            WakuMessage message = kv.hasMessage() ? kv.getMessage() : null;
            String topic = kv.hasPubsubTopic() ? kv.getPubsubTopic() : null;
            long timestamp = message != null && message.hasTimestamp() ? message.getTimestamp() : 0;
            messages.add(new StoredMessage(hash, timestamp, topic, message));
        }
        MessageHash cursor = null;
        if (response.hasPaginationCursor()) {
            if (response.getPaginationCursor().size() != MessageHash.LENGTH) {
                throw new IllegalArgumentException("a pagination cursor of " + response.getPaginationCursor().size() + " bytes");
            }
            cursor = MessageHash.of(response.getPaginationCursor().toByteArray());
        }
        return new StoreResponse(messages, cursor);
    }
}
