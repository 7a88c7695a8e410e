package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Promise;

/** An mplex stream: writes go straight to the connection in frames of at most 1 MiB; reads are bounded by bytes. */
final class MplexStream extends MuxedStream {
    private final MplexSession mplex;
    private boolean overSoftBound;

    MplexStream(MplexSession session, long id, boolean outbound) {
        super(session, id, outbound);
        this.mplex = session;
    }

    @Override
    void sendData(ByteBuf data, Promise<Void> promise) {
        int flag = isOutbound() ? MplexSession.MESSAGE_INITIATOR : MplexSession.MESSAGE_RECEIVER;
        while (data.readableBytes() > MplexSession.MAX_FRAME_BYTES) {
            mplex.writeFrame(id, flag, data.readRetainedSlice(MplexSession.MAX_FRAME_BYTES), null);
        }
        if (data.isReadable()) {
            mplex.writeFrame(id, flag, data, promise);
        } else {
            data.release();
            if (promise != null) {
                promise.trySuccess(null);
            }
        }
    }

    @Override
    void sendCloseWrite() {
        mplex.writeFrame(id, isOutbound() ? MplexSession.CLOSE_INITIATOR : MplexSession.CLOSE_RECEIVER, null, null);
    }

    @Override
    void sendReset() {
        mplex.writeFrame(id, isOutbound() ? MplexSession.RESET_INITIATOR : MplexSession.RESET_RECEIVER, null, null);
    }

    @Override
    void consumed(int bytes) {
        // no credit in mplex
    }

    @Override
    long pendingWriteBytes() {
        return 0;
    }

    @Override
    void releaseWrites(Throwable cause) {
        // nothing waits: writes went to the connection
    }

    @Override
    void onInboundBuffered(long bytes) {
        long bound = session.limits.mplexMaxBufferedBytes();
        if (bytes > bound) {
            session.events.streamOverflow(this);
            reset();
        } else if (bytes > bound / 2 != overSoftBound) {
            overSoftBound = !overSoftBound;
            mplex.overSoftBound(overSoftBound ? 1 : -1);
        }
    }

    @Override
    void onFinished() {
        if (overSoftBound) {
            overSoftBound = false;
            mplex.overSoftBound(-1);
        }
    }
}
