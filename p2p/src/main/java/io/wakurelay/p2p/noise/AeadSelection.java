package io.wakurelay.p2p.noise;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.GeneralSecurityException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Which {@link ChaChaPoly} a host's new Noise sessions use. {@code jdk} and {@code conscrypt} are what they say
 * ({@code conscrypt} fails at start where Conscrypt does not load). {@code auto} takes the faster of the two on this
 * JVM and CPU: before Java 20 that is Conscrypt's (the JDK's has no intrinsics there and runs at about a tenth of
 * its speed); from Java 20 on the JDK's can be faster, depending on the CPU (its Poly1305 intrinsic needs AVX-512
 * IFMA or AVX-IFMA on x86), which no public API tells, so it is measured.
 *
 * <p>The measurement runs once, on a daemon thread, from the start of the host; sessions begin with Conscrypt's
 * meanwhile (the safe choice: some 15 % slower than the fastest JDK's, against ten times faster than an
 * unaccelerated JDK's). It encrypts 16 KiB messages with each and keeps each one's best round; the JDK's gets up to
 * {@link #JDK_BUDGET_NANOS}, since the JIT compiles it with its intrinsics only after some seconds of use at start
 * (measured: 2.4 s on 2 busy cores with Temurin 25, most of it at a few MB/s), and the measurement ends as soon as
 * the JDK's matches Conscrypt's. Where Conscrypt does not load (no native library for the platform, such as Linux on
 * ARM), {@code auto} is the JDK's.
 */
public final class AeadSelection {
    private static final Logger log = LoggerFactory.getLogger(AeadSelection.class);
    private static final int MESSAGE_BYTES = 16 * 1024;
    private static final int MESSAGES_PER_ROUND = 64;
    /** What the measurement may spend on the JDK's cipher (its warm-up included) and on Conscrypt's. */
    static final long JDK_BUDGET_NANOS = 5_000_000_000L;
    static final long CONSCRYPT_BUDGET_NANOS = 100_000_000L;
    /** The first Java whose ChaCha20-Poly1305 has intrinsics (JDK-8247645, JDK-8288047). */
    static final int FIRST_JAVA_WITH_INTRINSICS = 20;

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

    private volatile ChaChaPoly current;
    /** Whether the choice is final: always, but while {@code auto} measures. */
    private volatile boolean settled;

    private AeadSelection(ChaChaPoly initial, boolean settled) {
        this.current = initial;
        this.settled = settled;
    }

    /** A selection that stays on {@code implementation} (tests, and the choices that are not {@code auto}). */
    public static AeadSelection of(ChaChaPoly implementation) {
        return new AeadSelection(implementation, true);
    }

    /**
     * Starts a selection for {@code choice}: at once for {@code jdk} and {@code conscrypt}; for {@code auto} with
     * Conscrypt's first and the measurement on its way.
     *
     * @throws IllegalStateException for {@code conscrypt} where Conscrypt does not load (the message says why)
     */
    public static AeadSelection start(Choice choice) {
        Optional<ChaChaPoly> conscrypt = choice == Choice.JDK ? Optional.empty() : ChaChaPoly.conscrypt();
        switch (choice) {
            case JDK -> {
                return of(ChaChaPoly.JDK);
            }
            case CONSCRYPT -> {
                return of(conscrypt.orElseThrow(() -> new IllegalStateException(
                        "--aead-provider conscrypt: " + ChaChaPoly.conscryptFailure())));
            }
            default -> {
                if (conscrypt.isEmpty()) {
                    log.info("Noise ciphers: the JDK's ChaCha20-Poly1305 ({})", ChaChaPoly.conscryptFailure());
                    return of(ChaChaPoly.JDK);
                }
                if (Runtime.version().feature() < FIRST_JAVA_WITH_INTRINSICS) {
                    log.info("Noise ciphers: conscrypt's ChaCha20-Poly1305 (Java {}'s own has no intrinsics)",
                            Runtime.version().feature());
                    return of(conscrypt.get());
                }
                AeadSelection selection = new AeadSelection(conscrypt.get(), false);
                Thread measure = new Thread(() -> selection.measure(conscrypt.get()), "noise-aead-measure");
                measure.setPriority(Thread.MIN_PRIORITY);
                measure.setDaemon(true);
                measure.start();
                return selection;
            }
        }
    }

    /** What new Noise sessions use now. */
    public ChaChaPoly current() {
        return current;
    }

    /** False while {@code auto} still measures. */
    boolean settled() {
        return settled;
    }

    private void measure(ChaChaPoly conscrypt) {
        try {
            double conscryptRate = bestRate(conscrypt, CONSCRYPT_BUDGET_NANOS, Double.MAX_VALUE);
            double jdkRate = bestRate(ChaChaPoly.JDK, JDK_BUDGET_NANOS, conscryptRate);
            ChaChaPoly faster = jdkRate >= conscryptRate ? ChaChaPoly.JDK : conscrypt;
            current = faster;
            log.info("Noise ciphers: {}'s ChaCha20-Poly1305, measured at {} MB/s against {} MB/s for {}", faster.label(),
                    Math.round(Math.max(jdkRate, conscryptRate)), Math.round(Math.min(jdkRate, conscryptRate)),
                    faster == conscrypt ? ChaChaPoly.JDK.label() : conscrypt.label());
        } catch (GeneralSecurityException | RuntimeException e) {
            log.warn("Noise ciphers: measuring ChaCha20-Poly1305 failed, staying with {}: {}", current.label(), e.toString());
        } finally {
            settled = true;
        }
    }

    /**
     * The best of rounds of {@link #MESSAGES_PER_ROUND} encryptions within {@code budgetNanos}, in MB/s; it stops as
     * soon as a round reaches {@code enough}.
     */
    static double bestRate(ChaChaPoly implementation, long budgetNanos, double enough) throws GeneralSecurityException {
        byte[] key = new byte[32];
        byte[] plaintext = new byte[MESSAGE_BYTES];
        ThreadLocalRandom.current().nextBytes(key);
        ThreadLocalRandom.current().nextBytes(plaintext);
        byte[] ciphertext = new byte[MESSAGE_BYTES + CipherState.TAG_LENGTH];
        SecretKeySpec spec = new SecretKeySpec(key, "ChaCha20");
        byte[] nonce = new byte[12];
        Cipher cipher = implementation.newCipher();
        long best = Long.MAX_VALUE;
        long counter = 0;
        long end = System.nanoTime() + budgetNanos;
        while (System.nanoTime() - end < 0 && rate(best) < enough) {
            long start = System.nanoTime();
            for (int i = 0; i < MESSAGES_PER_ROUND; i++) {
                counter++;
                for (int b = 0; b < 8; b++) {
                    nonce[4 + b] = (byte) (counter >>> (8 * b));
                }
                cipher.init(Cipher.ENCRYPT_MODE, spec, new IvParameterSpec(nonce));
                cipher.doFinal(plaintext, 0, plaintext.length, ciphertext, 0);
            }
            best = Math.min(best, System.nanoTime() - start);
        }
        return rate(best);
    }

    private static double rate(long roundNanos) {
        return (double) MESSAGES_PER_ROUND * MESSAGE_BYTES * 1000.0 / roundNanos;
    }
}
