package io.wakurelay.services;

/** What the service clients tell their callers about a failure below them (a dial, a stream). */
public final class Failures {
    private Failures() {
    }

    /**
     * What went wrong, for the client (REST shows it in {@code statusDesc}): the innermost cause's message without the
     * exception class names that Netty and Reactor put in front of it.
     */
    public static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (message == null || message.isBlank()) {
            return "the connection failed";
        }
        return message.replaceAll("(?:[a-zA-Z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): ", "");
    }
}
