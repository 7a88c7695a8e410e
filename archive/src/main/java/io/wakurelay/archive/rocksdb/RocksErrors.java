package io.wakurelay.archive.rocksdb;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** Human-readable RocksDB failures for logs and exceptions. */
final class RocksErrors {
    private RocksErrors() {
    }

    static String describe(RocksDBException e) {
        Status status = e.getStatus();
        if (status == null) {
            return String.valueOf(e.getMessage());
        }
        String sub = status.getSubCode() == null || status.getSubCode() == Status.SubCode.None ? "" : "/" + status.getSubCode();
        return status.getCode() + sub + ": " + (status.getState() != null ? status.getState() : e.getMessage());
    }

    /** Disk full, as RocksDB reports ENOSPC. */
    static boolean isNoSpace(RocksDBException e) {
        Status status = e.getStatus();
        return status != null && status.getSubCode() == Status.SubCode.NoSpace;
    }
}
