package io.wakurelay.discovery.enr;

import io.wakurelay.p2p.crypto.KeyType;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PublicKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An Ethereum Node Record (EIP-778) whose signature has been verified: a sequence number, sorted key/value pairs and
 * the "v4" signature over them. Decoding is strict and bounded: at most {@link #MAX_SIZE} bytes, canonical RLP, keys
 * sorted and unique, the identity scheme "v4" with a valid signature; anything else is an
 * {@link EnrFormatException}. The typed accessors read EIP-778's fields ({@code ip}, {@code tcp}, {@code udp},
 * {@code ip6}, {@code tcp6}, {@code udp6}) and Waku's ({@link WakuEnrFields}); a field of the wrong shape is an
 * {@link EnrFormatException} from its accessor, and an absent one is empty. Immutable.
 */
public final class Enr {

    /** EIP-778: "The maximum encoded size of a node record is 300 bytes." */
    public static final int MAX_SIZE = 300;
    /** The text form: {@code enr:} and the record in URL-safe base64 without padding. */
    public static final String TEXT_PREFIX = "enr:";
    static final int MAX_TEXT_LENGTH = TEXT_PREFIX.length() + (MAX_SIZE * 4 + 2) / 3;

    private final long seq;
    private final SortedMap<String, byte[]> pairs; // key (bytes as ISO-8859-1) -> the value's RLP encoding
    private final byte[] signature;
    private final byte[] encoded;

    private Enr(long seq, SortedMap<String, byte[]> pairs, byte[] signature, byte[] encoded) {
        this.seq = seq;
        this.pairs = Collections.unmodifiableSortedMap(pairs);
        this.signature = signature;
        this.encoded = encoded;
    }

    /** Signs {@code pairs} (values already RLP-encoded; {@code id} and {@code secp256k1} are added) with {@code seq}. */
    static Enr sign(long seq, SortedMap<String, byte[]> pairs, byte[] privateScalar) {
        TreeMap<String, byte[]> all = new TreeMap<>(pairs);
        all.put("id", Rlp.string(V4Identity.ID));
        all.put("secp256k1", Rlp.bytes(V4Identity.publicKey(privateScalar)));
        byte[] content = Rlp.list(items(seq, all, null));
        byte[] signature = V4Identity.sign(content, privateScalar);
        byte[] encoded = Rlp.list(items(seq, all, signature));
        if (encoded.length > MAX_SIZE) {
            throw new EnrFormatException("the record would be " + encoded.length + " bytes, over EIP-778's limit of "
                    + MAX_SIZE + ": announce fewer or shorter addresses");
        }
        return new Enr(seq, all, signature, encoded);
    }

    /**
     * The size of a record of these pairs (values RLP-encoded, {@code id} and {@code secp256k1} added) at the largest
     * sequence number: a bound that holds whatever sequence number the record is later signed with.
     */
    static int largestSize(SortedMap<String, byte[]> pairs) {
        TreeMap<String, byte[]> all = new TreeMap<>(pairs);
        all.put("id", Rlp.string(V4Identity.ID));
        all.put("secp256k1", Rlp.bytes(new byte[V4Identity.COMPRESSED_KEY_LENGTH]));
        return Rlp.list(items(-1L, all, new byte[V4Identity.SIGNATURE_LENGTH])).length;
    }

    /** Decodes and verifies a record's RLP bytes. */
    public static Enr decode(byte[] encoded) {
        if (encoded.length > MAX_SIZE) {
            throw new EnrFormatException("a record of " + encoded.length + " bytes, over EIP-778's limit of "
                    + MAX_SIZE);
        }
        RlpReader outer = new RlpReader(encoded);
        RlpReader items = outer.list();
        if (outer.hasMore()) {
            throw new EnrFormatException("bytes after the record's RLP list");
        }
        byte[] signature = items.bytes();
        long seq = items.unsigned(8);
        TreeMap<String, byte[]> pairs = new TreeMap<>();
        String previous = null;
        while (items.hasMore()) {
            String key = new String(items.bytes(), StandardCharsets.ISO_8859_1);
            if (!items.hasMore()) {
                throw new EnrFormatException("the key " + printable(key) + " has no value");
            }
            if (previous != null && previous.compareTo(key) >= 0) {
                throw new EnrFormatException("the keys are not sorted and unique: " + printable(key) + " after "
                        + printable(previous));
            }
            pairs.put(key, items.rawItem());
            previous = key;
        }
        byte[] id = pairs.get("id");
        if (id == null) {
            throw new EnrFormatException("the record has no identity scheme (key \"id\")");
        }
        String scheme = new String(new RlpReader(id).bytes(), StandardCharsets.ISO_8859_1);
        if (!V4Identity.ID.equals(scheme)) {
            throw new EnrFormatException("unknown identity scheme " + printable(scheme) + " (only \"v4\" is known)");
        }
        byte[] key = pairs.get("secp256k1");
        if (key == null) {
            throw new EnrFormatException("a v4 record without its secp256k1 key");
        }
        byte[] content = Rlp.list(items(seq, pairs, null));
        if (!V4Identity.verify(content, signature, new RlpReader(key).bytes())) {
            throw new EnrFormatException("the record's signature does not verify");
        }
        return new Enr(seq, pairs, signature, encoded.clone());
    }

    /** Decodes the text form {@code enr:<base64url>}. */
    public static Enr parse(String text) {
        String trimmed = text.strip();
        if (trimmed.length() > MAX_TEXT_LENGTH) {
            throw new EnrFormatException("an ENR of " + trimmed.length() + " characters: longer than a "
                    + MAX_SIZE + "-byte record can be");
        }
        if (!trimmed.startsWith(TEXT_PREFIX)) {
            throw new EnrFormatException("an ENR starts with \"enr:\"");
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(trimmed.substring(TEXT_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new EnrFormatException("an ENR is URL-safe base64 after \"enr:\": " + e.getMessage(), e);
        }
        return decode(bytes);
    }

    private static List<byte[]> items(long seq, SortedMap<String, byte[]> pairs, byte[] signature) {
        List<byte[]> items = new ArrayList<>();
        if (signature != null) {
            items.add(Rlp.bytes(signature));
        }
        items.add(Rlp.unsigned(seq));
        for (Map.Entry<String, byte[]> pair : pairs.entrySet()) {
            items.add(Rlp.bytes(pair.getKey().getBytes(StandardCharsets.ISO_8859_1)));
            items.add(pair.getValue());
        }
        return items;
    }

    public long seq() {
        return seq;
    }

    /** The record's RLP bytes. */
    public byte[] encoded() {
        return encoded.clone();
    }

    /** The text form, {@code enr:…}. */
    public String text() {
        return TEXT_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(encoded);
    }

    /** The keys present, sorted. */
    public List<String> keys() {
        return List.copyOf(pairs.keySet());
    }

    /** The value under {@code key} as a byte string; empty when absent; an error when it is a list. */
    public Optional<byte[]> bytes(String key) {
        byte[] raw = pairs.get(key);
        return raw == null ? Optional.empty() : Optional.of(new RlpReader(raw).bytes());
    }

    /** Whether the two records carry the same pairs (not comparing sequence numbers or signatures). */
    boolean sameContent(SortedMap<String, byte[]> otherPairs) {
        if (!pairs.keySet().equals(otherPairs.keySet())) {
            return false;
        }
        return pairs.entrySet().stream().allMatch(e -> java.util.Arrays.equals(e.getValue(), otherPairs.get(e.getKey())));
    }

    SortedMap<String, byte[]> pairs() {
        return pairs;
    }

    /** The 33-byte compressed secp256k1 key. */
    public byte[] publicKey() {
        return bytes("secp256k1").orElseThrow();
    }

    /** The node id (Keccak-256 of the uncompressed key), as discv5 uses it. */
    public byte[] nodeId() {
        return V4Identity.nodeId(publicKey());
    }

    /** The libp2p peer id of the record's key (the same key is the node's libp2p identity). */
    public PeerId peerId() {
        return PeerId.fromPublicKey(PublicKey.of(KeyType.SECP256K1, publicKey()));
    }

    public Optional<InetAddress> ip4() {
        return address("ip", 4);
    }

    public Optional<InetAddress> ip6() {
        return address("ip6", 16);
    }

    public Optional<Integer> tcp() {
        return port("tcp");
    }

    public Optional<Integer> udp() {
        return port("udp");
    }

    public Optional<Integer> tcp6() {
        return port("tcp6");
    }

    public Optional<Integer> udp6() {
        return port("udp6");
    }

    /** Waku's {@code waku2} capabilities, when present. */
    public Optional<WakuCapabilities> waku2() {
        return bytes(WakuEnrFields.CAPABILITIES).map(WakuCapabilities::decode);
    }

    /** Waku's {@code multiaddrs} field: the addresses that do not fit ip/tcp (empty when absent). */
    public List<Multiaddr> multiaddrs() {
        return bytes(WakuEnrFields.MULTIADDRS).map(WakuEnrFields::decodeMultiaddrs).orElse(List.of());
    }

    /** The relay shards ({@code rs}, else {@code rsv}), when present. */
    public Optional<RelayShards> relayShards() {
        Optional<byte[]> list = bytes(WakuEnrFields.SHARDS_LIST);
        if (list.isPresent()) {
            return Optional.of(RelayShards.decodeList(list.get()));
        }
        return bytes(WakuEnrFields.SHARDS_BIT_VECTOR).map(RelayShards::decodeBitVector);
    }

    /**
     * Every address a peer can dial the node at, each ending in {@code /p2p/<peer id>}: {@code ip}/{@code tcp},
     * {@code ip6}/{@code tcp6} (falling back to {@code tcp} as EIP-778 says), then the {@code multiaddrs} field.
     */
    public List<Multiaddr> dialAddresses() {
        PeerId peer = peerId();
        List<Multiaddr> out = new ArrayList<>();
        Optional<Integer> tcp = tcp();
        ip4().ifPresent(ip -> tcp.ifPresent(port -> out.add(Multiaddr.of(new InetSocketAddress(ip, port)))));
        Optional<Integer> tcp6 = tcp6().or(() -> tcp);
        ip6().ifPresent(ip -> tcp6.ifPresent(port -> out.add(Multiaddr.of(new InetSocketAddress(ip, port)))));
        out.addAll(multiaddrs());
        return out.stream().map(a -> a.withPeerId(peer)).toList();
    }

    private Optional<InetAddress> address(String key, int length) {
        return bytes(key).map(value -> {
            if (value.length != length) {
                throw new EnrFormatException("the field " + key + " has " + value.length + " bytes, not " + length);
            }
            try {
                return InetAddress.getByAddress(value);
            } catch (UnknownHostException e) {
                throw new EnrFormatException("the field " + key + " is not an address", e);
            }
        });
    }

    private Optional<Integer> port(String key) {
        byte[] raw = pairs.get(key);
        if (raw == null) {
            return Optional.empty();
        }
        long port = new RlpReader(raw).unsigned(2);
        return Optional.of((int) port);
    }

    private static String printable(String key) {
        String shown = key.length() > 16 ? key.substring(0, 16) + "…" : key;
        return shown.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? "\"" + shown + "\""
                : "0x" + HexFormat.of().formatHex(shown.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Enr e && java.util.Arrays.equals(encoded, e.encoded);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return text();
    }
}
