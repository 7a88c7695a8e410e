package io.wakurelay.p2p.mss;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MultistreamSelectTest {
    private final ByteBuf toListener = Unpooled.buffer();
    private final ByteBuf toDialer = Unpooled.buffer();

    private static ByteBuf message(String text) {
        ByteBuf b = Unpooled.buffer();
        MultistreamSelect.writeMessage(b, text);
        return b;
    }

    @Test
    void dialerAndListenerAgreeInOneRoundTripWithPipelinedProposal() {
        MultistreamSelect dialer = MultistreamSelect.dialer(List.of("/noise"));
        MultistreamSelect listener = MultistreamSelect.listener(Set.of("/noise")::contains);
        dialer.start(toListener);
        listener.start(toDialer);

        assertThat(listener.read(toListener, toDialer)).isEqualTo("/noise");
        assertThat(dialer.read(toDialer, toListener)).isEqualTo("/noise");
        assertThat(toListener.isReadable()).isFalse();
    }

    @Test
    void bytesAfterTheAgreementStayUnreadForTheProtocol() {
        MultistreamSelect listener = MultistreamSelect.listener(Set.of("/echo")::contains);
        ByteBuf in = Unpooled.wrappedBuffer(message(MultistreamSelect.PROTOCOL_ID), message("/echo"),
                Unpooled.copiedBuffer("hello", StandardCharsets.UTF_8));

        assertThat(listener.read(in, toDialer)).isEqualTo("/echo");
        assertThat(in.toString(StandardCharsets.UTF_8)).isEqualTo("hello");
    }

    @Test
    void listenerAnswersNaAndTheDialerProposesItsNextProtocol() {
        MultistreamSelect dialer = MultistreamSelect.dialer(List.of("/yamux/1.0.0", "/mplex/6.7.0"));
        MultistreamSelect listener = MultistreamSelect.listener(Set.of("/mplex/6.7.0")::contains);
        dialer.start(toListener);
        listener.start(toDialer);

        assertThat(listener.read(toListener, toDialer)).isNull();
        assertThat(dialer.read(toDialer, toListener)).isNull();
        assertThat(listener.read(toListener, toDialer)).isEqualTo("/mplex/6.7.0");
        assertThat(dialer.read(toDialer, toListener)).isEqualTo("/mplex/6.7.0");
    }

    @Test
    void dialerFailsWhenEveryProposalIsRefused() {
        MultistreamSelect dialer = MultistreamSelect.dialer(List.of("/a", "/b"));
        MultistreamSelect listener = MultistreamSelect.listener(p -> false);
        dialer.start(toListener);
        listener.start(toDialer);
        listener.read(toListener, toDialer);
        dialer.read(toDialer, toListener);
        listener.read(toListener, toDialer);

        assertThatThrownBy(() -> dialer.read(toDialer, toListener))
                .isInstanceOf(NegotiationException.NotSupported.class)
                .hasMessageContaining("/a").hasMessageContaining("/b");
    }

    @Test
    void negotiationProgressesWhenBytesArriveOneAtATime() {
        MultistreamSelect dialer = MultistreamSelect.dialer(List.of("/noise"));
        MultistreamSelect listener = MultistreamSelect.listener(Set.of("/noise")::contains);
        dialer.start(toListener);
        ByteBuf trickle = Unpooled.buffer();
        String selected = null;
        while (toListener.isReadable()) {
            trickle.writeByte(toListener.readByte());
            selected = listener.read(trickle, toDialer);
        }
        assertThat(selected).isEqualTo("/noise");
    }

    @Test
    void aFirstMessageOtherThanTheMultistreamHeaderIsRefused() {
        MultistreamSelect listener = MultistreamSelect.listener(p -> true);
        assertThatThrownBy(() -> listener.read(message("/noise"), toDialer))
                .isInstanceOf(NegotiationException.class).hasMessageContaining("expected /multistream/1.0.0");
    }

    @Test
    void aMessageWithoutItsNewlineIsRefused() {
        ByteBuf in = Unpooled.buffer();
        in.writeByte(3).writeBytes("abc".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> MultistreamSelect.listener(p -> true).read(in, toDialer))
                .isInstanceOf(NegotiationException.class).hasMessageContaining("newline");
    }

    @Test
    void aMessageLongerThanTheLimitIsRefusedFromItsLengthAlone() {
        ByteBuf in = Unpooled.buffer();
        in.writeByte(0x81).writeByte(0x08); // 1025
        assertThatThrownBy(() -> MultistreamSelect.listener(p -> true).read(in, toDialer))
                .isInstanceOf(NegotiationException.class).hasMessageContaining("exceeds the limit");
    }

    @Test
    void aDialerThatNeverProposesASupportedProtocolIsCutOff() {
        MultistreamSelect listener = MultistreamSelect.listener(p -> false);
        ByteBuf in = message(MultistreamSelect.PROTOCOL_ID);
        for (int i = 0; i <= MultistreamSelect.MAX_PROPOSALS; i++) {
            in.writeBytes(message("/unknown/" + i));
        }
        assertThatThrownBy(() -> listener.read(in, toDialer)).isInstanceOf(NegotiationException.class)
                .hasMessageContaining("proposals without agreement");
    }

    @Test
    void theDialerRefusesAnAnswerThatIsNeitherItsProposalNorNa() {
        MultistreamSelect dialer = MultistreamSelect.dialer(List.of("/noise"));
        dialer.start(toListener);
        ByteBuf answer = Unpooled.wrappedBuffer(message(MultistreamSelect.PROTOCOL_ID), message("/tls/1.0.0"));
        assertThatThrownBy(() -> dialer.read(answer, toListener)).isInstanceOf(NegotiationException.class)
                .hasMessageContaining("/tls/1.0.0");
    }
}
