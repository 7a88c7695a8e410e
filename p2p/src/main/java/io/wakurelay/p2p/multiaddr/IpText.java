package io.wakurelay.p2p.multiaddr;

/**
 * IP address literals without the JDK's {@code InetAddress.getByName}, which would resolve anything that is not a
 * literal through DNS. IPv4 is strict dotted decimal (no leading zeros, as Go reads it); IPv6 is RFC 4291 text
 * and printed in the RFC 5952 canonical form (lower case, longest zero run compressed, IPv4-mapped addresses
 * with a dotted tail).
 */
final class IpText {

    private IpText() {
    }

    static byte[] parseIp4(String text) {
        byte[] address = new byte[4];
        if (!parseIp4Into(text, address, 0)) {
            throw new MultiaddrFormatException("'" + text + "' is not an IPv4 address");
        }
        return address;
    }

    private static boolean parseIp4Into(String text, byte[] out, int offset) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || (part.length() > 1 && part.charAt(0) == '0')) {
                return false;
            }
            int value = 0;
            for (int j = 0; j < part.length(); j++) {
                char c = part.charAt(j);
                if (c < '0' || c > '9') {
                    return false;
                }
                value = value * 10 + (c - '0');
            }
            if (value > 255) {
                return false;
            }
            out[offset + i] = (byte) value;
        }
        return true;
    }

    static String formatIp4(byte[] address, int offset) {
        return (address[offset] & 0xff) + "." + (address[offset + 1] & 0xff) + "." + (address[offset + 2] & 0xff)
                + "." + (address[offset + 3] & 0xff);
    }

    static byte[] parseIp6(String text) {
        byte[] address = new byte[16];
        if (!parseIp6Into(text, address)) {
            throw new MultiaddrFormatException("'" + text + "' is not an IPv6 address");
        }
        return address;
    }

    private static boolean parseIp6Into(String text, byte[] out) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return false;
        }
        String head = gap >= 0 ? text.substring(0, gap) : text;
        String tail = gap >= 0 ? text.substring(gap + 2) : "";
        byte[] headBytes = new byte[16];
        byte[] tailBytes = new byte[16];
        int headLength = groups(head, headBytes, gap < 0); // a dotted tail must end the address
        int tailLength = groups(tail, tailBytes, true);
        if (headLength < 0 || tailLength < 0) {
            return false;
        }
        if (gap < 0 ? headLength != 16 : headLength + tailLength > 14) {
            return false; // "::" stands for at least one group of zeros
        }
        System.arraycopy(headBytes, 0, out, 0, headLength);
        System.arraycopy(tailBytes, 0, out, 16 - tailLength, tailLength);
        return true;
    }

    /** The bytes of colon-separated groups, the last possibly dotted IPv4 when it ends the address; -1 if bad. */
    private static int groups(String text, byte[] out, boolean mayEndInIp4) {
        if (text.isEmpty()) {
            return 0;
        }
        String[] parts = text.split(":", -1);
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (i == parts.length - 1 && mayEndInIp4 && part.indexOf('.') >= 0) {
                if (length + 4 > 16 || !parseIp4Into(part, out, length)) {
                    return -1;
                }
                return length + 4;
            }
            if (part.isEmpty() || part.length() > 4 || length + 2 > 16) {
                return -1;
            }
            int value = 0;
            for (int j = 0; j < part.length(); j++) {
                int digit = Character.digit(part.charAt(j), 16);
                if (digit < 0 || part.charAt(j) > 'f') {
                    return -1;
                }
                value = value << 4 | digit;
            }
            out[length++] = (byte) (value >>> 8);
            out[length++] = (byte) value;
        }
        return length;
    }

    static String formatIp6(byte[] address) {
        if (isIp4Mapped(address)) {
            return "::ffff:" + formatIp4(address, 12);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (address[2 * i] & 0xff) << 8 | (address[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1; // RFC 5952 4.2.2: a single zero group is not compressed
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) { // 4.2.3: the longest run, the first of equal runs
                bestStart = i;
                bestLength = j - i;
            }
            i = j;
        }
        StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }

    private static boolean isIp4Mapped(byte[] address) {
        for (int i = 0; i < 10; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return address[10] == (byte) 0xff && address[11] == (byte) 0xff;
    }
}
