package io.wakurelay.testkit;

/** A JavaScript interop peer answered a command with {@code "ok": false}; the message is the script's error text. */
public final class JsCommandException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String command;
    private final String error;

    JsCommandException(String command, String error) {
        super("command \"" + command + "\" failed: " + error);
        this.command = command;
        this.error = error;
    }

    /** The command that failed. */
    public String command() {
        return command;
    }

    /** The error text the script replied with. */
    public String error() {
        return error;
    }
}
