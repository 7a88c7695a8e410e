package io.wakurelay.loadgen;

import io.wakurelay.protocol.MessageHash;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/**
 * Matches what the publisher sent (index and hash) with what the receiver confirmed (hash and time), in
 * whichever order the two reports arrive.
 */
final class Tracker {
    private final int warmup;
    private final long[] publishedAt;
    private final long[] confirmedAt;
    private final Map<MessageHash, Integer> awaiting = new HashMap<>();
    private final Map<MessageHash, Long> early = new HashMap<>();
    private final IntConsumer onConfirmed;
    final CountDownLatch warm;
    final CountDownLatch measured;
    private long lastConfirmed;
    private long firstConfirmed;

    Tracker(int total, int warmup, IntConsumer onConfirmed) {
        this.warmup = warmup;
        this.publishedAt = new long[total];
        this.confirmedAt = new long[total];
        this.onConfirmed = onConfirmed;
        this.warm = new CountDownLatch(warmup);
        this.measured = new CountDownLatch(total - warmup);
    }

    void sending(int index) {
        publishedAt[index] = System.nanoTime();
    }

    synchronized void published(int index, MessageHash hash) {
        Long at = early.remove(hash);
        if (at != null) {
            complete(index, at);
        } else {
            awaiting.put(hash, index);
        }
    }

    synchronized void confirmed(MessageHash hash, long nanos) {
        Integer index = awaiting.remove(hash);
        if (index != null) {
            complete(index, nanos);
        } else if (early.size() < 1_000_000) {
            early.put(hash, nanos);
        }
    }

    private void complete(int index, long nanos) {
        if (confirmedAt[index] != 0) {
            return;
        }
        confirmedAt[index] = nanos;
        onConfirmed.accept(index);
        if (index < warmup) {
            warm.countDown();
        } else {
            lastConfirmed = Math.max(lastConfirmed, nanos);
            firstConfirmed = firstConfirmed == 0 ? nanos : Math.min(firstConfirmed, nanos);
            measured.countDown();
        }
    }

    synchronized long lastConfirmed() {
        return lastConfirmed;
    }

    synchronized long firstConfirmed() {
        return firstConfirmed;
    }

    long outstanding() {
        return measured.getCount();
    }

    synchronized Latencies latencies() {
        Latencies l = new Latencies(publishedAt.length - warmup);
        for (int i = warmup; i < publishedAt.length; i++) {
            if (confirmedAt[i] != 0) {
                l.add(confirmedAt[i] - publishedAt[i]);
            }
        }
        return l;
    }

    synchronized java.util.List<MessageHash> unconfirmed() {
        return java.util.List.copyOf(awaiting.keySet());
    }
}
