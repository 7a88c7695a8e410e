package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Real services on 127.0.0.1: our record announces an address the others do not see us at (10.9.8.7); the PONGs of
 * distinct nodes name 127.0.0.1 and our port, and once 3 of them agree (the threshold set here) the record is
 * updated; one node answering again and again does not count twice.
 */
class EnrAutoUpdateTest {

    private static final String ANNOUNCED = "10.9.8.7";

    @Test
    void theRecordFollowsTheAddressDistinctNodesSeeAndOneNodeCannotMoveIt() throws Exception {
        try (LocalDiscv5Node ours = new LocalDiscv5Node(List.of(),
                c -> c.toBuilder().enrAutoUpdate(true).addressVoteThreshold(3).build());
             LocalDiscv5Node a = new LocalDiscv5Node(List.of());
             LocalDiscv5Node b = new LocalDiscv5Node(List.of());
             LocalDiscv5Node c = new LocalDiscv5Node(List.of())) {
            int port = ours.service.localAddress().getPort();
            ours.setRecord(LocalDiscv5Node.recordAt(ours.key, ANNOUNCED, port, 1));
            List<InetSocketAddress> told = new CopyOnWriteArrayList<>();
            ours.service.onExternalAddress(address -> {
                told.add(address);
                ours.setRecord(LocalDiscv5Node.recordAt(ours.key, address.getAddress().getHostAddress(),
                        address.getPort(), ours.record().seq() + 1));
            });

            ping(ours, a);
            ping(ours, b);
            for (int i = 0; i < 10; i++) {
                ping(ours, a); // the same node again: still one vote
            }
            assertThat(told).isEmpty();
            assertThat(ours.record().seq()).isEqualTo(1);
            assertThat(ours.metrics.addressVotes()).as("a's eleven PONGs hold one vote, b's another").isEqualTo(2);

            ping(ours, c);
            InetSocketAddress seen = new InetSocketAddress("127.0.0.1", port);
            assertThat(told).containsExactly(seen);
            Enr updated = ours.record();
            assertThat(updated.seq()).isEqualTo(2);
            assertThat(NodeEntry.endpoint(updated)).contains(seen);
            assertThat(ours.metrics.enrAutoUpdateCount()).isEqualTo(1.0);
            // the PONGs now carry the new sequence number: the others ask for the new record
            List<Message.Pong> pongs = new ArrayList<>();
            for (LocalDiscv5Node node : List.of(a, b, c)) {
                pongs.add(node.service.ping(ours.node()).get(5, TimeUnit.SECONDS));
            }
            assertThat(pongs).allSatisfy(p -> assertThat(p.enrSeq()).isEqualTo(2));
            ping(ours, a);
            assertThat(told).hasSize(1); // the record names the majority now: nothing more to do
        }
    }

    @Test
    void withoutTheOptionTheRecordStaysAsItIs() throws Exception {
        try (LocalDiscv5Node ours = new LocalDiscv5Node(List.of(), c -> c.toBuilder().addressVoteThreshold(2).build());
             LocalDiscv5Node a = new LocalDiscv5Node(List.of());
             LocalDiscv5Node b = new LocalDiscv5Node(List.of())) {
            int port = ours.service.localAddress().getPort();
            ours.setRecord(LocalDiscv5Node.recordAt(ours.key, ANNOUNCED, port, 1));
            List<InetSocketAddress> told = new CopyOnWriteArrayList<>();
            ours.service.onExternalAddress(told::add);
            ping(ours, a);
            ping(ours, b);
            assertThat(told).isEmpty();
            assertThat(ours.record().seq()).isEqualTo(1);
            assertThat(ours.metrics.enrAutoUpdateCount()).isZero();
        }
    }

    /** Our PING and its PONG; the vote is counted on the loop before the answer completes the future. */
    private static void ping(LocalDiscv5Node from, LocalDiscv5Node to) throws Exception {
        from.service.ping(to.node()).get(5, TimeUnit.SECONDS);
    }
}
