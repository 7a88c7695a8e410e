package io.wakurelay.p2p.crypto;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;

/**
 * The {@code PublicKey} and {@code PrivateKey} protobufs of peer-ids.md: a key type and the key's bytes. protobuf-java
 * writes proto2 fields in tag order with minimal varints, which is the deterministic encoding the spec requires
 * (peer ids are hashes of these bytes).
 */
final class KeyEnvelope {

    private KeyEnvelope() {
    }

    /** A decoded envelope: the type and the Data field. */
    record Decoded(KeyType type, byte[] data) {
    }

    static byte[] encodePublic(KeyType type, byte[] data) {
        return io.wakurelay.p2p.proto.PublicKey.newBuilder()
                .setType(io.wakurelay.p2p.proto.KeyType.forNumber(type.code()))
                .setData(ByteString.copyFrom(data))
                .build()
                .toByteArray();
    }

    static byte[] encodePrivate(KeyType type, byte[] data) {
        return io.wakurelay.p2p.proto.PrivateKey.newBuilder()
                .setType(io.wakurelay.p2p.proto.KeyType.forNumber(type.code()))
                .setData(ByteString.copyFrom(data))
                .build()
                .toByteArray();
    }

    static Decoded decodePublic(byte[] bytes) {
        try {
            io.wakurelay.p2p.proto.PublicKey key = io.wakurelay.p2p.proto.PublicKey.parseFrom(bytes);
            refuseUnknownFields(key, "PublicKey");
            return new Decoded(KeyType.of(key.getType().getNumber()), key.getData().toByteArray());
        } catch (InvalidProtocolBufferException e) {
            throw new KeyFormatException("not a PublicKey protobuf: " + e.getMessage(), e);
        }
    }

    static Decoded decodePrivate(byte[] bytes) {
        try {
            io.wakurelay.p2p.proto.PrivateKey key = io.wakurelay.p2p.proto.PrivateKey.parseFrom(bytes);
            refuseUnknownFields(key, "PrivateKey");
            return new Decoded(KeyType.of(key.getType().getNumber()), key.getData().toByteArray());
        } catch (InvalidProtocolBufferException e) {
            // no message text: it could quote key material
            throw new KeyFormatException("not a PrivateKey protobuf", e);
        }
    }

    // "No additional fields may be defined" (peer-ids.md); an unknown key type number lands here too.
    private static void refuseUnknownFields(com.google.protobuf.GeneratedMessage message, String name) {
        if (message.getUnknownFields().getSerializedSize() != 0) {
            throw new KeyFormatException(name + " protobuf with unknown fields or an unknown key type");
        }
    }
}
