package io.wakurelay.testkit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The deterministic data that {@code peer.mjs}'s {@code echo} command writes: the ChaCha20 keystream (RFC 8439,
 * 12-byte zero nonce, block counter 0) under the key SHA-256(UTF-8 seed). The same seed and length give the same
 * bytes on both sides, so a Java echo test can generate or check them without shipping data.
 */
public final class EchoData {

    /** The seed {@code echo} uses when the command names none. */
    public static final String DEFAULT_SEED = "wakurelay";

    private final Cipher cipher;

    private EchoData(String seed) {
        try {
            byte[] key = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            cipher = Cipher.getInstance("ChaCha20");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"),
                    new ChaCha20ParameterSpec(new byte[12], 0));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no ChaCha20", e);
        }
    }

    /** A generator of the data for {@code seed}, from its first byte on. */
    public static EchoData of(String seed) {
        return new EchoData(seed);
    }

    /** The next {@code length} bytes of the data. */
    public byte[] next(int length) {
        return cipher.update(new byte[length]);
    }

    /** The SHA-256 (lower-case hex) of the first {@code length} bytes for {@code seed}, as {@code echo} reports it. */
    public static String sha256Hex(String seed, long length) {
        EchoData data = of(seed);
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        for (long left = length; left > 0; left -= 65536) {
            sha256.update(data.next((int) Math.min(65536, left)));
        }
        return HexFormat.of().formatHex(sha256.digest());
    }
}
