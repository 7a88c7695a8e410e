package io.wakurelay.p2p.crypto;

import static io.wakurelay.p2p.crypto.Vectors.bytes;
import static io.wakurelay.p2p.crypto.Vectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PeerIdTest {

    @Test
    void ed25519AndSecp256k1KeysAreInlinedAndRsaKeysHashed() {
        PeerId ed25519 = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        PeerId secp256k1 = PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey());
        PeerId rsa = PeerId.fromPublicKey(PublicKey.unmarshal(bytes("spec.rsa.public")));

        assertThat(ed25519.toBase58()).startsWith("12D3KooW");
        assertThat(ed25519.bytes()).hasSize(2 + 36).startsWith(0x00, 36);
        assertThat(secp256k1.toBase58()).startsWith("16Uiu2");
        assertThat(secp256k1.bytes()).hasSize(2 + 37).startsWith(0x00, 37);
        assertThat(rsa.toBase58()).startsWith("Qm");
        assertThat(rsa.bytes()).hasSize(34).startsWith(0x12, 0x20);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA",
        "16Uiu2HAmLhLvBoYaoZfaMUKuibM6ac163GwKY74c5kiSLg5KvLpY",
        "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N"})
    void everyBase58FormSurvivesParsingAndPrintingAndBytes(String text) {
        PeerId id = PeerId.parse(text);

        assertThat(id.toBase58()).isEqualTo(text).isEqualTo(id.toString());
        assertThat(PeerId.fromBytes(id.bytes())).isEqualTo(id).hasSameHashCodeAs(id);
        assertThat(PeerId.parse(id.toCid())).isEqualTo(id);
    }

    @Test
    void theSpecsCidAndBase58ExamplesAreTheSamePeer() {
        PeerId fromCid = PeerId.parse("bafzbeie5745rpv2m6tjyuugywy4d5ewrqgqqhfnf445he3omzpjbx5xqxe");
        PeerId fromBase58 = PeerId.parse("QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N");

        assertThat(fromCid).isEqualTo(fromBase58);
        assertThat(fromBase58.toCid()).isEqualTo("bafzbeie5745rpv2m6tjyuugywy4d5ewrqgqqhfnf445he3omzpjbx5xqxe");
        assertThat(fromCid.publicKey()).isEmpty();
    }

    @Test
    void base36AndUpperCaseCidsAreReadToo() {
        // the forms go-multiaddr's tests use for one Ed25519 peer
        PeerId base58 = PeerId.parse("12D3KooWCryG7Mon9orvQxcS1rYZjotPgpwoJNHHKcLLfE4Hf5mV");

        assertThat(PeerId.parse("k51qzi5uqu5dhb6l8spkdx7yxafegfkee5by8h7lmjh2ehc2sgg34z7c15vzqs")).isEqualTo(base58);
        assertThat(PeerId.parse("bafzaajaiaejcalj543iwv2d7pkjt7ykvefrkfu7qjfi6sduakhso4lay6abn2d5u")).isEqualTo(base58);
        assertThat(PeerId.parse("BAFZAAJAIAEJCALJ543IWV2D7PKJT7YKVEFRKFU7QJFI6SDUAKHSO4LAY6ABN2D5U")).isEqualTo(base58);
        assertThat(PeerId.parse("z" + Base58.encode(concat(new byte[] {1, 0x72}, base58.bytes())))).isEqualTo(base58);
    }

    @Test
    void theKeyOfAnIdentityPeerIdIsExtractedAndMatches() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        PeerId id = PeerId.parse(PeerId.fromPublicKey(key.publicKey()).toBase58());

        assertThat(id.publicKey()).contains(key.publicKey());
        assertThat(id.matches(key.publicKey())).isTrue();
        assertThat(id.matches(PrivateKey.generateSecp256k1().publicKey())).isFalse();
    }

    @Test
    void aHashedPeerIdMatchesItsKeyThoughItCannotHoldIt() {
        PublicKey rsa = PublicKey.unmarshal(bytes("spec.rsa.public"));
        PeerId id = PeerId.parse("QmaeANgBs1DTSxWSrPPtobgQuxW8XTfsS4ydbK4rCHzqxG");

        assertThat(id.publicKey()).isEmpty();
        assertThat(id.matches(rsa)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "1",
        "Qm",
        "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5", // one character short: 31-byte digest... or garbage
        "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5NN",
        "QmxoHT6iViN5xAjoz1VZ553cL31U9F94ht3QvWR1FrEbZY", // a sha2-256 multihash with a 33-byte digest
        "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx50", // '0' is not base58
        "12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SO",
        "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi", // a dag-pb CID, not libp2p-key
        "xyz",
        "bafzbeie5745rpv2m6tjyuugywy4d5ewrqgqqhfnf445he3omzpjbx5xqx",
        "12D3KooW"})
    void textThatIsNotAPeerIdIsRefused(String text) {
        assertThatThrownBy(() -> PeerId.parse(text)).isInstanceOf(KeyFormatException.class);
    }

    @Test
    void multihashesThatAreNotPeerIdsAreRefused() {
        byte[] ed25519 = PeerId.parse("12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA").bytes();
        byte[] sha256 = PeerId.parse("QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N").bytes();
        byte[] md5 = sha256.clone();
        md5[0] = (byte) 0xd5;
        byte[] tooLong = new byte[2 + 43];
        tooLong[1] = 43;
        byte[] garbageKey = ed25519.clone();
        garbageKey[2] = 0x09; // not field 1 any more

        assertThatThrownBy(() -> PeerId.fromBytes(new byte[0])).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(md5)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(Arrays.copyOf(sha256, 33))).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(Arrays.copyOf(sha256, 35))).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(Arrays.copyOf(ed25519, 37))).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(Arrays.copyOf(ed25519, 39))).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(tooLong)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(garbageKey)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PeerId.fromBytes(hex("0000"))).isInstanceOf(KeyFormatException.class);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
