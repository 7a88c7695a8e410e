package io.wakurelay.p2p.noise;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Optional;

/**
 * Which {@link ChaChaPoly} a host's Noise sessions use. {@code jdk} and {@code conscrypt} are what they say
 * ({@code conscrypt} fails at start where Conscrypt does not load); {@code auto} takes Conscrypt's wherever it loads
 * and agrees with the JDK's byte for byte, and the JDK's elsewhere (no native library for the platform, such as
 * Linux on ARM).
 *
 * <p>Why not the JDK's where it has intrinsics: measured side by side (docs/adr/0070-native-aead-for-noise.md), on
 * Java 17 the JDK's runs at a tenth of Conscrypt's speed, and on Temurin 25, with its ChaCha20 and AVX-512 IFMA
 * Poly1305 intrinsics, it is still some 15 % slower at 64 KiB and needs seconds of JIT warm-up to get there.
 */
public final class AeadSelection {
    private static final Logger log = LoggerFactory.getLogger(AeadSelection.class);

    /** What an operator asks for ({@code --aead-provider}). */
    public enum Choice {
        AUTO, CONSCRYPT, JDK;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @throws IllegalArgumentException naming the choices */
        public static Choice parse(String text) {
            for (Choice c : values()) {
                if (c.label().equals(text)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("'" + text + "' is not an AEAD provider: use auto, conscrypt or jdk");
        }
    }

    private final ChaChaPoly current;

    private AeadSelection(ChaChaPoly current) {
        this.current = current;
    }

    /** A selection of {@code implementation} (tests). */
    public static AeadSelection of(ChaChaPoly implementation) {
        return new AeadSelection(implementation);
    }

    /**
     * The implementation for {@code choice}.
     *
     * @throws IllegalStateException for {@code conscrypt} where Conscrypt does not load (the message says why)
     */
    public static AeadSelection start(Choice choice) {
        Optional<ChaChaPoly> conscrypt = choice == Choice.JDK ? Optional.empty() : ChaChaPoly.conscrypt();
        return switch (choice) {
            case JDK -> of(ChaChaPoly.JDK);
            case CONSCRYPT -> of(conscrypt.orElseThrow(() -> new IllegalStateException(
                    "--aead-provider conscrypt: " + ChaChaPoly.conscryptFailure())));
            case AUTO -> {
                if (conscrypt.isEmpty()) {
                    log.atInfo().addKeyValue("reason", String.valueOf(ChaChaPoly.conscryptFailure()))
                            .log("Noise ciphers: the JDK's ChaCha20-Poly1305");
                }
                yield of(conscrypt.orElse(ChaChaPoly.JDK));
            }
        };
    }

    /** What Noise sessions use. */
    public ChaChaPoly current() {
        return current;
    }
}
