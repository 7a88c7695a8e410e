package io.wakurelay.p2p.crypto;

import java.util.Arrays;

/**
 * Bytes as a big number in a radix that is not a power of two (base58btc, base36), each leading zero byte written
 * as the alphabet's first character, as multibase does. Quadratic in the length: inputs are capped, which is plenty
 * for what libp2p writes this way (peer ids, certificate hashes).
 */
final class RadixCodec {

    static final int MAX_TEXT_LENGTH = 1024;

    private final String name;
    private final char[] alphabet;
    private final int[] digits = new int[128];

    RadixCodec(String name, String alphabet) {
        this.name = name;
        this.alphabet = alphabet.toCharArray();
        Arrays.fill(digits, -1);
        for (int i = 0; i < this.alphabet.length; i++) {
            digits[this.alphabet[i]] = i;
        }
    }

    String encode(byte[] bytes) {
        int radix = alphabet.length;
        int zeros = 0;
        while (zeros < bytes.length && bytes[zeros] == 0) {
            zeros++;
        }
        // the digits, least significant first; log(256)/log(radix) digits per byte at most
        char[] out = new char[zeros + (int) Math.ceil((bytes.length - zeros) * 8 / (Math.log(radix) / Math.log(2)))
                + 1];
        byte[] number = Arrays.copyOfRange(bytes, zeros, bytes.length);
        int length = 0;
        int start = 0;
        while (start < number.length) {
            int remainder = 0;
            for (int i = start; i < number.length; i++) { // number /= radix, in place
                int value = (remainder << 8) | (number[i] & 0xff);
                number[i] = (byte) (value / radix);
                remainder = value % radix;
            }
            out[length++] = alphabet[remainder];
            while (start < number.length && number[start] == 0) {
                start++;
            }
        }
        StringBuilder text = new StringBuilder(zeros + length);
        for (int i = 0; i < zeros; i++) {
            text.append(alphabet[0]);
        }
        for (int i = length - 1; i >= 0; i--) {
            text.append(out[i]);
        }
        return text.toString();
    }

    byte[] decode(CharSequence text) {
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new KeyFormatException(name + " text longer than " + MAX_TEXT_LENGTH + " characters");
        }
        int radix = alphabet.length;
        int zeros = 0;
        while (zeros < text.length() && text.charAt(zeros) == alphabet[0]) {
            zeros++;
        }
        // the bytes, least significant first; at most log(radix)/log(256) bytes per digit
        byte[] number = new byte[text.length()];
        int length = 0;
        for (int i = zeros; i < text.length(); i++) {
            char c = text.charAt(i);
            int digit = c < 128 ? digits[c] : -1;
            if (digit < 0) {
                throw new KeyFormatException("'" + c + "' is not a " + name + " character");
            }
            int carry = digit; // number = number * radix + digit
            for (int j = 0; j < length; j++) {
                int value = (number[j] & 0xff) * radix + carry;
                number[j] = (byte) value;
                carry = value >>> 8;
            }
            while (carry > 0) {
                number[length++] = (byte) carry;
                carry >>>= 8;
            }
        }
        byte[] bytes = new byte[zeros + length];
        for (int i = 0; i < length; i++) {
            bytes[zeros + i] = number[length - 1 - i];
        }
        return bytes;
    }
}
