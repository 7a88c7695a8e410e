package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Promise;

import java.util.ArrayDeque;

/** A yamux stream: writes wait for the peer's credit; credit is renewed as the handler takes the bytes. */
final class YamuxStream extends MuxedStream {
    private final YamuxSession yamux;
    /** Credit the peer has left on this stream (bytes it may still send us). */
    long receiveWindow;
    /** Credit we have left (bytes we may still send). */
    long sendWindow = MuxerLimits.YAMUX_INITIAL_WINDOW;
    /** Bytes delivered to the handler and not yet given back to the peer as credit. */
    private long consumedSinceUpdate;
    private final ArrayDeque<PendingWrite> writes = new ArrayDeque<>();
    private long pendingBytes;
    private boolean finPending;

    private record PendingWrite(ByteBuf data, Promise<Void> promise) {
    }

    YamuxStream(YamuxSession session, long id, boolean outbound) {
        super(session, id, outbound);
        this.yamux = session;
        this.receiveWindow = session.limits.yamuxReceiveWindow();
    }

    @Override
    void sendData(ByteBuf data, Promise<Void> promise) {
        writes.add(new PendingWrite(data, promise));
        pendingBytes += data.readableBytes();
        drainWrites();
    }

    /** Sends what the peer's credit allows, then the FIN if one waits. */
    void drainWrites() {
        while (!writes.isEmpty() && (sendWindow > 0 || !writes.peek().data.isReadable())) {
            PendingWrite head = writes.peek();
            int readable = head.data.readableBytes();
            if (readable == 0) {
                writes.poll();
                head.data.release();
                if (head.promise != null) {
                    head.promise.trySuccess(null);
                }
                continue;
            }
            int n = (int) Math.min(Math.min(readable, sendWindow), YamuxSession.MAX_DATA_FRAME);
            boolean last = n == readable;
            yamux.writeHeader(YamuxSession.TYPE_DATA, 0, id, n);
            if (last) {
                writes.poll();
                session.write(head.data, head.promise);
            } else {
                session.write(head.data.readRetainedSlice(n), null);
            }
            sendWindow -= n;
            pendingBytes -= n;
        }
        if (finPending && writes.isEmpty()) {
            finPending = false;
            yamux.writeHeader(YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.FIN, id, 0);
        }
        session.flush();
        checkWritability();
        maybeFinish();
    }

    @Override
    void sendCloseWrite() {
        finPending = true;
        drainWrites();
    }

    @Override
    void sendReset() {
        // queued writes are released (their promises failed) when the stream finishes, right after this
        yamux.writeHeader(YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.RST, id, 0);
    }

    @Override
    void consumed(int bytes) {
        consumedSinceUpdate += bytes;
        // give credit back in chunks of half a window: fewer frames, and the peer never waits on an empty window
        if (consumedSinceUpdate >= session.limits.yamuxReceiveWindow() / 2 && !ended()) {
            receiveWindow += consumedSinceUpdate;
            yamux.writeWindowUpdate(id, consumedSinceUpdate);
            consumedSinceUpdate = 0;
        }
    }

    @Override
    long pendingWriteBytes() {
        return pendingBytes;
    }

    @Override
    void releaseWrites(Throwable cause) {
        PendingWrite w;
        while ((w = writes.poll()) != null) {
            w.data.release();
            if (w.promise != null && cause != null) {
                w.promise.tryFailure(cause);
            }
        }
        pendingBytes = 0;
        finPending = false;
    }
}
