package io.wakurelay.relay;

/**
 * Where accepted messages come from: a peer's relay stream, or an in-process pseudo-peer ({@link PseudoPeer}). The
 * hand-over to the local consumer pauses the source that delivered the envelope that filled it, and resumes every
 * paused one once it is half empty. Both are called from any thread (the event loop a message arrived on, a
 * validation thread that accepted it, the consumer's thread that took one), one at a time for a source and in the
 * order the hand-over decided them; neither may block.
 */
public interface Source {
    /** Deliver no more until {@link #resume()}; what is already under way may still arrive. */
    void pause();

    /** Deliver again. */
    void resume();
}
