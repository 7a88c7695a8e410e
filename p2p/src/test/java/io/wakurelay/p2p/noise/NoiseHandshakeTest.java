package io.wakurelay.p2p.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A libp2p Noise handshake between our initiator and our responder, in memory, as the host will run it. */
class NoiseHandshakeTest {

    private static final List<String> MUXERS = List.of("/yamux/1.0.0", "/mplex/6.7.0");

    private final PrivateKey dialerIdentity = PrivateKey.generateEd25519();
    private final PrivateKey listenerIdentity = PrivateKey.generateSecp256k1();
    private final NoiseHandshake initiator = NoiseHandshake.initiator();
    private final NoiseHandshake responder = NoiseHandshake.responder();

    @Test
    void bothSidesLearnEachOthersPeerIdMuxersAndStaticKey() {
        responder.readMessage(initiator.writeMessage(new byte[0]));
        byte[] fromResponder = initiator.readMessage(responder.writeMessage(
                NoisePayload.create(listenerIdentity, responder.localStaticKey(), MUXERS)));
        NoisePayload.Verified listener = NoisePayload.verify(fromResponder, initiator.remoteStaticKey());
        byte[] fromInitiator = responder.readMessage(initiator.writeMessage(
                NoisePayload.create(dialerIdentity, initiator.localStaticKey(), List.of("/mplex/6.7.0"))));
        NoisePayload.Verified dialer = NoisePayload.verify(fromInitiator, responder.remoteStaticKey());

        assertThat(listener.peerId()).isEqualTo(PeerId.fromPublicKey(listenerIdentity.publicKey()));
        assertThat(listener.streamMuxers()).isEqualTo(MUXERS);
        assertThat(dialer.peerId()).isEqualTo(PeerId.fromPublicKey(dialerIdentity.publicKey()));
        assertThat(dialer.key()).isEqualTo(dialerIdentity.publicKey());
        assertThat(dialer.streamMuxers()).containsExactly("/mplex/6.7.0");
        assertThat(initiator.isComplete()).isTrue();
        assertThat(responder.isComplete()).isTrue();
        assertThat(initiator.remoteStaticKey()).isEqualTo(responder.localStaticKey());
        assertThat(responder.remoteStaticKey()).isEqualTo(initiator.localStaticKey());
        assertThat(initiator.handshakeHash()).isEqualTo(responder.handshakeHash());
    }

    @Test
    void handshakeMessagesHaveTheSizesOfTheXxPattern() {
        byte[] first = initiator.writeMessage(new byte[0]);
        responder.readMessage(first);
        byte[] second = responder.writeMessage(new byte[10]);
        initiator.readMessage(second);
        byte[] third = initiator.writeMessage(new byte[20]);

        assertThat(first).hasSize(32);
        assertThat(second).hasSize(32 + 48 + 10 + 16);
        assertThat(third).hasSize(48 + 20 + 16);
    }

    @Test
    void transportMessagesFlowBothWaysInHeapAndDirectBuffers() {
        CipherPair[] pairs = completeHandshake();
        CipherPair dialer = pairs[0];
        CipherPair listener = pairs[1];

        for (int i = 0; i < 5; i++) {
            byte[] data = ("message " + i).getBytes(StandardCharsets.UTF_8);
            assertThat(roundTrip(dialer.sender(), listener.receiver(), data, i % 2 == 0)).isEqualTo(data);
            assertThat(roundTrip(listener.sender(), dialer.receiver(), data, i % 2 == 1)).isEqualTo(data);
        }
        byte[] largest = new byte[CipherState.MAX_PLAINTEXT_LENGTH];
        Arrays.fill(largest, (byte) 7);
        assertThat(roundTrip(dialer.sender(), listener.receiver(), largest, true)).isEqualTo(largest);
        assertThat(roundTrip(dialer.sender(), listener.receiver(), new byte[0], false)).isEmpty();
        assertThat(dialer.sender().nonce()).isEqualTo(7);
        assertThat(listener.receiver().nonce()).isEqualTo(7);
        assertThat(listener.sender().nonce()).isEqualTo(5);
    }

    @Test
    void aTamperedSecondMessageIsDetectedByTheInitiator() {
        responder.readMessage(initiator.writeMessage(new byte[0]));
        byte[] second = responder.writeMessage("payload".getBytes(StandardCharsets.UTF_8));
        second[40] ^= 1; // inside the encrypted static key

        assertThatThrownBy(() -> initiator.readMessage(second)).isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> initiator.writeMessage(new byte[0]))
                .isInstanceOf(NoiseException.class).hasMessageContaining("failed earlier");
        assertThat(initiator.isComplete()).isFalse();
    }

    @Test
    void aTamperedThirdMessageIsDetectedByTheResponder() {
        responder.readMessage(initiator.writeMessage(new byte[0]));
        initiator.readMessage(responder.writeMessage(new byte[0]));
        byte[] third = initiator.writeMessage("payload".getBytes(StandardCharsets.UTF_8));
        third[third.length - 1] ^= 1; // the payload's tag

        assertThatThrownBy(() -> responder.readMessage(third)).isInstanceOf(NoiseException.class);
        assertThatThrownBy(responder::split).isInstanceOf(NoiseException.class);
    }

    @Test
    void aFirstMessageWithAnotherEphemeralKeyLeadsToAFailedSecondMessage() {
        byte[] first = initiator.writeMessage(new byte[0]);
        first[0] ^= 1; // the cleartext ephemeral key: caught by the AEAD of message 1, whose h covers it
        responder.readMessage(first);

        byte[] second = responder.writeMessage(new byte[0]);
        assertThatThrownBy(() -> initiator.readMessage(second)).isInstanceOf(NoiseException.class);
    }

    @Test
    void messagesOfTheWrongLengthAreRefused() {
        assertThatThrownBy(() -> responder.readMessage(new byte[31]))
                .isInstanceOf(NoiseException.class).hasMessageContaining("31");

        NoiseHandshake freshResponder = NoiseHandshake.responder();
        freshResponder.readMessage(initiator.writeMessage(new byte[0]));
        byte[] second = freshResponder.writeMessage(new byte[0]);
        assertThatThrownBy(() -> initiator.readMessage(Arrays.copyOf(second, 32 + 48 + 15)))
                .isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> NoiseHandshake.initiator().writeMessage(new byte[65535 - 31]))
                .isInstanceOf(NoiseException.class).hasMessageContaining("65535");
        assertThatThrownBy(() -> NoiseHandshake.responder().readMessage(new byte[65536]))
                .isInstanceOf(NoiseException.class);
    }

    @Test
    void callsOutOfTurnAreRefused() {
        assertThatThrownBy(() -> initiator.readMessage(new byte[32]))
                .isInstanceOf(NoiseException.class).hasMessageContaining("out of turn");
        assertThatThrownBy(() -> responder.writeMessage(new byte[0]))
                .isInstanceOf(NoiseException.class).hasMessageContaining("out of turn");
        assertThatThrownBy(initiator::split).isInstanceOf(NoiseException.class).hasMessageContaining("not complete");
        assertThatThrownBy(initiator::remoteStaticKey).isInstanceOf(NoiseException.class);

        byte[] first = initiator.writeMessage(new byte[0]);
        assertThatThrownBy(() -> initiator.writeMessage(new byte[0])).isInstanceOf(NoiseException.class);
        responder.readMessage(first);
        assertThat(responder.isMyTurn()).isTrue();
        assertThat(initiator.isMyTurn()).isFalse();
    }

    @Test
    void aCompleteHandshakeSplitsOnceAndTakesNoMoreMessages() {
        completeHandshake(); // splits both

        assertThatThrownBy(initiator::split).isInstanceOf(NoiseException.class).hasMessageContaining("already");
        assertThatThrownBy(() -> initiator.writeMessage(new byte[0])).isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> responder.readMessage(new byte[100])).isInstanceOf(NoiseException.class);
    }

    @Test
    void aStaticKeyCanServeManyHandshakes() {
        X25519.KeyPair hostKey = X25519.generate();

        NoiseHandshake first = NoiseHandshake.responder(hostKey, ChaChaPoly.JDK);
        NoiseHandshake second = NoiseHandshake.responder(hostKey, ChaChaPoly.JDK);

        assertThat(first.localStaticKey()).isEqualTo(second.localStaticKey()).isEqualTo(hostKey.publicKey());
    }

    /** The two sides' cipher pairs: dialer's, then listener's. */
    private CipherPair[] completeHandshake() {
        responder.readMessage(initiator.writeMessage(new byte[0]));
        initiator.readMessage(responder.writeMessage(new byte[0]));
        responder.readMessage(initiator.writeMessage(new byte[0]));
        return new CipherPair[] {initiator.split(), responder.split()};
    }

    static byte[] roundTrip(CipherState sender, CipherState receiver, byte[] data, boolean direct) {
        ByteBuffer plaintext = direct ? ByteBuffer.allocateDirect(data.length).put(data).flip() : ByteBuffer.wrap(data);
        ByteBuffer ciphertext = direct ? ByteBuffer.allocateDirect(data.length + 16) : ByteBuffer.allocate(data.length + 16);
        assertThat(sender.encrypt(plaintext, ciphertext)).isEqualTo(data.length + 16);
        assertThat(plaintext.hasRemaining()).isFalse();
        ciphertext.flip();
        ByteBuffer decrypted = direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
        assertThat(receiver.decrypt(ciphertext, decrypted)).isEqualTo(data.length);
        assertThat(ciphertext.hasRemaining()).isFalse();
        byte[] out = new byte[data.length];
        decrypted.flip().get(out);
        return out;
    }
}
