package io.wakurelay.services.store;

import io.wakurelay.archive.QuerySlots;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.MessageHash;

import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A page being answered: from this node's archive, read as it is iterated and holding one of the query slots until
 * it is closed; or a page another node's store sent ({@link #remote}), already in memory.
 */
public final class OpenQuery implements Iterator<StoredMessage>, AutoCloseable {
    private final Iterator<StoredMessage> messages;
    private final MessageHash cursor;
    private final int size;
    private final long dataBytes;
    private final Runnable onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OpenQuery(Iterator<StoredMessage> messages, MessageHash cursor, int size, long dataBytes, Runnable onClose) {
        this.messages = messages;
        this.cursor = cursor;
        this.size = size;
        this.dataBytes = dataBytes;
        this.onClose = onClose;
    }

    static OpenQuery local(StorePage page, QuerySlots slots) {
        return new OpenQuery(page, page.paginationCursor(), page.size(), page.dataBytes(), () -> {
            try {
                page.close();
            } finally {
                slots.release();
            }
        });
    }

    /** A page a remote store answered (REST's {@code peerAddr}): nothing to free. */
    public static OpenQuery remote(StoreResponse page) {
        return remote(page, () -> { });
    }

    /** A page a remote store answered, {@code onClose} run once when it is closed (the store client's slot). */
    public static OpenQuery remote(StoreResponse page, Runnable onClose) {
        long bytes = 0;
        for (StoredMessage m : page.messages()) {
            bytes += m.message() == null ? 0 : m.message().getSerializedSize();
        }
        return new OpenQuery(page.messages().iterator(), page.paginationCursor(), page.messages().size(), bytes, onClose);
    }

    /** The next query's cursor; null when there are no more results. */
    public MessageHash paginationCursor() {
        return cursor;
    }

    /** Messages in the page. */
    public int size() {
        return size;
    }

    /** Stored bytes of the page's messages (with data), at most the page budget unless its one message is larger. */
    public long dataBytes() {
        return dataBytes;
    }

    @Override
    public boolean hasNext() {
        return messages.hasNext();
    }

    /** @see StorePage#next() */
    @Override
    public StoredMessage next() {
        return messages.next();
    }

    /** Closes the page and frees its slot. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            onClose.run();
        }
    }
}
