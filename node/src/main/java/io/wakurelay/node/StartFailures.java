package io.wakurelay.node;

import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.p2p.ListenFailedException;
import io.wakurelay.p2p.connection.Transport;

import java.io.UncheckedIOException;

/**
 * The one line a failed start prints after "node failed to start: ": what failed and which option changes it. The
 * stack trace is for DEBUG: a port in use or a database down is the operator's to change, not a bug to report.
 */
final class StartFailures {
    private StartFailures() {
    }

    static String describe(Throwable e) {
        if (e instanceof ListenFailedException listen) {
            String flag = listen.transport() == Transport.TCP ? "--tcp-port" : "--websocket-port";
            return listen.getMessage() + "; choose another port with " + flag
                    + " (or --ports-shift), or stop what uses it";
        }
        if (e instanceof ArchiveStorageException) {
            String message = message(e);
            return message.contains("PostgreSQL")
                    ? message + "; check --store-message-db-url (address, database, user, password)"
                            + (message.contains("reach") ? " and that the server runs, or wait longer with "
                            + "--store-message-db-start-wait" : "")
                    : message + "; check --data-dir (a disk full, read-only, or used by another node?)";
        }
        if (e instanceof UncheckedIOException) {
            return message(e) + "; check --data-dir";
        }
        return message(e);
    }

    /** The message, or for an exception without one, its innermost cause's. */
    private static String message(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage().strip().replace('\n', ' ');
            }
        }
        return e.toString();
    }
}
