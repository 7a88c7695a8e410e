package io.wakurelay.node.rest;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HostPolicyTest {
    @Test
    void onLoopbackOnlyTheBoundAddressAndLocalhostAreAccepted() {
        HostPolicy hosts = new HostPolicy("127.0.0.1", List.of());
        assertThat(hosts.allows("127.0.0.1:8645")).isTrue();
        assertThat(hosts.allows("127.0.0.1")).isTrue();
        assertThat(hosts.allows("[::ffff:127.0.0.1]:8645")).isTrue();
        assertThat(hosts.allows("localhost:8645")).isTrue();
        assertThat(hosts.allows("LocalHost.:18645")).as("case, a trailing dot and another port (forwarded) do not matter").isTrue();
        assertThat(hosts.allows("rebind.attacker.example:8645")).isFalse();
        assertThat(hosts.allows("127.0.0.2:8645")).isFalse();
        assertThat(hosts.allows("[::1]:8645")).as("not the address bound").isFalse();
        assertThat(hosts.allows("localhost.attacker.example")).isFalse();
        assertThat(hosts.allows(null)).as("HTTP/1.0 without Host").isTrue();
    }

    @Test
    void malformedHostsAreRefused() {
        HostPolicy hosts = new HostPolicy("0.0.0.0", List.of("*"));
        assertThat(hosts.allows("")).isFalse();
        assertThat(hosts.allows(":8645")).isFalse();
        assertThat(hosts.allows("::1")).as("an IPv6 literal must be bracketed").isFalse();
        assertThat(hosts.allows("[::1")).isFalse();
        assertThat(hosts.allows("[::1]x")).isFalse();
    }

    @Test
    void onEveryInterfaceAnyIpLiteralIsAcceptedButNamesOnlyWhenAllowed() {
        HostPolicy hosts = new HostPolicy("0.0.0.0", List.of("node-b", "Wakurelay.Example"));
        assertThat(hosts.allows("10.1.2.3:8645")).isTrue();
        assertThat(hosts.allows("[fe80::1]:8645")).isTrue();
        assertThat(hosts.allows("localhost:8645")).isTrue();
        assertThat(hosts.allows("node-b:8645")).isTrue();
        assertThat(hosts.allows("wakurelay.example")).isTrue();
        assertThat(hosts.allows("node-c:8645")).isFalse();
        assertThat(new HostPolicy("0.0.0.0", List.of("*")).allows("anything.example:1")).isTrue();
    }

    @Test
    void onAnotherInterfaceLocalhostIsNotThatInterface() {
        HostPolicy hosts = new HostPolicy("192.0.2.7", List.of());
        assertThat(hosts.allows("192.0.2.7:8645")).isTrue();
        assertThat(hosts.allows("localhost:8645")).isFalse();
        assertThat(hosts.allows("127.0.0.1:8645")).isFalse();
    }
}
