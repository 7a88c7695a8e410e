package io.wakurelay.archive;

/** The archive was closed: no more queries, and a write stream still open ends with this error. */
public final class ArchiveClosedException extends IllegalStateException {
    public ArchiveClosedException(String message) {
        super(message);
    }
}
