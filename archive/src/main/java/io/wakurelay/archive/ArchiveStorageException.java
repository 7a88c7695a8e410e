package io.wakurelay.archive;

/** RocksDB refused an operation that cannot be retried transparently (open, a query, a retention pass). */
public final class ArchiveStorageException extends RuntimeException {
    public ArchiveStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
