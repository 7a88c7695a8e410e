package io.wakurelay.node;

import java.net.InetSocketAddress;

/**
 * The REST or metrics server could not listen on its address (a port in use, an address not on this machine): the
 * message names the address and the option to change, as the host's own {@code ListenFailedException} does for the
 * peer ports.
 */
public final class BindFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param what   the server, e.g. {@code REST}
     * @param option the option that sets its port, e.g. {@code --rest-port}
     */
    BindFailedException(String what, InetSocketAddress address, String option, Throwable cause) {
        super("cannot listen on " + address.getHostString() + ":" + address.getPort() + " (" + what + "): "
                + reason(cause) + "; choose another port with " + option + " (or --ports-shift), or stop what uses it",
                cause);
    }

    private static String reason(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.toLowerCase(java.util.Locale.ROOT).contains("in use")) {
                return "address already in use";
            }
        }
        Throwable root = cause;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
