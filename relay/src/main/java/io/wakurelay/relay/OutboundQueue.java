package io.wakurelay.relay;

/**
 * Accounting of what has been written to one peer's channel and not yet taken by its socket: Netty holds the
 * bytes (in its outbound buffer, or in the event loop's task queue when written from another thread); this
 * class decides whether one more message may join them.
 *
 * <p>A message that does not fit is dropped for this peer only. Drops are counted; a peer that causes more than
 * {@code maxConsecutiveDrops} drops in a row (with no message fitting in between) is a slow consumer and is to be
 * disconnected. "In a row" rather than "per time window" because it needs no clock and describes the harmful case
 * exactly: a peer that keeps a full queue for that many messages.
 */
final class OutboundQueue {
    enum Admission {
        /** Room was reserved; the caller writes and calls {@link #written(int)} when the write completes. */
        QUEUED,
        /** No room: the message is not sent to this peer. */
        DROPPED,
        /** No room, and too many drops in a row: the peer must be disconnected. */
        DROPPED_SLOW_CONSUMER
    }

    private final int maxMessages;
    private final long maxBytes;
    private final int maxConsecutiveDrops;
    private int messages;
    private long bytes;
    private int consecutiveDrops;
    private long drops;

    OutboundQueue(int maxMessages, long maxBytes, int maxConsecutiveDrops) {
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
        this.maxConsecutiveDrops = maxConsecutiveDrops;
    }

    /** Reserves room for a droppable message of {@code size} bytes. */
    synchronized Admission offer(int size) {
        if (messages + 1 > maxMessages || bytes + size > maxBytes) {
            drops++;
            consecutiveDrops++;
            return consecutiveDrops > maxConsecutiveDrops ? Admission.DROPPED_SLOW_CONSUMER : Admission.DROPPED;
        }
        consecutiveDrops = 0;
        messages++;
        bytes += size;
        return Admission.QUEUED;
    }

    /**
     * Counts a frame that must be sent whatever the queue holds (Hello, Subscribe, Goodbye): rare and small, they
     * are bounded by their own rules, but they occupy the socket like any other write.
     */
    synchronized void force(int size) {
        messages++;
        bytes += size;
    }

    /** A write of {@code size} bytes completed (or failed): its room is free again. */
    synchronized void written(int size) {
        messages--;
        bytes -= size;
    }

    synchronized int messages() {
        return messages;
    }

    synchronized long bytes() {
        return bytes;
    }

    synchronized long drops() {
        return drops;
    }
}
