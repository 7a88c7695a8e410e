package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.validation.RelayValidator;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A validator that behaves as RLN's will, for the relay's tests: cheap checks on the thread the message arrived on
 * (timestamp, epoch, root), an expensive proof check on the relay's validation threads (about 3 ms, parked rather
 * than spun: this machine has two cores), and a nullifier log. A test says what each message is in its meta:
 * <ul>
 * <li>{@code meta[0]}: {@code A} accepted by the screen, {@code R} rejected by it ({@value #BAD_EPOCH}), {@code I}
 *     ignored by it ({@value #UNKNOWN_ROOT}), {@code V} verified;</li>
 * <li>{@code meta[1]}, for {@code V}: {@code a} a valid proof, {@code f} a forged one ({@value #INVALID_PROOF}),
 *     {@code i} one it cannot judge ({@value #ROOT_GONE}), {@code s} a valid proof slow to verify (30 ms);</li>
 * <li>{@code meta[2..9]}: the nullifier; a second valid message with a logged nullifier is spam ({@value #SPAM}).</li>
 * </ul>
 * A test may hold verifications at a gate ({@link #hold()}, {@link #open()}), one message's at a gate of its own
 * ({@link #holdNullifier}), and sees how many ran and on which threads.
 */
final class FakeRlnValidator implements RelayValidator {
    static final String BAD_EPOCH = "invalid_epoch";
    static final String UNKNOWN_ROOT = "unknown_root";
    static final String INVALID_PROOF = "invalid_proof";
    static final String ROOT_GONE = "root_gone";
    static final String SPAM = "spam";
    static final long PROOF_NANOS = TimeUnit.MILLISECONDS.toNanos(3);
    static final long SLOW_PROOF_NANOS = TimeUnit.MILLISECONDS.toNanos(30);

    final AtomicInteger screens = new AtomicInteger();
    final AtomicInteger verifications = new AtomicInteger();
    final List<String> verifyThreads = new CopyOnWriteArrayList<>();
    final List<String> screenThreads = new CopyOnWriteArrayList<>();
    final AtomicInteger started = new AtomicInteger();
    private final Set<Long> nullifiers = Collections.synchronizedSet(new HashSet<>());
    private final Map<Long, CountDownLatch> nullifierGates = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);

    /** Meta that makes a message {@code kind} ({@code A}, {@code R}, {@code I}, {@code V}) with {@code proof}. */
    static ByteString meta(char kind, char proof, long nullifier) {
        return ByteString.copyFrom(ByteBuffer.allocate(10).put((byte) kind).put((byte) proof).putLong(nullifier).array());
    }

    /** Message {@code index} (its nullifier), {@code size} payload bytes, of {@code kind} with {@code proof}. */
    static WakuMessage message(int index, int size, char kind, char proof) {
        return Messages.message(index, size).toBuilder().setMeta(meta(kind, proof, index)).build();
    }

    /** From now on verifications wait at a gate until {@link #open()}. */
    FakeRlnValidator hold() {
        gate = new CountDownLatch(1);
        return this;
    }

    void open() {
        gate.countDown();
    }

    /** The verification of the message with {@code nullifier} waits until the returned latch is counted down. */
    CountDownLatch holdNullifier(long nullifier) {
        CountDownLatch latch = new CountDownLatch(1);
        nullifierGates.put(nullifier, latch);
        return latch;
    }

    @Override
    public Set<String> reasons() {
        return Set.of(BAD_EPOCH, UNKNOWN_ROOT, INVALID_PROOF, ROOT_GONE, SPAM);
    }

    @Override
    public Screen screen(Envelope envelope) {
        screens.incrementAndGet();
        screenThreads.add(Thread.currentThread().getName());
        ByteBuf meta = envelope.message().meta();
        char kind = meta.isReadable() ? (char) meta.getByte(meta.readerIndex()) : 'V';
        return switch (kind) {
            case 'A' -> Verdict.ACCEPT;
            case 'R' -> Verdict.reject(BAD_EPOCH);
            case 'I' -> Verdict.ignore(UNKNOWN_ROOT);
            default -> Screen.VERIFY;
        };
    }

    @Override
    public Verdict verify(Envelope envelope) {
        started.incrementAndGet();
        verifyThreads.add(Thread.currentThread().getName());
        ByteBuf meta = envelope.message().meta();
        char proof = meta.readableBytes() < 2 ? 'a' : (char) meta.getByte(meta.readerIndex() + 1);
        long nullifier = meta.readableBytes() < 10 ? envelope.hash().hashCode() : meta.getLong(meta.readerIndex() + 2);
        await(gate);
        CountDownLatch own = nullifierGates.get(nullifier);
        if (own != null) {
            await(own);
        }
        LockSupport.parkNanos(proof == 's' ? SLOW_PROOF_NANOS : PROOF_NANOS);
        verifications.incrementAndGet();
        return switch (proof) {
            case 'f' -> Verdict.reject(INVALID_PROOF);
            case 'i' -> Verdict.ignore(ROOT_GONE);
            default -> nullifiers.add(nullifier) ? Verdict.ACCEPT : Verdict.reject(SPAM);
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("a test never opened the gate");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
