package io.wakurelay.discovery.enr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.discovery.enr.WakuCapabilities.Capability;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.InetAddress;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EnrTest {

    /** EIP-778's example record, with its private key. */
    static final String EIP778_RECORD = "enr:-IS4QHCYrYZbAKWCBRlAy5zzaDZXJBGkcnh4MHcBFZntXNFrdvJjX04jRzjzCBOonrkTfj49"
            + "9SZuOh8R33Ls8RRcy5wBgmlkgnY0gmlwhH8AAAGJc2VjcDI1NmsxoQPKY0yuDUmstAHYpMa2_oxVtw0RW_QAdpzBQA8yWM0xOIN1ZHCCdl8";
    static final String EIP778_KEY = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291";

    /** A record of Status's store fleet, from nwaku's tests/test_waku_enr.nim: two dns4 multiaddrs, rs, waku2. */
    static final String NWAKU_FLEET_RECORD = "enr:-QEMuEAs8JmmyUI3b9v_ADqYtELHUYAsAMS21lA2BMtrzF86tVmyy9cCrhmzfHGH"
            + "x_g3nybn7jIRybzXTGNj3C2KzrriAYJpZIJ2NIJpcISf3_Jeim11bHRpYWRkcnO4XAAr"
            + "NiZzdG9yZS0wMS5kby1hbXMzLnN0YXR1cy5wcm9kLnN0YXR1cy5pbQZ2XwAtNiZzdG9y"
            + "ZS0wMS5kby1hbXMzLnN0YXR1cy5wcm9kLnN0YXR1cy5pbQYBu94DgnJzjQAQBQABACAA"
            + "QACAAQCJc2VjcDI1NmsxoQLfoaQH3oSYW59yxEBfeAZbltmUnC4BzYkHqer2VQMTyoN0"
            + "Y3CCdl-DdWRwgiMohXdha3UyAw";

    /** An Ethereum record (an {@code eth2} field, no Waku fields), from the same nwaku test. */
    static final String ETHEREUM_RECORD = "enr:-KG4QOtcP9X1FbIMOe17QNMKqDxCpm14jcX5tiOE4_TyMrFqbmhPZHK_ZPG2G"
            + "xb1GE2xdtodOfx9-cgvNtxnRyHEmC0ghGV0aDKQ9aX9QgAAAAD__________4JpZIJ2NIJpcIQDE8KdiXNl"
            + "Y3AyNTZrMaEDhpehBDbZjM_L9ek699Y7vhUJ-eAdMyQW_Fil522Y0fODdGNwgiMog3VkcIIjKA";

    @Test
    void theEip778ExampleDecodesToItsFieldsAndNodeId() throws Exception {
        Enr record = Enr.parse(EIP778_RECORD);
        assertThat(record.seq()).isEqualTo(1);
        assertThat(record.keys()).containsExactly("id", "ip", "secp256k1", "udp");
        assertThat(record.ip4()).contains(InetAddress.getByName("127.0.0.1"));
        assertThat(record.udp()).contains(30303);
        assertThat(HexFormat.of().formatHex(record.nodeId()))
                .isEqualTo("a448f24c6d18e575453db13171562b71999873db5b286df957af199ec94617f7");
        assertThat(record.text()).isEqualTo(EIP778_RECORD);
    }

    @Test
    void signingTheEip778ExampleContentGivesTheExampleRecordByteForByte() {
        TreeMap<String, byte[]> pairs = new TreeMap<>();
        pairs.put("ip", Rlp.bytes(new byte[] {127, 0, 0, 1}));
        pairs.put("udp", Rlp.unsigned(30303));
        Enr signed = Enr.sign(1, pairs, HexFormat.of().parseHex(EIP778_KEY));
        assertThat(signed.text()).isEqualTo(EIP778_RECORD);
    }

    @Test
    void aFleetRecordOfNwakuDecodesToItsMultiaddrsShardsAndCapabilities() {
        Enr record = Enr.parse(NWAKU_FLEET_RECORD);
        assertThat(record.multiaddrs()).containsExactly(
                Multiaddr.parse("/dns4/store-01.do-ams3.status.prod.status.im/tcp/30303"),
                Multiaddr.parse("/dns4/store-01.do-ams3.status.prod.status.im/tcp/443/wss"));
        assertThat(record.waku2().orElseThrow().capabilities()).containsExactly(Capability.RELAY, Capability.STORE);
        RelayShards shards = record.relayShards().orElseThrow();
        assertThat(shards.cluster()).isEqualTo(16);
        assertThat(shards.shards()).containsExactly(1, 32, 64, 128, 256);
    }

    @Test
    void anEthereumRecordDecodesWithoutWakuFields() {
        Enr record = Enr.parse(ETHEREUM_RECORD);
        assertThat(record.keys()).contains("eth2");
        assertThat(record.waku2()).isEmpty();
        assertThat(record.relayShards()).isEmpty();
        assertThat(record.multiaddrs()).isEmpty();
    }

    @Test
    void aListValueIsKeptAsItIsAndIsNotReadAsBytes() {
        TreeMap<String, byte[]> pairs = new TreeMap<>();
        pairs.put("eth", Rlp.list(List.of(Rlp.list(List.of(Rlp.bytes(new byte[] {1, 2, 3, 4}), Rlp.unsigned(0))))));
        Enr record = Enr.decode(Enr.sign(7, pairs, HexFormat.of().parseHex(EIP778_KEY)).encoded());
        assertThat(record.keys()).containsExactly("eth", "id", "secp256k1");
        assertThatThrownBy(() -> record.bytes("eth")).isInstanceOf(EnrFormatException.class)
                .hasMessageContaining("found a list");
    }

    @Test
    void wakuFieldsWrittenByTheBuilderReadBackWithEveryAddressDialable() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        Enr built = EnrBuilder.of(key)
                .announce(List.of(
                        Multiaddr.parse("/ip4/192.0.2.7/tcp/60000"),
                        Multiaddr.parse("/ip4/127.0.0.1/tcp/60000"), // a second plain ip4: left out
                        Multiaddr.parse("/ip6/2001:db8::1/tcp/60001"),
                        Multiaddr.parse("/ip4/192.0.2.7/tcp/8000/ws"),
                        Multiaddr.parse("/dns4/node.example.org/tcp/443/wss")))
                .capabilities(WakuCapabilities.of(EnumSet.of(Capability.RELAY, Capability.STORE, Capability.FILTER,
                        Capability.LIGHTPUSH)))
                .shards(RelayShards.of(1, List.of(0, 1, 2, 3, 4, 5, 6, 7)))
                .build(1);
        Enr read = Enr.parse(built.text());
        PeerId peer = PeerId.fromPublicKey(key.publicKey());
        assertThat(read.peerId()).isEqualTo(peer);
        assertThat(read.tcp()).contains(60000);
        assertThat(read.tcp6()).contains(60001);
        assertThat(read.waku2().orElseThrow().bits()).isEqualTo(0b1111);
        assertThat(read.keys()).contains("rs").doesNotContain("rsv");
        assertThat(read.relayShards().orElseThrow().shards()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(read.dialAddresses()).containsExactly(
                Multiaddr.parse("/ip4/192.0.2.7/tcp/60000/p2p/" + peer),
                Multiaddr.parse("/ip6/2001:db8::1/tcp/60001/p2p/" + peer),
                Multiaddr.parse("/ip4/192.0.2.7/tcp/8000/ws/p2p/" + peer),
                Multiaddr.parse("/dns4/node.example.org/tcp/443/wss/p2p/" + peer));
    }

    @Test
    void sixtyFourShardsOrMoreAreWrittenAsTheBitVector() {
        List<Integer> many = java.util.stream.IntStream.range(0, 64).map(i -> i * 16).boxed().toList();
        Enr read = Enr.parse(EnrBuilder.of(PrivateKey.generateSecp256k1()).shards(RelayShards.of(5, many)).build(1)
                .text());
        assertThat(read.keys()).contains("rsv").doesNotContain("rs");
        assertThat(read.relayShards().orElseThrow()).isEqualTo(RelayShards.of(5, many));
    }

    @Test
    void addressesThatDoNotFitIntoThreeHundredBytesAreLeftOutFromTheLastAndTheRecordIsMade() {
        EnrBuilder builder = EnrBuilder.of(PrivateKey.generateSecp256k1())
                .announce(List.of(Multiaddr.parse("/ip4/192.0.2.7/tcp/60000")));
        List<Multiaddr> many = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            many.add(Multiaddr.parse("/dns4/node-" + i + ".a-long-domain-name.example.org/tcp/443/wss"));
        }
        Enr read = Enr.decode(builder.announce(many).build(Long.MAX_VALUE).encoded());
        assertThat(read.encoded().length).isLessThanOrEqualTo(Enr.MAX_SIZE);
        assertThat(read.tcp()).contains(60000);
        assertThat(read.multiaddrs()).isNotEmpty().hasSizeLessThan(many.size())
                .isEqualTo(many.subList(0, read.multiaddrs().size()));
    }

    @Test
    void signingContentOfMoreThanThreeHundredBytesIsRefusedWithTheReason() {
        TreeMap<String, byte[]> pairs = new TreeMap<>();
        pairs.put("big", Rlp.bytes(new byte[250]));
        assertThatThrownBy(() -> Enr.sign(1, pairs, HexFormat.of().parseHex(EIP778_KEY)))
                .isInstanceOf(EnrFormatException.class).hasMessageContaining("over EIP-778's limit of 300");
    }

    @Test
    void anEd25519NodeKeyCannotSignARecord() {
        assertThatThrownBy(() -> EnrBuilder.of(PrivateKey.generateEd25519()))
                .hasMessageContaining("secp256k1");
    }

    @Test
    void aChangedByteAnywhereInTheSignedPartFailsVerification() {
        byte[] bytes = decodeText(EIP778_RECORD);
        bytes[bytes.length - 1] ^= 1; // the udp port
        assertThatThrownBy(() -> Enr.decode(bytes)).isInstanceOf(EnrFormatException.class)
                .hasMessageContaining("signature");
        byte[] badSignature = decodeText(EIP778_RECORD);
        badSignature[10] ^= 1;
        assertThatThrownBy(() -> Enr.decode(badSignature)).isInstanceOf(EnrFormatException.class);
    }

    @Test
    void unsortedRepeatedOrDanglingKeysAreRefused() {
        byte[] key = HexFormat.of().parseHex(EIP778_KEY);
        byte[] sig = new byte[64];
        assertThat(refusal(record(sig, Rlp.string("udp"), Rlp.unsigned(1), Rlp.string("ip"), Rlp.bytes(new byte[4]))))
                .contains("not sorted");
        assertThat(refusal(record(sig, Rlp.string("ip"), Rlp.unsigned(1), Rlp.string("ip"), Rlp.unsigned(2))))
                .contains("not sorted");
        assertThat(refusal(record(sig, Rlp.string("ip")))).contains("has no value");
        assertThat(refusal(record(sig, Rlp.string("id"), Rlp.string("v5")))).contains("unknown identity scheme");
        assertThat(refusal(record(sig, Rlp.string("ip"), Rlp.unsigned(1)))).contains("no identity scheme");
        assertThat(key).hasSize(32);
    }

    @Test
    void nonCanonicalOrTruncatedRlpIsRefused() {
        byte[] valid = decodeText(EIP778_RECORD);
        assertThat(refusal(java.util.Arrays.copyOf(valid, valid.length - 1))).contains("claims");
        byte[] trailing = java.util.Arrays.copyOf(valid, valid.length + 1);
        assertThat(refusal(trailing)).contains("bytes after");
        assertThat(refusal(new byte[] {(byte) 0xc2, (byte) 0x81, 0x05})).contains("single byte");
        assertThat(refusal(new byte[] {(byte) 0xf8, 0x02, (byte) 0x80, (byte) 0x80})).contains("short length");
        assertThat(refusal(new byte[] {(byte) 0xf9, 0x00, 0x40})).contains("leading zero");
        assertThat(refusal(new byte[] {(byte) 0xc1, (byte) 0x80, 0x00})).contains("bytes after");
        assertThat(refusal(new byte[] {(byte) 0xc1, (byte) 0x80})).contains("missing");
        assertThat(refusal(new byte[0])).contains("missing");
        assertThat(refusal(new byte[301])).contains("300");
    }

    @Test
    void textThatIsNotARecordIsRefusedBeforeDecoding() {
        assertThatThrownBy(() -> Enr.parse("enx:" + EIP778_RECORD.substring(4))).hasMessageContaining("enr:");
        assertThatThrownBy(() -> Enr.parse("enr:-IS4Q*")).isInstanceOf(EnrFormatException.class)
                .hasMessageContaining("base64");
        assertThatThrownBy(() -> Enr.parse("enr:" + "A".repeat(1_000_000))).isInstanceOf(EnrFormatException.class)
                .hasMessageContaining("longer than");
    }

    @Test
    void malformedWakuFieldsAreErrorsOfTheirAccessor() {
        assertThatThrownBy(() -> RelayShards.decodeList(new byte[] {0, 1, 2, 0, 1})).hasMessageContaining("counts 2");
        assertThatThrownBy(() -> RelayShards.decodeList(new byte[] {0, 1, 1, 0x04, 0})).hasMessageContaining("above");
        assertThatThrownBy(() -> RelayShards.decodeBitVector(new byte[129])).hasMessageContaining("130");
        assertThatThrownBy(() -> WakuCapabilities.decode(new byte[2])).hasMessageContaining("one byte");
        assertThatThrownBy(() -> WakuEnrFields.decodeMultiaddrs(new byte[] {0, 0})).hasMessageContaining("0 bytes");
        assertThatThrownBy(() -> WakuEnrFields.decodeMultiaddrs(new byte[] {0, 9, 4})).hasMessageContaining("9 bytes");
        assertThatThrownBy(() -> WakuEnrFields.decodeMultiaddrs(new byte[] {0})).hasMessageContaining("inside");
        // an address of a protocol we do not know is skipped, the others kept
        byte[] known = Multiaddr.parse("/ip4/192.0.2.1/tcp/1").bytes();
        byte[] field = new byte[2 + 3 + 2 + known.length];
        field[1] = 3;
        field[2] = (byte) 0xff;
        field[3] = (byte) 0xff;
        field[4] = 0x03; // a varint code no multiaddr table has
        field[6] = (byte) known.length;
        System.arraycopy(known, 0, field, 7, known.length);
        assertThat(WakuEnrFields.decodeMultiaddrs(field)).containsExactly(Multiaddr.parse("/ip4/192.0.2.1/tcp/1"));
    }

    @Test
    void randomDamageToARecordIsOnlyEverAFormatError() {
        byte[] valid = decodeText(NWAKU_FLEET_RECORD);
        java.util.Random random = new java.util.Random(29);
        for (int i = 0; i < 5_000; i++) {
            byte[] damaged = valid.clone();
            int changes = 1 + random.nextInt(4);
            for (int c = 0; c < changes; c++) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            byte[] input = random.nextBoolean() ? damaged
                    : java.util.Arrays.copyOf(damaged, random.nextInt(damaged.length + 1));
            try {
                Enr record = Enr.decode(input);
                record.dialAddresses();
            } catch (EnrFormatException expected) {
                // the one failure allowed
            }
        }
    }

    @Test
    void randomFieldValuesInAValidlySignedRecordAreOnlyEverAFieldError() {
        byte[] key = HexFormat.of().parseHex(EIP778_KEY);
        java.util.Random random = new java.util.Random(31);
        String[] keys = {"ip", "ip6", "tcp", "tcp6", "udp", "waku2", "multiaddrs", "rs", "rsv"};
        for (int i = 0; i < 2_000; i++) {
            TreeMap<String, byte[]> pairs = new TreeMap<>();
            String field = keys[random.nextInt(keys.length)];
            byte[] value = new byte[random.nextInt(field.equals("rsv") ? 140 : 40)];
            random.nextBytes(value);
            if (field.equals("multiaddrs") && value.length >= 2) {
                value[0] = 0; // mostly plausible lengths, so that the multiaddr parser itself is reached
                value[1] = (byte) random.nextInt(value.length);
            }
            pairs.put(field, Rlp.bytes(value));
            Enr record = Enr.decode(Enr.sign(1, pairs, key).encoded());
            try {
                record.dialAddresses();
                record.udp();
                record.waku2();
                record.relayShards();
            } catch (EnrFormatException expected) {
                // the one failure allowed
            }
        }
    }

    private static String refusal(byte[] encoded) {
        try {
            Enr.decode(encoded);
        } catch (EnrFormatException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted");
    }

    private static byte[] record(byte[] signature, byte[]... pairs) {
        List<byte[]> items = new java.util.ArrayList<>();
        items.add(Rlp.bytes(signature));
        items.add(Rlp.unsigned(1));
        items.addAll(List.of(pairs));
        return Rlp.list(items);
    }

    private static byte[] decodeText(String text) {
        return Base64.getUrlDecoder().decode(text.substring(4));
    }
}
