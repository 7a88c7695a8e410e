package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.echo.EchoProtocol;

import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Tag("slow")
class HostileConnectionsTest {
    private final TestHosts hosts = new TestHosts();

    @AfterEach
    void close() {
        hosts.close();
    }

    @Test
    void garbageOnHundredsOfConnectionsLeavesAnHonestPeersTrafficIntact() throws Exception {
        // the garbage all comes from 127.0.0.1: this test is about what it sends, not about how many it opens
        Host target = hosts.start(x -> x.maxConnections(500).reservedOutboundSlots(10).ipColocationLimit(0)
                .handshakeTimeout(Duration.ofSeconds(2)));
        Host honest = hosts.start();
        Connection connection = honest.dial(TestHosts.address(target)).block(Duration.ofSeconds(10));

        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> attacks = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int seed = i;
            attacks.add(pool.submit(() -> attack(target, seed)));
        }
        EchoClient.Result echo = EchoClient.run(connection, 5_000_000).block(Duration.ofSeconds(60));
        for (Future<?> f : attacks) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(echo.receivedSha256()).isEqualTo(echo.sentSha256());
        assertThat(connection.isOpen()).isTrue();
        Eventually.until(() -> target.connections().size() == 1, Duration.ofSeconds(10));
        double failed = hosts.registry(target).find("libp2p.handshakes").counters().stream()
                .filter(c -> !"success".equals(c.getId().getTag("outcome"))).mapToDouble(c -> c.count()).sum();
        assertThat(failed).isEqualTo(300);
        assertThat(honest.dial(TestHosts.address(target)).block(Duration.ofSeconds(10))).isSameAs(connection);
    }

    /** One hostile connection: random bytes, a valid security proposal then garbage, or an oversized Noise message. */
    private static void attack(Host target, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Socket s = new Socket()) {
            s.connect(target.boundAddress(), 2000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            switch (seed % 3) {
                case 0 -> {
                    byte[] junk = new byte[random.nextInt(1, 4096)];
                    random.nextBytes(junk);
                    out.write(junk);
                }
                case 1 -> {
                    out.write("\u0013/multistream/1.0.0\n\u0007/noise\n".getBytes(StandardCharsets.US_ASCII));
                    byte[] junk = new byte[random.nextInt(1, 512)];
                    random.nextBytes(junk);
                    out.write(junk);
                }
                default -> {
                    out.write("\u0013/multistream/1.0.0\n\u0007/noise\n".getBytes(StandardCharsets.US_ASCII));
                    out.write(new byte[]{(byte) 0xff, (byte) 0xff});
                    out.write(new byte[1000]);
                    s.shutdownOutput();
                }
            }
            out.flush();
            while (s.getInputStream().read(new byte[1024]) >= 0) {
                // until the host hangs up
            }
        } catch (IOException e) {
            // reset by the host: expected
        }
    }
}
