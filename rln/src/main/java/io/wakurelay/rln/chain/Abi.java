package io.wakurelay.rln.chain;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

import org.bouncycastle.crypto.digests.KeccakDigest;

/**
 * The little of the Solidity ABI that reading the membership contract needs, by hand: a function's selector (the
 * first 4 bytes of keccak-256 of its signature), the call data of a function without parameters, and a static return
 * value (one 32-byte word, big-endian). Also the JSON-RPC hex forms: data ({@code 0x} and two hex digits a byte) and
 * quantities ({@code 0x} and a number without leading zeros).
 *
 * <p><b>Byte order.</b> The contract returns a root as a {@code uint256}: a big-endian number. A rate-limit proof
 * carries the same root as a 32-byte <em>little-endian</em> field element (RFC 17, rln-v2; nwaku's
 * {@code UInt256ToField}). {@link #rootToField(byte[])} turns the one into the other; everything after the read
 * (the window, {@code contains}) holds roots as the proof does.
 */
final class Abi {
    /** {@code root()}: the Merkle root of the membership tree (WakuRlnV2, a {@code uint256}). */
    static final String ROOT = "root()";
    /** {@code nextFreeIndex()}: the index the next membership gets (WakuRlnV2's {@code uint32}). */
    static final String NEXT_FREE_INDEX = "nextFreeIndex()";

    static final int WORD = 32;
    private static final HexFormat HEX = HexFormat.of();

    private Abi() {
    }

    /** The first 4 bytes of keccak-256 of the function's canonical signature, e.g. {@code root()}. */
    static byte[] selector(String signature) {
        KeccakDigest keccak = new KeccakDigest(256);
        byte[] text = signature.getBytes(StandardCharsets.US_ASCII);
        keccak.update(text, 0, text.length);
        byte[] digest = new byte[32];
        keccak.doFinal(digest, 0);
        return Arrays.copyOf(digest, 4);
    }

    /** The call data of a function without parameters: its selector, as {@code 0x} and 8 hex digits. */
    static String callData(String signature) {
        return "0x" + HEX.formatHex(selector(signature));
    }

    /**
     * The first 32-byte word of a return value: a static return (a {@code uint256}, or a smaller integer padded to
     * 32 bytes). Words after it are ignored, as ABI decoders do.
     *
     * @throws IllegalArgumentException when there is not one whole word
     */
    static byte[] firstWord(byte[] returned) {
        if (returned.length < WORD) {
            throw new IllegalArgumentException("a static return value is 32 bytes, the call returned "
                    + returned.length);
        }
        return Arrays.copyOf(returned, WORD);
    }

    /** A big-endian {@code uint256} (the contract's root) as the 32-byte little-endian field element of a proof. */
    static byte[] rootToField(byte[] uint256BigEndian) {
        if (uint256BigEndian.length != WORD) {
            throw new IllegalArgumentException("a uint256 is 32 bytes, was " + uint256BigEndian.length);
        }
        byte[] le = new byte[WORD];
        for (int i = 0; i < WORD; i++) {
            le[i] = uint256BigEndian[WORD - 1 - i];
        }
        return le;
    }

    /**
     * A word read as an unsigned integer that must fit in 63 bits (a count, such as {@code nextFreeIndex()}).
     *
     * @throws IllegalArgumentException when it does not
     */
    static long unsignedLong(byte[] word) {
        BigInteger value = new BigInteger(1, word);
        if (value.bitLength() > 63) {
            throw new IllegalArgumentException("a count does not fit in 63 bits: 0x" + value.toString(16));
        }
        return value.longValue();
    }

    /**
     * JSON-RPC data: {@code 0x} and an even number of hex digits ({@code 0x} alone: no bytes).
     *
     * @throws IllegalArgumentException when it is not
     */
    static byte[] data(String text) {
        if (!text.startsWith("0x") || (text.length() & 1) != 0) {
            throw new IllegalArgumentException("not 0x-prefixed hex data: " + shorten(text));
        }
        try {
            return HEX.parseHex(text, 2, text.length());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not 0x-prefixed hex data: " + shorten(text));
        }
    }

    /**
     * A JSON-RPC quantity ({@code 0x} and 1 to 16 hex digits), such as {@code eth_chainId}'s answer, as an unsigned
     * number below 2^63.
     *
     * @throws IllegalArgumentException when it is not one
     */
    static long quantity(String text) {
        if (!text.startsWith("0x") || text.length() < 3 || text.length() > 18) {
            throw new IllegalArgumentException("not a quantity below 2^63: " + shorten(text));
        }
        long value = 0;
        for (int i = 2; i < text.length(); i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                throw new IllegalArgumentException("not a quantity: " + shorten(text));
            }
            value = value << 4 | digit;
        }
        if (value < 0) {
            throw new IllegalArgumentException("not a quantity below 2^63: " + shorten(text));
        }
        return value;
    }

    static String hex(byte[] bytes) {
        return "0x" + HEX.formatHex(bytes);
    }

    /** At most 80 characters of what a peer sent, for an error text. */
    static String shorten(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
