package io.wakurelay.p2p.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MultibaseTest {

    @ParameterizedTest
    @CsvSource({
        // draft-msporny-base58 examples
        "48656c6c6f20576f726c6421, 2NEpo7TZRRrLZSi2U",
        "0000287fb4cd, 11233QC4",
        "00, 1",
        "'', ''"})
    void base58MatchesTheDraftStandardsExamples(String hex, String base58) {
        byte[] bytes = HexFormat.of().parseHex(hex);

        assertThat(Base58.encode(bytes)).isEqualTo(base58);
        assertThat(Base58.decode(base58)).isEqualTo(bytes);
    }

    @Test
    void base58SurvivesRoundTripsOfRandomBytesWithLeadingZeros() {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            byte[] bytes = new byte[random.nextInt(60)];
            random.nextBytes(bytes);
            for (int z = 0; z < Math.min(bytes.length, random.nextInt(4)); z++) {
                bytes[z] = 0;
            }
            assertThat(Base58.decode(Base58.encode(bytes))).isEqualTo(bytes);
            assertThat(Multibase.decode(Multibase.encodeBase32(bytes))).isEqualTo(bytes);
            assertThat(Multibase.decode(Multibase.encodeBase64Url(bytes))).isEqualTo(bytes);
        }
    }

    @ParameterizedTest
    @CsvSource({
        // multiformats/multibase tests: "yes mani !" in each base
        "f796573206d616e692021",
        "F796573206D616E692021",
        "bpfsxgidnmfxgsibb",
        "BPFSXGIDNMFXGSIBB",
        "k2lcpzo5yikidynfl",
        "K2LCPZO5YIKIDYNFL",
        "z7paNL19xttacUY",
        "meWVzIG1hbmkgIQ",
        "MeWVzIG1hbmkgIQ==",
        "ueWVzIG1hbmkgIQ",
        "UeWVzIG1hbmkgIQ=="})
    void everySupportedBaseDecodesTheMultibaseTestString(String text) {
        assertThat(new String(Multibase.decode(text), StandardCharsets.UTF_8)).isEqualTo("yes mani !");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "qabc", "bABC", "Babc", "b1", "bpfsxgidnmfxgsib", "z0OIl", "fxyz", "Fabc",
        "meWVzIG1hbmkgIQ==", "k!"})
    void malformedMultibaseTextIsRefused(String text) {
        assertThatThrownBy(() -> Multibase.decode(text)).isInstanceOf(KeyFormatException.class);
    }

    @Test
    void overlongRadixTextIsRefusedBeforeAnyQuadraticWork() {
        assertThatThrownBy(() -> Base58.decode("2".repeat(RadixCodec.MAX_TEXT_LENGTH + 1)))
                .isInstanceOf(KeyFormatException.class);
    }
}
