package io.wakurelay.node;

import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.protocol.Envelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The end of the receive path: every message the relay accepted goes into the archive (or, on a node without one,
 * is released). It finishes when the relay's stream of accepted messages ends and the archive has committed them,
 * which is why the node stops it after the relay; {@link #failure()} is what stopped it early.
 */
final class ArchivePipeline {
    private static final Logger log = LoggerFactory.getLogger(ArchivePipeline.class);

    private final MessageArchive archive;
    private final Sinks.Many<CommittedBatch> committed = Sinks.many().multicast().directBestEffort();
    private final Sinks.Empty<Void> done = Sinks.empty();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Disposable subscription;

    /** @param archive null on a node that does not archive */
    ArchivePipeline(MessageArchive archive) {
        this.archive = archive;
    }

    /** Starts taking {@code accepted}; each envelope is the pipeline's to release (the archive releases what it stores). */
    void connect(Flux<Envelope> accepted) {
        Flux<?> sink = archive == null
                ? accepted.doOnNext(Envelope::release)
                : archive.write(accepted).doOnNext(committed::tryEmitNext);
        subscription = sink.subscribe(x -> { },
                e -> {
                    failure.set(e);
                    log.error("message pipeline failed; the node no longer archives", e);
                    done.tryEmitEmpty();
                },
                done::tryEmitEmpty);
    }

    /**
     * Waits up to {@code grace} for what the relay accepted to be committed (the relay has stopped by now, so the
     * stream ends), then stops taking messages.
     */
    Mono<Void> shutdown(Duration grace) {
        Mono<Void> finished = subscription == null ? Mono.empty() : done.asMono();
        return finished.timeout(grace.isZero() ? Duration.ofMillis(1) : grace)
                .onErrorResume(TimeoutException.class, e -> {
                    log.atWarn().addKeyValue("grace", String.valueOf(grace)).log("the archive did not finish in time; stopping it");
                    return Mono.empty();
                })
                .doFinally(signal -> {
                    Disposable s = subscription;
                    if (s != null) {
                        s.dispose();
                    }
                    committed.tryEmitComplete();
                });
    }

    /** Every batch the archive commits, as it commits it (hot). */
    Flux<CommittedBatch> committed() {
        return committed.asFlux();
    }

    /** What ended the pipeline before the node stopped, or null. */
    Throwable failure() {
        return failure.get();
    }
}
