package io.wakurelay.p2p.multiaddr;

import io.wakurelay.p2p.crypto.KeyFormatException;
import io.wakurelay.p2p.crypto.Multibase;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.p2p.wire.WireFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Each protocol's value between its text form and its bytes, validating both ways. */
final class ValueCodec {

    private ValueCodec() {
    }

    static byte[] toBytes(Protocol protocol, String text) {
        return switch (protocol) {
            case IP4 -> IpText.parseIp4(text);
            case IP6 -> IpText.parseIp6(text);
            case TCP, UDP, DCCP, SCTP -> port(text);
            case IPCIDR -> new byte[] {(byte) decimal(text, 255, "an ipcidr mask")};
            case DNS, DNS4, DNS6, DNSADDR, SNI, IP6ZONE -> name(protocol, text).getBytes(StandardCharsets.UTF_8);
            case P2P -> peerId(text).bytes();
            case CERTHASH -> multihash(multibase(text));
            case HTTP_PATH -> HttpPathText.unescape(text);
            default -> throw new IllegalArgumentException(protocol + " has no value");
        };
    }

    static String toText(Protocol protocol, byte[] value) {
        return switch (protocol) {
            case IP4 -> IpText.formatIp4(value, 0);
            case IP6 -> IpText.formatIp6(value);
            case TCP, UDP, DCCP, SCTP -> Integer.toString((value[0] & 0xff) << 8 | (value[1] & 0xff));
            case IPCIDR -> Integer.toString(value[0] & 0xff);
            case DNS, DNS4, DNS6, DNSADDR, SNI, IP6ZONE -> name(protocol, utf8(protocol, value));
            case P2P -> peerId(value).toBase58();
            case CERTHASH -> Multibase.encodeBase64Url(multihash(value));
            case HTTP_PATH -> HttpPathText.escape(value);
            default -> throw new IllegalArgumentException(protocol + " has no value");
        };
    }

    private static byte[] port(String text) {
        int port = decimal(text, 65535, "a port");
        return new byte[] {(byte) (port >>> 8), (byte) port};
    }

    private static int decimal(String text, int max, String what) {
        if (text.isEmpty() || text.length() > 5) {
            throw new MultiaddrFormatException("'" + text + "' is not " + what + " (0 to " + max + ")");
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new MultiaddrFormatException("'" + text + "' is not " + what + " (0 to " + max + ")");
            }
            value = value * 10 + (c - '0');
        }
        if (value > max) {
            throw new MultiaddrFormatException("'" + text + "' is not " + what + " (0 to " + max + ")");
        }
        return value;
    }

    // DNS names, SNI names and zones: any non-empty text without a '/', which would end the component.
    private static String name(Protocol protocol, String text) {
        if (text.isEmpty() || text.indexOf('/') >= 0) {
            throw new MultiaddrFormatException("a " + protocol.protocolName() + " value is non-empty and has no '/': '"
                    + text + "'");
        }
        return text;
    }

    private static String utf8(Protocol protocol, byte[] value) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new MultiaddrFormatException("a " + protocol.protocolName() + " value that is not UTF-8", e);
        }
    }

    private static PeerId peerId(String text) {
        try {
            return PeerId.parse(text);
        } catch (KeyFormatException e) {
            throw new MultiaddrFormatException("'" + text + "' is not a peer id: " + e.getMessage(), e);
        }
    }

    private static PeerId peerId(byte[] value) {
        try {
            return PeerId.fromBytes(value);
        } catch (KeyFormatException e) {
            throw new MultiaddrFormatException("a /p2p value that is not a peer id: " + e.getMessage(), e);
        }
    }

    private static byte[] multibase(String text) {
        try {
            return Multibase.decode(text);
        } catch (KeyFormatException e) {
            throw new MultiaddrFormatException("'" + text + "' is not multibase: " + e.getMessage(), e);
        }
    }

    /** A multihash: varint code, varint digest length, exactly that many digest bytes. */
    private static byte[] multihash(byte[] bytes) {
        int[] next = new int[1];
        try {
            readVarint(bytes, 0, next);
            long length = readVarint(bytes, next[0], next);
            if (bytes.length - next[0] != length) {
                throw new MultiaddrFormatException("a multihash whose digest is " + (bytes.length - next[0])
                        + " bytes, not the " + length + " it declares");
            }
        } catch (MultiaddrFormatException e) {
            throw new MultiaddrFormatException("a certhash that is not a multihash: " + e.getMessage(), e);
        }
        return bytes;
    }

    /**
     * The varint at {@code position} (multiformats' unsigned varint); the position after it goes into {@code next[0]}.
     *
     * @throws MultiaddrFormatException when the bytes end inside it, or it is too long or not minimally encoded
     */
    static long readVarint(byte[] bytes, int position, int[] next) {
        long value;
        try {
            value = Uvarint.read(bytes, position, next);
        } catch (WireFormatException e) {
            throw new MultiaddrFormatException("the varint at byte " + position + ": " + e.getMessage(), e);
        }
        if (value == Uvarint.INCOMPLETE) {
            throw new MultiaddrFormatException("truncated varint at byte " + position);
        }
        return value;
    }

    /** Writes a component's value in binary: fixed-size values as they are, the others length-prefixed. */
    static void writeValue(Protocol protocol, byte[] value, ByteArrayOutputStream out) {
        if (protocol.sizeBits() == Protocol.VARIABLE) {
            Uvarint.write(out, value.length);
        }
        out.writeBytes(value);
    }
}
