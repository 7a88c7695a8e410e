package io.wakurelay.relay;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Paces one connection's inbound frames to its Publish allowance by withholding demand: frames pass through
 * untouched, one requested at a time, and while the allowance is in debt the next request waits on the event
 * loop. With no demand, Reactor Netty's receive flux turns auto-read off once the frames already read are
 * taken, the kernel's receive buffer fills and the peer's TCP window closes: the peer is slowed, nothing is
 * dropped, and no frame is held here (so none needs releasing).
 *
 * <p>Reactor Netty owns auto-read (it turns it on and off with demand), so pacing through demand is the one way
 * that does not fight it. Only on connections with a Publish limit: without one, demand passes straight through.
 */
final class PublishPacer implements CoreSubscriber<Object>, Subscription {
    private final CoreSubscriber<? super Object> downstream;
    private final PeerRateLimiter limiter;
    private final EventLoop eventLoop;
    private final Consumer<String> onPause;
    private Subscription upstream;
    private volatile boolean cancelled;
    private volatile ScheduledFuture<?> resume;
    // event loop only
    private long demand;
    private boolean requested;

    private PublishPacer(CoreSubscriber<? super Object> downstream, PeerRateLimiter limiter, EventLoop eventLoop,
                         Consumer<String> onPause) {
        this.downstream = downstream;
        this.limiter = limiter;
        this.eventLoop = eventLoop;
        this.onPause = onPause;
    }

    /**
     * The operator, for {@code Flux.transform}.
     *
     * @param onPause told which limit (a {@link PeerRateLimiter} kind) paused reading, each time it does
     */
    static Function<Flux<Object>, Publisher<Object>> pacing(PeerRateLimiter limiter, EventLoop eventLoop, Consumer<String> onPause) {
        return frames -> Operators.<Object, Object>lift((scannable, downstream) ->
                new PublishPacer(downstream, limiter, eventLoop, onPause)).apply(frames);
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        if (Operators.validate(upstream, subscription)) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }
    }

    @Override
    public void onNext(Object frame) {
        requested = false;
        downstream.onNext(frame); // the session spends the frame's cost in here
        drain();
    }

    @Override
    public void onError(Throwable error) {
        stopResume();
        downstream.onError(error);
    }

    @Override
    public void onComplete() {
        stopResume();
        downstream.onComplete();
    }

    @Override
    public Context currentContext() {
        return downstream.currentContext();
    }

    @Override
    public void request(long n) {
        if (!Operators.validate(n)) {
            return;
        }
        if (eventLoop.inEventLoop()) {
            more(n);
        } else {
            eventLoop.execute(() -> more(n));
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
        stopResume();
        upstream.cancel();
    }

    private void more(long n) {
        demand = Operators.addCap(demand, n);
        drain();
    }

    /** Requests the next frame if there is demand, none is on its way, and the allowance is not in debt. */
    private void drain() {
        if (cancelled || requested || demand == 0 || resume != null) {
            return;
        }
        long wait = limiter.publishPauseNanos();
        if (wait > 0) {
            onPause.accept(limiter.publishPausedBy());
            resume = eventLoop.schedule(this::resume, wait, TimeUnit.NANOSECONDS);
            return;
        }
        requested = true;
        if (demand != Long.MAX_VALUE) {
            demand--;
        }
        upstream.request(1);
    }

    private void resume() {
        resume = null;
        drain();
    }

    private void stopResume() {
        ScheduledFuture<?> pending = resume;
        if (pending != null) {
            pending.cancel(false);
        }
    }
}
