package io.wakurelay.discovery.enr;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalEnrTest {

    private final PrivateKey key = PrivateKey.generateSecp256k1();

    @TempDir
    Path dataDir;

    private EnrBuilder at(int port) {
        return EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/192.0.2.1/tcp/" + port)));
    }

    @Test
    void theFirstRecordOfANewDataDirectoryHasSequenceNumberOne() {
        assertThat(LocalEnr.publish(dataDir, at(60000)).current().seq()).isEqualTo(1);
        assertThat(Files.exists(dataDir.resolve(LocalEnr.FILE_NAME))).isTrue();
    }

    @Test
    void aRestartWithTheSameContentKeepsTheSequenceNumberAndTheRecord() {
        Enr first = LocalEnr.publish(dataDir, at(60000)).current();
        Enr again = LocalEnr.publish(dataDir, at(60000)).current();
        assertThat(again).isEqualTo(first);
    }

    @Test
    void aRestartWithChangedContentGrowsTheSequenceNumber() {
        LocalEnr.publish(dataDir, at(60000));
        assertThat(LocalEnr.publish(dataDir, at(60001)).current().seq()).isEqualTo(2);
        assertThat(LocalEnr.publish(dataDir, at(60000)).current().seq()).isEqualTo(3);
    }

    @Test
    void anUpdateWhileRunningGrowsTheSequenceNumberOnlyWhenSomethingChanged() {
        LocalEnr local = LocalEnr.publish(dataDir, at(60000));
        assertThat(local.update(at(60000)).seq()).isEqualTo(1);
        assertThat(local.update(at(60002)).seq()).isEqualTo(2);
        assertThat(Enr.parse(readFile()).seq()).isEqualTo(2);
    }

    @Test
    void theExternalAddressLearnedByDiscv5ReplacesIpAndUdpAndGrowsTheSequenceNumber() throws Exception {
        EnrBuilder builder = at(60000).udpPort(9000);
        LocalEnr local = LocalEnr.publish(dataDir, builder);
        Enr updated = local.update(builder.externalAddress(new java.net.InetSocketAddress("198.51.100.9", 9123)));
        assertThat(updated.seq()).isEqualTo(2);
        assertThat(updated.ip4()).contains(java.net.InetAddress.getByName("198.51.100.9"));
        assertThat(updated.udp()).contains(9123);
        assertThat(updated.tcp()).contains(60000); // the TCP port stays
        assertThat(Enr.parse(readFile())).isEqualTo(updated);
        // a restart with the address announced as before starts from the file: the count goes on
        assertThat(LocalEnr.publish(dataDir, at(60000).udpPort(9000)).current().seq()).isEqualTo(3);
        // IPv6: ip6 and udp6
        Enr six = local.update(builder.externalAddress(new java.net.InetSocketAddress("2001:db8::9", 9124)));
        assertThat(six.ip6()).contains(java.net.InetAddress.getByName("2001:db8::9"));
        assertThat(six.udp6()).contains(9124);
    }

    @Test
    void aCorruptOrForeignRecordFileStartsTheCountAgainRatherThanStoppingTheNode() throws Exception {
        Files.writeString(dataDir.resolve(LocalEnr.FILE_NAME), "enr:not-a-record");
        assertThat(LocalEnr.publish(dataDir, at(60000)).current().seq()).isEqualTo(1);
        Files.writeString(dataDir.resolve(LocalEnr.FILE_NAME), EnrTest.EIP778_RECORD);
        assertThat(LocalEnr.publish(dataDir, at(60000)).current().seq()).isEqualTo(1);
        Files.write(dataDir.resolve(LocalEnr.FILE_NAME), new byte[1 << 20]);
        assertThat(LocalEnr.publish(dataDir, at(60000)).current().seq()).isEqualTo(1);
    }

    private String readFile() {
        try {
            return Files.readString(dataDir.resolve(LocalEnr.FILE_NAME));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
