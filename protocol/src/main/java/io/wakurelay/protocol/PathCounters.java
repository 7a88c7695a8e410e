package io.wakurelay.protocol;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the expensive steps of the message path of one node, so that benchmarks and metrics prove
 * "decode once, hash once, copy never" instead of assuming it. One instance per node.
 */
public final class PathCounters {
    private final LongAdder decodes = new LongAdder();
    private final LongAdder hashes = new LongAdder();
    private final LongAdder payloadCopies = new LongAdder();
    private final LongAdder encodes = new LongAdder();
    private final LongAdder messageIds = new LongAdder();

    void decoded() {
        decodes.increment();
    }

    void hashed() {
        hashes.increment();
    }

    /** Called wherever a payload is materialised on the heap instead of aliased. */
    public void payloadCopied() {
        payloadCopies.increment();
    }

    void encoded() {
        encodes.increment();
    }

    /** Called where the relay computes a gossipsub message id (SHA-256 of the WakuMessage bytes). */
    public void messageIdComputed() {
        messageIds.increment();
    }

    /** Gossipsub message id computations. */
    public long messageIds() {
        return messageIds.sum();
    }

    /** WakuMessage protobuf parses. */
    public long decodes() {
        return decodes.sum();
    }

    /** Message hash (SHA-256) computations. */
    public long hashes() {
        return hashes.sum();
    }

    /** Payload bytes copied into a new heap array rather than aliased from the network buffer. */
    public long payloadCopies() {
        return payloadCopies.sum();
    }

    /** WakuMessage encodes (local publishes). */
    public long encodes() {
        return encodes.sum();
    }
}
