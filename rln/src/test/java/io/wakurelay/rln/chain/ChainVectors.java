package io.wakurelay.rln.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The membership roots of the RLN test vectors ({@code rln/vectors.json}: the root after each of 60 registrations),
 * as the proof carries them (32 bytes little-endian) and as the contract returns them (a {@code uint256}).
 */
final class ChainVectors {
    private static final List<byte[]> ROOTS = load();

    private ChainVectors() {
    }

    /** The 60 roots, oldest first, each 32 bytes little-endian. */
    static List<byte[]> roots() {
        return ROOTS.stream().map(byte[]::clone).toList();
    }

    /** A root as the contract's {@code uint256}: the little-endian bytes read as a number. */
    static BigInteger uint256(byte[] rootLe) {
        byte[] be = new byte[rootLe.length];
        for (int i = 0; i < be.length; i++) {
            be[i] = rootLe[be.length - 1 - i];
        }
        return new BigInteger(1, be);
    }

    /** A number as 32 big-endian bytes, as {@code eth_call} returns a {@code uint256}. */
    static byte[] word(BigInteger value) {
        byte[] raw = value.toByteArray();
        byte[] word = new byte[32];
        int n = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - n, word, 32 - n, n);
        return word;
    }

    private static List<byte[]> load() {
        try (InputStream in = ChainVectors.class.getResourceAsStream("/rln/vectors.json")) {
            if (in == null) {
                throw new IllegalStateException("rln/vectors.json is not on the class path");
            }
            JsonNode members = new ObjectMapper().readTree(in).path("members");
            List<byte[]> roots = new ArrayList<>();
            for (JsonNode member : members) {
                roots.add(HexFormat.of().parseHex(member.path("root_after_le_hex").asText()));
            }
            if (roots.size() != 60) {
                throw new IllegalStateException("rln/vectors.json has " + roots.size() + " members, not 60");
            }
            return List.copyOf(roots);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
