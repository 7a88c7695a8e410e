package io.wakurelay.archive.common;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.StorePage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pages of an archive that are open, so that closing the archive closes them before the store they read
 * (a RocksDB snapshot must not outlive its database, a connection must go back before its pool closes). Thread-safe.
 */
public final class OpenPages {
    private final Set<StorePage> pages = new HashSet<>();
    private boolean closed;

    /**
     * Keeps {@code page} until it is {@link #forget forgotten}.
     *
     * @throws ArchiveClosedException when the archive is closing; the page is closed then
     */
    public void add(StorePage page) {
        synchronized (this) {
            if (!closed) {
                pages.add(page);
                return;
            }
        }
        page.close();
        throw new ArchiveClosedException("the archive is closing");
    }

    /** Called by a page as it closes. */
    public synchronized void forget(StorePage page) {
        pages.remove(page);
    }

    /** Closes every open page; a page added after is closed at once. */
    public void closeAll() {
        List<StorePage> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(pages);
        }
        open.forEach(StorePage::close);
    }
}
