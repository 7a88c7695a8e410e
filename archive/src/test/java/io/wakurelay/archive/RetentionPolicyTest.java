package io.wakurelay.archive;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetentionPolicyTest {
    @Test
    void parsesNwakuSpecs() {
        assertThat(RetentionPolicy.parse("none")).isEqualTo(new RetentionPolicy.None());
        assertThat(RetentionPolicy.parse("time:172800")).isEqualTo(new RetentionPolicy.Time(Duration.ofDays(2)));
        assertThat(RetentionPolicy.parse("capacity:50000")).isEqualTo(new RetentionPolicy.Capacity(50_000));
        assertThat(RetentionPolicy.parse("size:1024")).isEqualTo(new RetentionPolicy.Size(1024));
        assertThat(RetentionPolicy.parse("size:30GB")).isEqualTo(new RetentionPolicy.Size(30L << 30));
        assertThat(RetentionPolicy.parse("size:512mb")).isEqualTo(new RetentionPolicy.Size(512L << 20));
        assertThat(RetentionPolicy.parse("size:2KB")).isEqualTo(new RetentionPolicy.Size(2048));
        assertThat(RetentionPolicy.parse("size:1.5GB")).isEqualTo(new RetentionPolicy.Size(3L << 29));
        assertThat(RetentionPolicy.parse(" Time:60 ")).isEqualTo(new RetentionPolicy.Time(Duration.ofMinutes(1)));
    }

    @Test
    void specRoundTrips() {
        for (String spec : new String[]{"none", "time:3600", "capacity:10", "size:4096"}) {
            assertThat(RetentionPolicy.parse(spec).spec()).isEqualTo(spec);
        }
    }

    @Test
    void refusesWhatItCannotParseAndSaysWhy() {
        assertThatThrownBy(() -> RetentionPolicy.parse("forever")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'forever'").hasMessageContaining("time:<seconds>");
        assertThatThrownBy(() -> RetentionPolicy.parse("time:2d")).hasMessageContaining("'2d' is not a whole number of seconds");
        assertThatThrownBy(() -> RetentionPolicy.parse("time:0")).hasMessageContaining("positive");
        assertThatThrownBy(() -> RetentionPolicy.parse("capacity:-5")).hasMessageContaining("positive");
        assertThatThrownBy(() -> RetentionPolicy.parse("size:lots")).hasMessageContaining("is not a size");
        assertThatThrownBy(() -> RetentionPolicy.parse("size:0GB")).hasMessageContaining("positive");
        assertThatThrownBy(() -> RetentionPolicy.parse("age:5")).hasMessageContaining("unknown kind 'age'");
        assertThatThrownBy(() -> RetentionPolicy.parse("size:99999999999GB")).hasMessageContaining("63 bits");
    }
}
