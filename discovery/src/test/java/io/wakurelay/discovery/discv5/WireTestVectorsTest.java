package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.enr.Enr;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The test vectors of devp2p's discv5/discv5-wire-test-vectors.md (v5.1), one test per vector: each packet is
 * decoded with node B's key and its message decrypted, and built again from its inputs into the same bytes.
 */
class WireTestVectorsTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] NODE_A_KEY = hex("eef77acb6c6a6eebc5b363a475ac583ec7eccdb42b6481424c60f59aa326547f");
    private static final byte[] NODE_B_KEY = hex("66fb62bfbd66b9177a138c1e5cddbe4f7c30c343e94e68df8769459cb1cde628");
    private static final byte[] NODE_A_ID = hex("aaaa8419e9f49d0083561b48287df592939a8d19947d8c0ef88f2a4856a69fbb");
    private static final byte[] NODE_B_ID = hex("bbbb9d047f0488c0b5a93c1c3f2d8bafc7c8ff337024a55434a0d0555de64db9");
    private static final byte[] NONCE = hex("ffffffffffffffffffffffff");
    private static final byte[] ZERO_IV = new byte[16];
    private static final byte[] PING_REQ_ID = hex("00000001");
    private static final byte[] EPHEMERAL_KEY = hex("0288ef00023598499cb6c940146d050d2b1fb914198c327f76aad590bead68b6");
    private static final byte[] EPHEMERAL_PUB = hex("039a003ba6517b473fa0cd74aefe99dadfdb34627f90fec6362df85803908f53a5");

    private static final byte[] PING_PACKET = hex("00000000000000000000000000000000088b3d4342774649325f313964a39e55"
            + "ea96c005ad52be8c7560413a7008f16c9e6d2f43bbea8814a546b7409ce783d3"
            + "4c4f53245d08dab84102ed931f66d1492acb308fa1c6715b9d139b81acbdcc");
    private static final byte[] WHOAREYOU_PACKET = hex("00000000000000000000000000000000088b3d434277464933a1ccc59f5967ad"
            + "1d6035f15e528627dde75cd68292f9e6c27d6b66c8100a873fcbaed4e16b8d");
    private static final byte[] HANDSHAKE_PACKET = hex("00000000000000000000000000000000088b3d4342774649305f313964a39e55"
            + "ea96c005ad521d8c7560413a7008f16c9e6d2f43bbea8814a546b7409ce783d3"
            + "4c4f53245d08da4bb252012b2cba3f4f374a90a75cff91f142fa9be3e0a5f3ef"
            + "268ccb9065aeecfd67a999e7fdc137e062b2ec4a0eb92947f0d9a74bfbf44dfb"
            + "a776b21301f8b65efd5796706adff216ab862a9186875f9494150c4ae06fa4d1"
            + "f0396c93f215fa4ef524f1eadf5f0f4126b79336671cbcf7a885b1f8bd2a5d83"
            + "9cf8");
    private static final byte[] HANDSHAKE_ENR_PACKET = hex("00000000000000000000000000000000088b3d4342774649305f313964a39e55"
            + "ea96c005ad539c8c7560413a7008f16c9e6d2f43bbea8814a546b7409ce783d3"
            + "4c4f53245d08da4bb23698868350aaad22e3ab8dd034f548a1c43cd246be9856"
            + "2fafa0a1fa86d8e7a3b95ae78cc2b988ded6a5b59eb83ad58097252188b902b2"
            + "1481e30e5e285f19735796706adff216ab862a9186875f9494150c4ae06fa4d1"
            + "f0396c93f215fa4ef524e0ed04c3c21e39b1868e1ca8105e585ec17315e755e6"
            + "cfc4dd6cb7fd8e1a1f55e49b4b5eb024221482105346f3c82b15fdaae36a3bb1"
            + "2a494683b4a3c7f2ae41306252fed84785e2bbff3b022812d0882f06978df84a"
            + "80d443972213342d04b9048fc3b1d5fcb1df0f822152eced6da4d3f6df27e70e"
            + "4539717307a0208cd208d65093ccab5aa596a34d7511401987662d8cf62b1394"
            + "71");

    @Test
    void nodeIdsAreThoseOfTheVectorKeys() {
        assertThat(nodeId(NODE_A_KEY)).isEqualTo(NODE_A_ID);
        assertThat(nodeId(NODE_B_KEY)).isEqualTo(NODE_B_ID);
        assertThat(Discv5Crypto.publicKey(EPHEMERAL_KEY)).isEqualTo(EPHEMERAL_PUB);
    }

    @Test
    void pingMessagePacketDecodesAndEncodesToTheVector() {
        byte[] readKey = new byte[16];
        Packet packet = Packet.decode(PING_PACKET, NODE_B_ID);
        assertThat(packet.flag()).isEqualTo(Packet.FLAG_ORDINARY);
        assertThat(packet.nonce()).isEqualTo(NONCE);
        assertThat(packet.sourceId()).isEqualTo(NODE_A_ID);
        byte[] plaintext = Discv5Crypto.aesGcmDecrypt(readKey, packet.nonce(), packet.message(), packet.messageAd());
        assertThat(Message.decode(plaintext)).isInstanceOfSatisfying(Message.Ping.class, ping -> {
            assertThat(ping.requestId()).isEqualTo(PING_REQ_ID);
            assertThat(ping.enrSeq()).isEqualTo(2);
        });

        Packet header = new Packet(ZERO_IV, Packet.FLAG_ORDINARY, NONCE, NODE_A_ID, new byte[0]);
        byte[] message = Discv5Crypto.aesGcmEncrypt(readKey, NONCE, new Message.Ping(PING_REQ_ID, 2).encode(),
                header.messageAd());
        assertThat(new Packet(ZERO_IV, Packet.FLAG_ORDINARY, NONCE, NODE_A_ID, message).encode(NODE_B_ID))
                .isEqualTo(PING_PACKET);
    }

    @Test
    void whoareyouPacketDecodesAndEncodesToTheVector() {
        Packet packet = Packet.decode(WHOAREYOU_PACKET, NODE_B_ID);
        assertThat(packet.flag()).isEqualTo(Packet.FLAG_WHOAREYOU);
        assertThat(packet.nonce()).isEqualTo(hex("0102030405060708090a0b0c"));
        assertThat(packet.idNonce()).isEqualTo(hex("0102030405060708090a0b0c0d0e0f10"));
        assertThat(packet.whoareyouEnrSeq()).isZero();
        assertThat(packet.challengeData()).isEqualTo(challengeData(0));
        assertThat(Packet.whoareyou(ZERO_IV, hex("0102030405060708090a0b0c"),
                hex("0102030405060708090a0b0c0d0e0f10"), 0).encode(NODE_B_ID)).isEqualTo(WHOAREYOU_PACKET);
    }

    @Test
    void pingHandshakePacketDecodesVerifiesAndEncodesToTheVector() {
        checkHandshake(HANDSHAKE_PACKET, 1, hex("4f9fac6de7567d1e3b1241dffe90f662"), false);
    }

    @Test
    void pingHandshakePacketWithRecordDecodesVerifiesAndEncodesToTheVector() {
        checkHandshake(HANDSHAKE_ENR_PACKET, 0, hex("53b1c075f41876423154e157470c2f48"), true);
    }

    private static void checkHandshake(byte[] vector, long whoareyouSeq, byte[] readKey, boolean withRecord) {
        byte[] challengeData = challengeData(whoareyouSeq);
        Packet packet = Packet.decode(vector, NODE_B_ID);
        assertThat(packet.flag()).isEqualTo(Packet.FLAG_HANDSHAKE);
        HandshakeAuthdata auth = HandshakeAuthdata.decode(packet.authdata());
        assertThat(auth.sourceId()).isEqualTo(NODE_A_ID);
        assertThat(auth.ephemeralKey()).isEqualTo(EPHEMERAL_PUB);
        byte[] nodeAPublic = Discv5Crypto.publicKey(NODE_A_KEY);
        assertThat(Discv5Crypto.idVerify(nodeAPublic, auth.idSignature(), challengeData, auth.ephemeralKey(),
                NODE_B_ID)).isTrue();
        if (withRecord) {
            Enr record = Enr.decode(auth.record());
            assertThat(record.nodeId()).isEqualTo(NODE_A_ID);
            assertThat(record.seq()).isEqualTo(1);
        } else {
            assertThat(auth.record()).isEmpty();
        }

        // the recipient's side: ECDH with its static key and the initiator's ephemeral key
        Discv5Crypto.SessionKeys keys = Discv5Crypto.deriveKeys(
                Discv5Crypto.ecdh(auth.ephemeralKey(), NODE_B_KEY), NODE_A_ID, NODE_B_ID, challengeData);
        assertThat(keys.initiatorKey()).isEqualTo(readKey);
        byte[] plaintext = Discv5Crypto.aesGcmDecrypt(keys.initiatorKey(), packet.nonce(), packet.message(),
                packet.messageAd());
        assertThat(plaintext).isNotNull();
        assertThat(Message.decode(plaintext)).isInstanceOfSatisfying(Message.Ping.class, ping -> {
            assertThat(ping.requestId()).isEqualTo(PING_REQ_ID);
            assertThat(ping.enrSeq()).isEqualTo(1);
        });

        // the initiator's side: the same packet built from the inputs (the signature is deterministic, RFC 6979)
        Discv5Crypto.SessionKeys initiator = Discv5Crypto.deriveKeys(
                Discv5Crypto.ecdh(Discv5Crypto.publicKey(NODE_B_KEY), EPHEMERAL_KEY), NODE_A_ID, NODE_B_ID,
                challengeData);
        assertThat(initiator.initiatorKey()).isEqualTo(readKey);
        byte[] signature = Discv5Crypto.idSign(NODE_A_KEY, challengeData, EPHEMERAL_PUB, NODE_B_ID);
        byte[] authdata = new HandshakeAuthdata(NODE_A_ID, signature, EPHEMERAL_PUB, auth.record()).encode();
        Packet header = new Packet(ZERO_IV, Packet.FLAG_HANDSHAKE, NONCE, authdata, new byte[0]);
        byte[] message = Discv5Crypto.aesGcmEncrypt(readKey, NONCE, new Message.Ping(PING_REQ_ID, 1).encode(),
                header.messageAd());
        assertThat(new Packet(ZERO_IV, Packet.FLAG_HANDSHAKE, NONCE, authdata, message).encode(NODE_B_ID))
                .isEqualTo(vector);
    }

    @Test
    void ecdhGivesTheVectorSecret() {
        assertThat(Discv5Crypto.ecdh(hex("039961e4c2356d61bedb83052c115d311acb3a96f5777296dcf297351130266231"),
                hex("fb757dc581730490a1d7a00deea65e9b1936924caaea8f44d476014856b68736")))
                .isEqualTo(hex("033b11a2a1f214567e1537ce5e509ffd9b21373247f2a3ff6841f4976f53165e7e"));
    }

    @Test
    void keyDerivationGivesTheVectorKeys() {
        byte[] secret = Discv5Crypto.ecdh(hex("0317931e6e0840220642f230037d285d122bc59063221ef3226b1f403ddc69ca91"),
                hex("fb757dc581730490a1d7a00deea65e9b1936924caaea8f44d476014856b68736"));
        Discv5Crypto.SessionKeys keys = Discv5Crypto.deriveKeys(secret, NODE_A_ID, NODE_B_ID, challengeData(0));
        assertThat(keys.initiatorKey()).isEqualTo(hex("dccc82d81bd610f4f76d3ebe97a40571"));
        assertThat(keys.recipientKey()).isEqualTo(hex("ac74bb8773749920b0d3a8881c173ec5"));
    }

    @Test
    void idNonceSignatureIsTheVectorSignatureAndVerifies() {
        byte[] staticKey = hex("fb757dc581730490a1d7a00deea65e9b1936924caaea8f44d476014856b68736");
        byte[] ephemeralPub = hex("039961e4c2356d61bedb83052c115d311acb3a96f5777296dcf297351130266231");
        byte[] expected = hex("94852a1e2318c4e5e9d422c98eaf19d1d90d876b29cd06ca7cb7546d0fff7b48"
                + "4fe86c09a064fe72bdbef73ba8e9c34df0cd2b53e9d65528c2c7f336d5dfc6e6");
        assertThat(Discv5Crypto.idSign(staticKey, challengeData(0), ephemeralPub, NODE_B_ID)).isEqualTo(expected);
        assertThat(Discv5Crypto.idVerify(Discv5Crypto.publicKey(staticKey), expected, challengeData(0), ephemeralPub,
                NODE_B_ID)).isTrue();
        byte[] tampered = expected.clone();
        tampered[5] ^= 1;
        assertThat(Discv5Crypto.idVerify(Discv5Crypto.publicKey(staticKey), tampered, challengeData(0), ephemeralPub,
                NODE_B_ID)).isFalse();
        assertThat(Discv5Crypto.idVerify(Discv5Crypto.publicKey(staticKey), expected, challengeData(1), ephemeralPub,
                NODE_B_ID)).isFalse();
    }

    @Test
    void aesGcmGivesTheVectorCiphertextAndRefusesAnotherAd() {
        byte[] key = hex("9f2d77db7004bf8a1a85107ac686990b");
        byte[] nonce = hex("27b5af763c446acd2749fe8e");
        byte[] ad = hex("93a7400fa0d6a694ebc24d5cf570f65d04215b6ac00757875e3f3a5f42107903");
        byte[] ciphertext = Discv5Crypto.aesGcmEncrypt(key, nonce, hex("01c20101"), ad);
        assertThat(ciphertext).isEqualTo(hex("a5d12a2d94b8ccb3ba55558229867dc13bfa3648"));
        assertThat(Discv5Crypto.aesGcmDecrypt(key, nonce, ciphertext, ad)).isEqualTo(hex("01c20101"));
        byte[] otherAd = ad.clone();
        otherAd[0] ^= 1;
        assertThat(Discv5Crypto.aesGcmDecrypt(key, nonce, ciphertext, otherAd)).isNull();
    }

    /** challenge-data of the vectors' WHOAREYOU: zero IV, nonce 0102…0c, id-nonce 0102…10, the given enr-seq. */
    private static byte[] challengeData(long enrSeq) {
        return Packet.whoareyou(ZERO_IV, hex("0102030405060708090a0b0c"), hex("0102030405060708090a0b0c0d0e0f10"),
                enrSeq).challengeData();
    }

    private static byte[] nodeId(byte[] scalar) {
        return NodeIds.of(Discv5Crypto.publicKey(scalar));
    }

    private static byte[] hex(String text) {
        return HEX.parseHex(text);
    }
}
