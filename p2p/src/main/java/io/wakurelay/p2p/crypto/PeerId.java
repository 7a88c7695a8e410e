package io.wakurelay.p2p.crypto;

import java.util.Arrays;
import java.util.Optional;

/**
 * A libp2p peer id (peer-ids.md "Peer Ids"): the multihash of a marshalled public key, identity when the key is at
 * most 42 bytes (Ed25519, secp256k1: the key is inside), sha2-256 otherwise (RSA, ECDSA). Shown as base58btc
 * ({@code 12D3KooW…} for Ed25519, {@code 16Uiu2…} for secp256k1, {@code Qm…} for hashed keys); also read from
 * its CIDv1 form ({@code bafz…}). Immutable; equal by multihash.
 */
public final class PeerId {

    /** Keys whose {@code PublicKey} protobuf is at most this long are inlined with the identity multihash. */
    public static final int MAX_INLINE_KEY_LENGTH = 42;

    private static final int IDENTITY = 0x00;
    private static final int SHA2_256 = 0x12;
    private static final int SHA2_256_LENGTH = 32;
    private static final int CID_VERSION_1 = 0x01;
    private static final int LIBP2P_KEY_CODEC = 0x72;

    private final byte[] multihash;
    private final PublicKey inlineKey; // null for a sha2-256 peer id
    private final String base58;

    private PeerId(byte[] multihash, PublicKey inlineKey) {
        this.multihash = multihash;
        this.inlineKey = inlineKey;
        this.base58 = Base58.encode(multihash);
    }

    /** The peer id of a public key. */
    public static PeerId fromPublicKey(PublicKey key) {
        byte[] marshalled = key.marshal();
        if (marshalled.length <= MAX_INLINE_KEY_LENGTH) {
            byte[] multihash = new byte[2 + marshalled.length];
            multihash[0] = IDENTITY;
            multihash[1] = (byte) marshalled.length; // at most 42: a one-byte varint
            System.arraycopy(marshalled, 0, multihash, 2, marshalled.length);
            return new PeerId(multihash, key);
        }
        byte[] multihash = new byte[2 + SHA2_256_LENGTH];
        multihash[0] = SHA2_256;
        multihash[1] = SHA2_256_LENGTH;
        System.arraycopy(Secp256k1.sha256(marshalled), 0, multihash, 2, SHA2_256_LENGTH);
        return new PeerId(multihash, null);
    }

    /**
     * A peer id from its multihash bytes: an identity multihash of a canonically marshalled public key of at most
     * 42 bytes, or a sha2-256 multihash of 32 bytes. A {@link KeyFormatException} for anything else.
     */
    public static PeerId fromBytes(byte[] multihash) {
        byte[] bytes = multihash.clone();
        if (bytes.length < 2) {
            throw new KeyFormatException("a peer id multihash has at least 2 bytes, not " + bytes.length);
        }
        int code = bytes[0] & 0xff;
        int length = bytes[1] & 0xff; // every length a peer id may have is a one-byte varint
        if (code == SHA2_256) {
            if (length != SHA2_256_LENGTH || bytes.length != 2 + SHA2_256_LENGTH) {
                throw new KeyFormatException("a sha2-256 peer id has a 32-byte digest, not a " + length + "-byte "
                        + "digest in " + bytes.length + " bytes");
            }
            return new PeerId(bytes, null);
        }
        if (code == IDENTITY) {
            if (length == 0 || length > MAX_INLINE_KEY_LENGTH || bytes.length != 2 + length) {
                throw new KeyFormatException("an identity peer id holds a key of 1 to " + MAX_INLINE_KEY_LENGTH
                        + " bytes, not " + (length > 0x7f ? "a multi-byte length" : length + " bytes in "
                        + bytes.length));
            }
            byte[] marshalled = Arrays.copyOfRange(bytes, 2, bytes.length);
            PublicKey key = PublicKey.unmarshal(marshalled);
            if (!Arrays.equals(key.marshal(), marshalled)) {
                throw new KeyFormatException("an identity peer id whose key is not canonically marshalled");
            }
            return new PeerId(bytes, key);
        }
        throw new KeyFormatException(String.format("a peer id is an identity or sha2-256 multihash, not "
                + "multihash code 0x%02x%s", code, code > 0x7f ? "…" : ""));
    }

    /**
     * A peer id in text: a base58btc multihash ({@code 12D3KooW…}, {@code 16Uiu2…}, {@code Qm…}) or a multibase
     * CIDv1 with the libp2p-key codec ({@code bafz…}, {@code k51…}), as peer-ids.md "Decoding" says.
     */
    public static PeerId parse(String text) {
        if (text.startsWith("1") || text.startsWith("Qm")) {
            return fromBytes(Base58.decode(text));
        }
        if (text.isEmpty()) {
            throw new KeyFormatException("an empty peer id");
        }
        byte[] cid = Multibase.decode(text);
        if (cid.length < 2 || cid[0] != CID_VERSION_1) {
            throw new KeyFormatException("'" + text + "' is neither a base58btc peer id nor a CIDv1");
        }
        if ((cid[1] & 0xff) != LIBP2P_KEY_CODEC) {
            throw new KeyFormatException(String.format("the CID '%s' has codec 0x%02x%s, not libp2p-key (0x72)", text,
                    cid[1] & 0xff, (cid[1] & 0x80) != 0 ? "…" : ""));
        }
        return fromBytes(Arrays.copyOfRange(cid, 2, cid.length));
    }

    /** The multihash bytes (what a {@code /p2p} multiaddr component holds). */
    public byte[] bytes() {
        return multihash.clone();
    }

    /** The base58btc text, as every libp2p implementation shows peer ids. */
    public String toBase58() {
        return base58;
    }

    /** The CIDv1 text in base32 ({@code bafz…}), the form peer-ids.md calls new. */
    public String toCid() {
        byte[] cid = new byte[2 + multihash.length];
        cid[0] = CID_VERSION_1;
        cid[1] = LIBP2P_KEY_CODEC;
        System.arraycopy(multihash, 0, cid, 2, multihash.length);
        return Multibase.encodeBase32(cid);
    }

    /** The public key inside an identity peer id; empty for a sha2-256 one (the key must come from elsewhere). */
    public Optional<PublicKey> publicKey() {
        return Optional.ofNullable(inlineKey);
    }

    /** Whether this is the peer id of {@code key}. */
    public boolean matches(PublicKey key) {
        return equals(fromPublicKey(key));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PeerId id && Arrays.equals(id.multihash, multihash);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(multihash);
    }

    @Override
    public String toString() {
        return base58;
    }
}
