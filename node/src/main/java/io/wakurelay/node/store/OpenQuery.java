package io.wakurelay.node.store;

import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.MessageHash;

import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;

/** A page being answered, holding one of the query slots until it is closed. */
public final class OpenQuery implements Iterator<StoredMessage>, AutoCloseable {
    private final StorePage page;
    private final QueryLimiter limiter;
    private final AtomicBoolean closed = new AtomicBoolean();

    OpenQuery(StorePage page, QueryLimiter limiter) {
        this.page = page;
        this.limiter = limiter;
    }

    /** The next query's cursor; null when there are no more results. */
    public MessageHash paginationCursor() {
        return page.paginationCursor();
    }

    /** Messages in the page. */
    public int size() {
        return page.size();
    }

    /** Stored bytes of the page's messages (with data), at most the page budget unless its one message is larger. */
    public long dataBytes() {
        return page.dataBytes();
    }

    @Override
    public boolean hasNext() {
        return page.hasNext();
    }

    /** @see StorePage#next() */
    @Override
    public StoredMessage next() {
        return page.next();
    }

    /** Closes the page and frees the slot. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                page.close();
            } finally {
                limiter.release();
            }
        }
    }
}
