package io.wakurelay.node;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/docker-compose.yml gives node-a a fixed node key so that the loadgen can dial it by peer id: the peer id it
 * dials must be the one that key makes (node-b finds node-a by discv5 from node-a's ENR, with no address given).
 */
class ComposeNodeKeyTest {
    private static final Path COMPOSE = Path.of("..", "deploy", "docker-compose.yml");

    @Test
    void theLoadgenDialsThePeerIdOfNodeAsFixedKey() throws Exception {
        String compose = Files.readString(COMPOSE);
        Matcher key = Pattern.compile("WAKURELAY_NODEKEY: \\$\\{NODE_A_NODEKEY:-([0-9a-f]{64})}").matcher(compose);
        assertThat(key.find()).as("node-a's default node key in %s", COMPOSE).isTrue();
        String expected = PeerId.fromPublicKey(PrivateKey.secp256k1Hex(key.group(1)).publicKey()).toString();

        Matcher dialed = Pattern.compile("/dns4/node-a/tcp/60000/p2p/\\$\\{NODE_A_PEER_ID:-([1-9A-HJ-NP-Za-km-z]+)}").matcher(compose);
        Set<String> peerIds = new HashSet<>();
        int uses = 0;
        while (dialed.find()) {
            peerIds.add(dialed.group(1));
            uses++;
        }
        assertThat(uses).as("the loadgen's --publish-to").isEqualTo(1);
        assertThat(peerIds).containsExactly(expected);
    }
}
