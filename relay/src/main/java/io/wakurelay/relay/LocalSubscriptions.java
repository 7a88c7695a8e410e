package io.wakurelay.relay;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The pubsub topics this node subscribes to. Reads are lock-free (an immutable set swapped on change); changes
 * and the Hello that announces the current set are serialised by one lock, so every connection learns either
 * the new set in its Hello or the change in a Subscribe/Unsubscribe written after that Hello, never neither.
 */
final class LocalSubscriptions {
    private volatile Set<String> topics;

    LocalSubscriptions(Set<String> initial) {
        this.topics = Set.copyOf(initial);
    }

    boolean contains(String topic) {
        return topics.contains(topic);
    }

    Set<String> current() {
        return topics;
    }

    /** Adds {@code add}; calls {@code announce} with the topics that were new, under the lock, if there are any. */
    synchronized void subscribe(Collection<String> add, Consumer<Set<String>> announce) {
        Set<String> added = new LinkedHashSet<>(add);
        added.removeAll(topics);
        if (!added.isEmpty()) {
            Set<String> next = new LinkedHashSet<>(topics);
            next.addAll(added);
            topics = Set.copyOf(next);
            announce.accept(Set.copyOf(added));
        }
    }

    /** Removes {@code remove}; calls {@code announce} with the topics that were there, under the lock, if any. */
    synchronized void unsubscribe(Collection<String> remove, Consumer<Set<String>> announce) {
        Set<String> removed = new LinkedHashSet<>(remove);
        removed.retainAll(topics);
        if (!removed.isEmpty()) {
            Set<String> next = new LinkedHashSet<>(topics);
            next.removeAll(removed);
            topics = Set.copyOf(next);
            announce.accept(Set.copyOf(removed));
        }
    }

    /** Runs {@code withTopics} on the current set with changes held off (to send a Hello and track its connection). */
    synchronized <T> T whileUnchanged(Function<Set<String>, T> withTopics) {
        return withTopics.apply(topics);
    }
}
