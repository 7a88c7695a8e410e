package io.wakurelay.discovery.discv5;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One discv5 packet, unmasked: {@code masking-iv ‖ header ‖ message} where
 * {@code header = static-header ‖ authdata} and {@code static-header = "discv5" ‖ 0x0001 ‖ flag ‖ nonce ‖
 * authdata-size}. On the wire the header is masked with AES-CTR under the first 16 bytes of the destination's node
 * id. {@code message} is the still encrypted message (empty for WHOAREYOU).
 */
public record Packet(byte[] maskingIv, int flag, byte[] nonce, byte[] authdata, byte[] message) {

    public static final int FLAG_ORDINARY = 0;
    public static final int FLAG_WHOAREYOU = 1;
    public static final int FLAG_HANDSHAKE = 2;
    public static final int MIN_SIZE = 63;
    public static final int MAX_SIZE = 1280;
    static final int IV_LENGTH = 16;
    static final int STATIC_HEADER_LENGTH = 23;
    static final int NODE_ID_LENGTH = 32;
    static final int WHOAREYOU_AUTHDATA_LENGTH = 24;
    private static final byte[] PROTOCOL_ID = "discv5".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;

    public Packet {
        if (maskingIv.length != IV_LENGTH || nonce.length != Discv5Crypto.NONCE_LENGTH) {
            throw new IllegalArgumentException("a masking IV is 16 bytes and a nonce 12");
        }
        if (flag < FLAG_ORDINARY || flag > FLAG_HANDSHAKE || authdata.length > 0xffff) {
            throw new IllegalArgumentException("flag " + flag + ", authdata of " + authdata.length + " bytes");
        }
    }

    /** {@code static-header ‖ authdata}, unmasked. */
    public byte[] header() {
        ByteBuffer header = ByteBuffer.allocate(STATIC_HEADER_LENGTH + authdata.length);
        header.put(PROTOCOL_ID).putShort((short) VERSION).put((byte) flag).put(nonce)
                .putShort((short) authdata.length).put(authdata);
        return header.array();
    }

    /** The additional data of the message's AES-GCM: {@code masking-iv ‖ header}. */
    public byte[] messageAd() {
        return Discv5Crypto.concat(maskingIv, header());
    }

    /** A WHOAREYOU's {@code challenge-data}: the same bytes as the message AD. */
    public byte[] challengeData() {
        return messageAd();
    }

    /** The datagram, the header masked for {@code destNodeId}. */
    public byte[] encode(byte[] destNodeId) {
        byte[] header = header();
        byte[] masked = Discv5Crypto.aesCtr(Arrays.copyOf(destNodeId, 16), maskingIv, header, 0, header.length);
        byte[] datagram = Discv5Crypto.concat(maskingIv, masked, message);
        if (datagram.length > MAX_SIZE) {
            throw new IllegalArgumentException("a packet of " + datagram.length + " bytes is over " + MAX_SIZE);
        }
        return datagram;
    }

    /**
     * Unmasks a datagram addressed to {@code localNodeId}. Checks the size bounds, the protocol id and version, the
     * flag and that authdata has the size its flag allows; the message is left encrypted.
     */
    public static Packet decode(byte[] datagram, byte[] localNodeId) {
        if (datagram.length < MIN_SIZE || datagram.length > MAX_SIZE) {
            throw new Discv5PacketException("a packet of " + datagram.length + " bytes");
        }
        byte[] key = Arrays.copyOf(localNodeId, 16);
        byte[] iv = Arrays.copyOf(datagram, IV_LENGTH);
        // CTR is a stream: unmasking header and authdata in one pass over the longest possible span gives the same
        // bytes as unmasking the static header first, and the bytes past the header are simply not used.
        byte[] plain = Discv5Crypto.aesCtr(key, iv, datagram, IV_LENGTH, datagram.length - IV_LENGTH);
        if (!Arrays.equals(plain, 0, PROTOCOL_ID.length, PROTOCOL_ID, 0, PROTOCOL_ID.length)) {
            throw new Discv5PacketException("not a discv5 packet for this node (protocol id)");
        }
        ByteBuffer header = ByteBuffer.wrap(plain, PROTOCOL_ID.length, STATIC_HEADER_LENGTH - PROTOCOL_ID.length);
        int version = header.getShort() & 0xffff;
        int flag = header.get() & 0xff;
        byte[] nonce = new byte[Discv5Crypto.NONCE_LENGTH];
        header.get(nonce);
        int authdataSize = header.getShort() & 0xffff;
        if (version != VERSION) {
            throw new Discv5PacketException("version " + version);
        }
        int authdataEnd = STATIC_HEADER_LENGTH + authdataSize;
        if (authdataEnd > plain.length) {
            throw new Discv5PacketException("authdata of " + authdataSize + " bytes past the packet's end");
        }
        switch (flag) {
            case FLAG_ORDINARY -> requireSize(authdataSize == NODE_ID_LENGTH, flag, authdataSize);
            case FLAG_WHOAREYOU -> requireSize(authdataSize == WHOAREYOU_AUTHDATA_LENGTH
                    && authdataEnd == plain.length, flag, authdataSize);
            case FLAG_HANDSHAKE -> requireSize(authdataSize >= HandshakeAuthdata.HEAD_LENGTH, flag, authdataSize);
            default -> throw new Discv5PacketException("flag " + flag);
        }
        byte[] authdata = Arrays.copyOfRange(plain, STATIC_HEADER_LENGTH, authdataEnd);
        byte[] message = Arrays.copyOfRange(datagram, IV_LENGTH + authdataEnd, datagram.length);
        if (flag != FLAG_WHOAREYOU && message.length < Discv5Crypto.TAG_LENGTH) {
            throw new Discv5PacketException("a message of " + message.length + " bytes is shorter than its tag");
        }
        return new Packet(iv, flag, nonce, authdata, message);
    }

    private static void requireSize(boolean ok, int flag, int authdataSize) {
        if (!ok) {
            throw new Discv5PacketException("flag " + flag + " with authdata of " + authdataSize + " bytes");
        }
    }

    /** The source node id of an ordinary or handshake packet. */
    public byte[] sourceId() {
        if (flag == FLAG_WHOAREYOU) {
            throw new IllegalStateException("a WHOAREYOU names no source");
        }
        return Arrays.copyOf(authdata, NODE_ID_LENGTH);
    }

    /** A WHOAREYOU's id-nonce. */
    public byte[] idNonce() {
        return Arrays.copyOf(authdata, 16);
    }

    /** A WHOAREYOU's enr-seq: the record sequence number the challenger holds of us (0: none). */
    public long whoareyouEnrSeq() {
        return ByteBuffer.wrap(authdata, 16, 8).getLong();
    }

    /**
     * An ordinary message packet from {@code sourceId}: {@code plaintext} encrypted with {@code key} under the header
     * as associated data, or sent as it is when {@code key} is null (the random bytes that open a handshake).
     */
    static Packet ordinary(byte[] maskingIv, byte[] nonce, byte[] sourceId, byte[] key, byte[] plaintext) {
        if (key == null) {
            return new Packet(maskingIv, FLAG_ORDINARY, nonce, sourceId, plaintext);
        }
        Packet header = new Packet(maskingIv, FLAG_ORDINARY, nonce, sourceId, new byte[0]);
        return new Packet(maskingIv, FLAG_ORDINARY, nonce, sourceId,
                Discv5Crypto.aesGcmEncrypt(key, nonce, plaintext, header.messageAd()));
    }

    public static Packet whoareyou(byte[] maskingIv, byte[] requestNonce, byte[] idNonce, long enrSeq) {
        byte[] authdata = ByteBuffer.allocate(WHOAREYOU_AUTHDATA_LENGTH).put(idNonce).putLong(enrSeq).array();
        return new Packet(maskingIv, FLAG_WHOAREYOU, requestNonce, authdata, new byte[0]);
    }

    @Override
    public String toString() {
        return "Packet[flag=" + flag + ", authdata=" + authdata.length + "B, message=" + message.length + "B]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Packet p && flag == p.flag && Arrays.equals(maskingIv, p.maskingIv)
                && Arrays.equals(nonce, p.nonce) && Arrays.equals(authdata, p.authdata)
                && Arrays.equals(message, p.message);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nonce);
    }
}
