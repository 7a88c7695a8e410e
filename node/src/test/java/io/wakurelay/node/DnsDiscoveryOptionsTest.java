package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.dns.EnrTreeUrl;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --dns-discovery, --dns-discovery-url and --dns-discovery-name-server. */
class DnsDiscoveryOptionsTest {
    private static final String URL = "enrtree://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT2@nodes.example.org";
    private static final String URL2 = "enrtree://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT2@more.example.org";

    @TempDir
    Path dir;

    private DnsDiscoveryConfig parse(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--data-dir";
        all[1] = dir.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return NodeMain.parse(all, Map.of()).discovery().dns();
    }

    @Test
    void offByDefaultWithNwakusNameServers() {
        DnsDiscoveryConfig dns = parse();
        assertThat(dns.enabled()).isFalse();
        assertThat(dns.nameServers()).containsExactly(new InetSocketAddress("1.1.1.1", 53),
                new InetSocketAddress("1.0.0.1", 53));
    }

    @Test
    void aTreeUrlTurnsItOnAndNameServersMayNameTheirPort() {
        DnsDiscoveryConfig dns = parse("--dns-discovery", "--dns-discovery-url", URL, "--dns-discovery-url", URL2,
                "--dns-discovery-name-server", "127.0.0.53:5353", "--dns-discovery-name-server", "[::1]:53,127.0.0.1");
        assertThat(dns.enabled()).isTrue();
        assertThat(dns.urls()).containsExactly(EnrTreeUrl.parse(URL), EnrTreeUrl.parse(URL2));
        assertThat(dns.nameServers()).containsExactly(new InetSocketAddress("127.0.0.53", 5353),
                new InetSocketAddress("::1", 53), new InetSocketAddress("127.0.0.1", 53));
        assertThat(DnsDiscoveryConfig.format(dns.nameServers())).isEqualTo("127.0.0.53:5353,0:0:0:0:0:0:0:1,127.0.0.1");
        assertThat(parse("--dns-discovery-url", URL).enabled()).isTrue(); // as nwaku: the URL alone is enough
        assertThat(parse("--dns-discovery").enabled()).isFalse(); // and the flag alone does nothing
    }

    @Test
    void refusesWhatIsNotATreeOrAnAddress() {
        assertThatThrownBy(() -> parse("--dns-discovery-url", "enr:-abc")).hasMessageContaining("--dns-discovery-url");
        for (String bad : List.of("dns.google", "dead.beef", "1.2.3", "127.0.0.1:0", "127.0.0.1:x", "[::1", "1.2.3.4:70000")) {
            assertThatThrownBy(() -> parse("--dns-discovery-url", URL, "--dns-discovery-name-server", bad))
                    .as(bad).hasMessageContaining("--dns-discovery-name-server");
        }
    }
}
