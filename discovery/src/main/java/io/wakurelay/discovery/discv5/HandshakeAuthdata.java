package io.wakurelay.discovery.discv5;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

/**
 * The authdata of a handshake packet: {@code src-id ‖ sig-size ‖ eph-key-size ‖ id-signature ‖ eph-pubkey ‖ record}.
 * Only the "v4" sizes (64 and 33) are read; {@code record} is the raw RLP of the initiator's ENR, or empty when the
 * recipient's copy is current.
 */
public record HandshakeAuthdata(byte[] sourceId, byte[] idSignature, byte[] ephemeralKey, byte[] record) {

    static final int HEAD_LENGTH = Packet.NODE_ID_LENGTH + 2;

    public byte[] encode() {
        return ByteBuffer.allocate(HEAD_LENGTH + idSignature.length + ephemeralKey.length + record.length)
                .put(sourceId).put((byte) idSignature.length).put((byte) ephemeralKey.length)
                .put(idSignature).put(ephemeralKey).put(record).array();
    }

    public static HandshakeAuthdata decode(byte[] authdata) {
        if (authdata.length < HEAD_LENGTH) {
            throw new Discv5PacketException("handshake authdata of " + authdata.length + " bytes");
        }
        int sigSize = authdata[Packet.NODE_ID_LENGTH] & 0xff;
        int keySize = authdata[Packet.NODE_ID_LENGTH + 1] & 0xff;
        if (sigSize != Discv5Crypto.SIGNATURE_LENGTH || keySize != Discv5Crypto.PUBLIC_KEY_LENGTH) {
            throw new Discv5PacketException("handshake of another identity scheme (sig " + sigSize + ", key "
                    + keySize + ")");
        }
        int recordStart = HEAD_LENGTH + sigSize + keySize;
        if (authdata.length < recordStart) {
            throw new Discv5PacketException("handshake authdata cut short");
        }
        return new HandshakeAuthdata(Arrays.copyOf(authdata, Packet.NODE_ID_LENGTH),
                Arrays.copyOfRange(authdata, HEAD_LENGTH, HEAD_LENGTH + sigSize),
                Arrays.copyOfRange(authdata, HEAD_LENGTH + sigSize, recordStart),
                Arrays.copyOfRange(authdata, recordStart, authdata.length));
    }

    public Optional<byte[]> recordIfPresent() {
        return record.length == 0 ? Optional.empty() : Optional.of(record);
    }
}
