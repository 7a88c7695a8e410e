package io.wakurelay.discovery.discv5;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.math.ec.ECPoint;

/** Node ids ("v4": Keccak-256 of the uncompressed public key's x ‖ y) and the XOR metric of Kademlia. */
public final class NodeIds {

    public static final int LENGTH = 32;

    private NodeIds() {
    }

    /** The node id of a 33-byte compressed secp256k1 key. */
    public static byte[] of(byte[] compressedKey) {
        ECPoint point = org.bouncycastle.crypto.ec.CustomNamedCurves.getByName("secp256k1").getCurve()
                .decodePoint(compressedKey).normalize();
        byte[] uncompressed = point.getEncoded(false);
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(uncompressed, 1, uncompressed.length - 1);
        byte[] out = new byte[LENGTH];
        digest.doFinal(out, 0);
        return out;
    }

    /** log2 of the XOR distance: 0 for the same id, else 1 + the index of the highest differing bit (1..256). */
    public static int logDistance(byte[] a, byte[] b) {
        for (int i = 0; i < LENGTH; i++) {
            int x = (a[i] ^ b[i]) & 0xff;
            if (x != 0) {
                return (LENGTH - i) * 8 - (Integer.numberOfLeadingZeros(x) - 24);
            }
        }
        return 0;
    }

    /** Compares the XOR distances of {@code a} and {@code b} to {@code target}: negative when a is closer. */
    public static int compareDistance(byte[] target, byte[] a, byte[] b) {
        for (int i = 0; i < LENGTH; i++) {
            int da = (a[i] ^ target[i]) & 0xff;
            int db = (b[i] ^ target[i]) & 0xff;
            if (da != db) {
                return Integer.compare(da, db);
            }
        }
        return 0;
    }

    /** A random id at exactly {@code distance} (1..256) from {@code base}: a target of a random walk into a bucket. */
    public static byte[] randomAtDistance(byte[] base, int distance, SecureRandom random) {
        byte[] id = new byte[LENGTH];
        random.nextBytes(id);
        int bit = distance - 1; // the highest differing bit, counted from the least significant
        int byteIndex = LENGTH - 1 - bit / 8;
        int bitInByte = bit % 8;
        for (int i = 0; i < byteIndex; i++) {
            id[i] = base[i];
        }
        int high = 0xff << (bitInByte + 1) & 0xff; // bits above the differing one: the base's
        int low = (1 << bitInByte) - 1; // bits below it: random
        int flipped = (base[byteIndex] ^ (1 << bitInByte)) & (1 << bitInByte);
        id[byteIndex] = (byte) ((base[byteIndex] & high) | flipped | (id[byteIndex] & low));
        return id;
    }

    public static String hex(byte[] id) {
        return HexFormat.of().formatHex(id);
    }

    public static String shortHex(byte[] id) {
        return HexFormat.of().formatHex(Arrays.copyOf(id, 4));
    }
}
