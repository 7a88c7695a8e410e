package io.wakurelay.node;

import io.wakurelay.node.rest.LocalDelivery;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.services.filter.FilterService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Where every message the node accepted goes, in this order, one message at a time:
 * <ol>
 * <li>filter push ({@code FilterService.onAccepted}: one push frame, queued to each matching subscriber; never blocks),</li>
 * <li>REST delivery ({@code LocalDelivery}: the topic's cache for {@code GET /relay/v1/messages}, and its Server-Sent
 *     Event streams),</li>
 * <li>the taps (in-process observers such as the load generator),</li>
 * <li>the archive ({@code ArchivePipeline}: written, or released on a node that does not archive).</li>
 * </ol>
 * The four are one chain, not siblings, and the archive's demand paces all of them: a message reaches filter, REST
 * and the taps when the archive requests it (at most {@code maxPendingMessages} ahead of its commits), on the thread
 * that hands it over then (a connection's event loop, a validation thread, a publisher's, or the archive writer's
 * when its request lets waiting messages through). An archive that falls behind holds back the first three as well,
 * and the relay's hand-over pauses the peers that deliver more: nothing accepted is dropped on the way. A failing
 * filter push or REST delivery is logged and the chain goes on; a tap must not throw or block.
 *
 * <p>The messages come from sources ({@link #connect}): the relay's accepted stream today, store sync's later. Each
 * source hands over each of its envelopes once, with a reference that this stage releases (the archive does, for
 * what it stores); several sources are merged, one envelope requested ahead from each.
 */
final class AcceptedMessages {
    private static final Logger log = LoggerFactory.getLogger(AcceptedMessages.class);

    private final Consumer<Envelope> filterPush;
    private final Consumer<Envelope> restDelivery;
    private final ArchivePipeline archive;
    private final List<Consumer<Envelope>> taps = new CopyOnWriteArrayList<>();

    /**
     * @param filterPush   {@code FilterService.onAccepted}; null on a node without the filter service
     * @param restDelivery {@code LocalDelivery.deliver}: REST's caches and streams
     * @param archive      the end of the chain
     */
    AcceptedMessages(Consumer<Envelope> filterPush, Consumer<Envelope> restDelivery, ArchivePipeline archive) {
        this.filterPush = filterPush;
        this.restDelivery = restDelivery;
        this.archive = archive;
    }

    /** The stage of a node: its filter service (null: none) and REST's delivery. */
    static AcceptedMessages of(FilterService filter, LocalDelivery delivery, ArchivePipeline archive) {
        return new AcceptedMessages(filter == null ? null : filter::onAccepted, delivery::deliver, archive);
    }

    /** Starts taking the messages of {@code sources} (none: nothing comes, the archive's stream ends at once). */
    void connect(List<Flux<Envelope>> sources) {
        Flux<Envelope> merged = switch (sources.size()) {
            case 0 -> Flux.empty();
            case 1 -> sources.get(0);
            default -> Flux.merge(Flux.fromIterable(sources), sources.size(), 1);
        };
        archive.connect(merged.doOnNext(this::beforeTheArchive).doOnDiscard(Envelope.class, Envelope::release));
    }

    /** Calls {@code listener} with every accepted message before the archive takes it; closing the handle removes it. */
    AutoCloseable tap(Consumer<Envelope> listener) {
        taps.add(listener);
        return () -> taps.remove(listener);
    }

    private void beforeTheArchive(Envelope e) {
        if (filterPush != null) {
            try {
                filterPush.accept(e); // keeps nothing of the envelope
            } catch (RuntimeException ex) {
                log.atWarn().addKeyValue("hash", String.valueOf(e.hash())).addKeyValue("topic", e.pubsubTopic()).setCause(ex)
                        .log("filter push failed");
            }
        }
        try {
            restDelivery.accept(e);
        } catch (RuntimeException ex) {
            log.atWarn().addKeyValue("hash", String.valueOf(e.hash())).addKeyValue("topic", e.pubsubTopic()).setCause(ex)
                    .log("local delivery failed");
        }
        for (Consumer<Envelope> tap : taps) {
            tap.accept(e);
        }
    }
}
