package io.wakurelay.rln.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class AbiTest {

    @Test
    void selectorsAreTheFirstFourBytesOfKeccakOfTheSignature() {
        // solc's methodIdentifiers for our test contract and WakuRlnV2 (interop/chain), and ERC-20's transfer
        assertThat(Abi.callData("root()")).isEqualTo("0xebf0c717");
        assertThat(Abi.callData("nextFreeIndex()")).isEqualTo("0xd8826870");
        assertThat(Abi.callData("maxMembershipRateLimit()")).isEqualTo("0x2058bfea");
        assertThat(Abi.callData("transfer(address,uint256)")).isEqualTo("0xa9059cbb");
        assertThat(Abi.callData(Abi.ROOT)).isEqualTo("0xebf0c717");
        assertThat(Abi.callData(Abi.NEXT_FREE_INDEX)).isEqualTo("0xd8826870");
    }

    @Test
    void theContractsBigEndianRootBecomesTheProofsLittleEndianFieldElement() {
        for (byte[] rootLe : ChainVectors.roots()) {
            byte[] returned = ChainVectors.word(ChainVectors.uint256(rootLe));
            assertThat(Abi.rootToField(Abi.firstWord(returned))).isEqualTo(rootLe);
        }
        byte[] one = new byte[32];
        one[31] = 1;
        byte[] field = Abi.rootToField(one);
        assertThat(field[0]).isEqualTo((byte) 1);
        assertThat(field[31]).isZero();
    }

    @Test
    void aStaticReturnIsItsFirstWordAndAShortOneIsRefused() {
        byte[] twoWords = new byte[64];
        twoWords[31] = 7;
        twoWords[63] = 9;
        assertThat(Abi.unsignedLong(Abi.firstWord(twoWords))).isEqualTo(7);
        assertThatThrownBy(() -> Abi.firstWord(new byte[31])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("returned 31");
    }

    @Test
    void aCountMustFitIn63Bits() {
        byte[] uint32Max = ChainVectors.word(BigInteger.valueOf(0xffffffffL));
        assertThat(Abi.unsignedLong(uint32Max)).isEqualTo(0xffffffffL);
        byte[] huge = ChainVectors.word(BigInteger.ONE.shiftLeft(63));
        assertThatThrownBy(() -> Abi.unsignedLong(huge)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hexDataIsEvenAndPrefixed() {
        assertThat(Abi.data("0x")).isEmpty();
        assertThat(Abi.data("0x00ff")).isEqualTo(HexFormat.of().parseHex("00ff"));
        assertThatThrownBy(() -> Abi.data("00ff")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Abi.data("0x0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Abi.data("0xzz")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void quantitiesAreHexNumbersBelowTwoToThe63() {
        assertThat(Abi.quantity("0x7a69")).isEqualTo(31337);
        assertThat(Abi.quantity("0xe705")).isEqualTo(59141);
        assertThat(Abi.quantity("0x7fffffffffffffff")).isEqualTo(Long.MAX_VALUE);
        for (String bad : new String[] {"0x", "7a69", "0x8000000000000000", "0x10000000000000000", "0xg"}) {
            assertThatThrownBy(() -> Abi.quantity(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void errorTextsQuoteAtMost80Characters() {
        assertThat(Abi.shorten("x".repeat(1000))).hasSize(80).endsWith("...");
        assertThat(Abi.shorten("short")).isEqualTo("short");
    }
}
