package io.wakurelay.services;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FailuresTest {
    @Test
    void aFailedDialIsDescribedByItsCauseWithoutExceptionClassNames() {
        Throwable refused = new IllegalStateException(new RuntimeException(
                "io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:9"));

        assertThat(Failures.reason(refused)).isEqualTo("Connection refused: /127.0.0.1:9");
        assertThat(Failures.reason(new IllegalStateException())).isEqualTo("the connection failed");
    }
}
