package io.wakurelay.node.rest;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** nwaku's createStoreQuery, read the same way: what each parameter means, and nwaku's words when it does not parse. */
class StoreQueryParserTest {
    private static final String HASH = "0x" + "0a".repeat(32);

    private static StoreQueryParser.Parsed parse(String query) {
        return StoreQueryParser.parse(QueryParameters.of("/store/v3/messages?" + query));
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "True", "TRUE", "yes", "Y", "on", "1", "t_r_u_e"})
    void trueInNimsParseBool(String text) {
        assertThat(StoreQueryParser.parseBool(text, "", false)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "False", "no", "n", "OFF", "0"})
    void falseInNimsParseBool(String text) {
        assertThat(StoreQueryParser.parseBool(text, "", true)).isFalse();
    }

    @Test
    void anythingElseIsNimsError() {
        assertThatThrownBy(() -> StoreQueryParser.parseBool("2", "include data parsing error: ", false))
                .hasMessage("include data parsing error: cannot interpret as a bool: 2");
    }

    @Test
    void hashesAreHexWithOrWithout0xAndExactly32Bytes() {
        MessageHash hash = MessageHash.parse(HASH);
        assertThat(StoreQueryParser.hash(HASH)).isEqualTo(hash);
        assertThat(StoreQueryParser.hash(HASH.substring(2).toUpperCase())).isEqualTo(hash);
        assertThatThrownBy(() -> StoreQueryParser.hash("0x" + "0a".repeat(31)))
                .hasMessage("waku message hash parsing error: invalid hash length: 31");
        assertThatThrownBy(() -> StoreQueryParser.hash("0x0"))
                .hasMessage("Exception converting hex string to bytes: hex string must have even length");
        assertThatThrownBy(() -> StoreQueryParser.hash("0xg0"))
                .hasMessage("Exception converting hex string to bytes: g is not a hexadecimal character");
        assertThatThrownBy(() -> StoreQueryParser.hash("0x٠٠")) // Arabic-Indic digits are not hex to Nim
                .hasMessageStartingWith("Exception converting hex string to bytes: ");
    }

    @Test
    void pageSizeEmptyOrZeroIsTheDefaultAndNegativeOrLargeIsTheMaximum() {
        assertThat(parse("pageSize=").query().pageSize()).isEqualTo(StoreQuery.DEFAULT_PAGE_SIZE);
        assertThat(parse("pageSize=0").query().pageSize()).isEqualTo(StoreQuery.DEFAULT_PAGE_SIZE);
        assertThat(parse("pageSize=-1").query().pageSize()).isEqualTo(StoreQuery.MAX_PAGE_SIZE);
        assertThat(parse("pageSize=5000").query().pageSize()).isEqualTo(StoreQuery.MAX_PAGE_SIZE);
        assertThat(parse("pageSize=7&pageSize=9").query().pageSize()).isEqualTo(7);
    }

    @Test
    void timesThatAreNotPositiveAreNoBound() {
        StoreQuery query = parse("startTime=0&endTime=-3").query();
        assertThat(query.startTime()).isNull();
        assertThat(query.endTime()).isNull();
        assertThat(parse("startTime=5&endTime=4").matchesNothing()).isTrue();
    }

    @Test
    void ascendingIsForwardWhenAbsentEmptyOrTrueAndBackwardOtherwise() {
        assertThat(parse("").query().ascending()).isTrue();
        assertThat(parse("ascending=").query().ascending()).isTrue();
        assertThat(parse("ascending=true").query().ascending()).isTrue();
        assertThat(parse("ascending=True").query().ascending()).isFalse();
        assertThat(parse("ascending=false").query().ascending()).isFalse();
    }

    /** As nwaku: chronos decodes the value, then createStoreQuery splits it, so that %2C separates as ',' does. */
    @Test
    void listsAreSplitAfterTheyAreDecoded() {
        assertThat(parse("contentTopics=%2Fa%2F1%2Fb%2Fc%2C%2Fd%2F1%2Fe%2Ff").query().contentTopics()).containsExactly("/a/1/b/c", "/d/1/e/f");
        String other = "0x" + "0b".repeat(32);
        assertThat(parse("hashes=" + HASH + "%2C" + other).query().hashes())
                .containsExactly(MessageHash.parse(HASH), MessageHash.parse(other));
        assertThat(parse("hashes=" + HASH + "%2C").query().hashes()).containsExactly(MessageHash.parse(HASH));
        assertThat(parse("contentTopics=%20").query().contentTopics()).containsExactly(" ");
        assertThat(parse("contentTopics=%2C").matchesNothing()).isTrue();
        assertThat(parse("contentTopics=").query().contentTopics()).isEmpty();
    }

    @Test
    void topicsThatNoMessageCanHaveMatchNothing() {
        assertThat(parse("pubsubTopic=nope").matchesNothing()).isTrue();
        assertThat(parse("contentTopics=a%00b").matchesNothing()).isTrue();
        assertThat(parse("contentTopics=a%00b,Hello%20World!").query().contentTopics()).containsExactly("Hello World!");
        assertThat(parse("PubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F1&colour=blue").query().pubsubTopic()).isEqualTo("/waku/2/rs/0/1");
    }
}
