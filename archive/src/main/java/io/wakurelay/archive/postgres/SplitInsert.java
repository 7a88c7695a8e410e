package io.wakurelay.archive.postgres;

import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A batch the database refused for a reason that retrying cannot change ({@link SqlErrors#isPermanent}: a row it
 * cannot take), written again in halves, each half its own transaction, halving again what fails so, until the rows it
 * cannot take stand alone: those are refused (told to {@code refused}, with the database's reason), every other row is
 * written. A failure that waiting may cure (the database went away meanwhile) stops the split and is thrown: the batch
 * is retried whole, and what this split did is kept in {@link #inserted()} and {@link #refusedHashes()} for the retry
 * to count. A batch with one row the database cannot take costs about 2 log2(n) transactions. Writer thread only.
 */
final class SplitInsert {

    /** Writes its rows in one transaction: the hashes it inserted (the rest were already stored). */
    @FunctionalInterface
    interface Transaction {
        Set<MessageHash> insert(List<Envelope> rows) throws SQLException;
    }

    private final Transaction transaction;
    private final BiConsumer<Envelope, SQLException> refused;
    private final Set<MessageHash> inserted = new HashSet<>();
    private final Set<MessageHash> refusedHashes = new HashSet<>();
    private int transactions;

    SplitInsert(Transaction transaction, BiConsumer<Envelope, SQLException> refused) {
        this.transaction = transaction;
        this.refused = refused;
    }

    /**
     * Writes {@code rows}, which failed together for a permanent reason, in halves.
     *
     * @throws SQLException the first failure that is not permanent: the split stops there
     */
    void run(List<Envelope> rows) throws SQLException {
        Deque<List<Envelope>> parts = new ArrayDeque<>();
        halve(rows, parts);
        while (!parts.isEmpty()) {
            List<Envelope> part = parts.pop();
            try {
                transactions++;
                inserted.addAll(transaction.insert(part));
            } catch (SQLException e) {
                if (!SqlErrors.isPermanent(e)) {
                    throw e;
                }
                if (part.size() == 1) {
                    refusedHashes.add(part.get(0).hash());
                    refused.accept(part.get(0), e);
                } else {
                    halve(part, parts);
                }
            }
        }
    }

    /** Pushes the two halves of {@code rows} so that the first half is taken next (the rows stay in their order). */
    private static void halve(List<Envelope> rows, Deque<List<Envelope>> parts) {
        int middle = rows.size() / 2;
        parts.push(new ArrayList<>(rows.subList(middle, rows.size())));
        parts.push(new ArrayList<>(rows.subList(0, middle)));
    }

    /** The hashes the split's transactions inserted. */
    Set<MessageHash> inserted() {
        return inserted;
    }

    /** The hashes of the rows refused. */
    Set<MessageHash> refusedHashes() {
        return refusedHashes;
    }

    int transactions() {
        return transactions;
    }
}
