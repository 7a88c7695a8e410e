package io.wakurelay.p2p.ws;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.nio.file.Path;
import java.util.List;

/**
 * The host's WebSocket transport (nwaku's {@code --websocket-*} options): whether it listens, on which port, with TLS
 * ({@code /wss}) or without ({@code /ws}), and the bounds of its frames. Dialling {@code /ws} and {@code /wss}
 * addresses works whether or not the host listens. Validated when built; {@link #DEFAULTS} holds every default.
 *
 * @param listen              accept WebSocket connections (on the IP of the host's TCP listen address)
 * @param port                the WebSocket listen port (0: any free port); nwaku's default, 8000
 * @param certPath            PEM certificate chain, leaf first, for {@code /wss}; null: plain {@code /ws}
 * @param keyPath             PEM private key of that certificate (PKCS#8, PKCS#1 RSA or SEC1 EC); null with certPath
 * @param maxFrameBytes       the largest WebSocket frame accepted, which the frame decoder holds whole (js-libp2p
 *                            sends one Noise message, at most 65,537 bytes, per frame; others may send more): a larger
 *                            frame closes the connection
 * @param trustedCertificates PEM certificates that alone are trusted when dialling {@code /wss} (a private CA, a test);
 *                            empty: the JDK's trust store
 */
@RecordBuilder
public record WebSocketConfig(boolean listen, int port, Path certPath, Path keyPath, int maxFrameBytes,
                              List<Path> trustedCertificates) {
    /** Every frame carries at least one whole Noise message, so a bound below that breaks honest peers. */
    public static final int MIN_FRAME_BYTES = 65_537;

    public static final WebSocketConfig DEFAULTS = new WebSocketConfig(false, 8000, null, null, 1024 * 1024, List.of());

    public WebSocketConfig {
        trustedCertificates = List.copyOf(trustedCertificates);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the WebSocket port must be in 0..65535, was " + port);
        }
        if ((certPath == null) != (keyPath == null)) {
            throw new IllegalArgumentException("secure WebSocket needs both a certificate and its key ("
                    + (certPath == null ? "no certificate" : "no key") + " given)");
        }
        if (maxFrameBytes < MIN_FRAME_BYTES || maxFrameBytes > 16 * 1024 * 1024) {
            throw new IllegalArgumentException("maxFrameBytes must be in " + MIN_FRAME_BYTES + "..16 MiB, was "
                    + maxFrameBytes);
        }
    }

    /** Whether the listener speaks TLS ({@code /wss}). */
    public boolean secure() {
        return certPath != null;
    }

    public WebSocketConfigBuilder toBuilder() {
        return WebSocketConfigBuilder.builder(this);
    }
}
