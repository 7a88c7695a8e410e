package io.wakurelay.p2p.noise;

import java.util.stream.Stream;

/**
 * The ChaCha20-Poly1305 implementations the Noise tests run against: the JDK's, and Conscrypt's, which must load on
 * the platforms CI runs on (Linux x86-64), so that a test never passes by skipping it.
 */
final class Implementations {
    private Implementations() {
    }

    static Stream<ChaChaPoly> both() {
        ChaChaPoly conscrypt = ChaChaPoly.conscrypt().orElseThrow(() -> new AssertionError(
                "Conscrypt must load where the tests run: " + ChaChaPoly.conscryptFailure()));
        return Stream.of(ChaChaPoly.JDK, conscrypt);
    }
}
